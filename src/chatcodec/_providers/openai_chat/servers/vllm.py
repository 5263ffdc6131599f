"""vLLM's OpenAI-compatible server (``vllm serve``): sampling and structured-output
extras, reasoning as ``reasoning``.

The extra parameters are documented at
https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html#extra-parameters;
reasoning parsers return ``reasoning`` (``reasoning_content`` before v0.11) and the chat
templates read it back from assistant messages
(https://docs.vllm.ai/en/latest/features/reasoning_outputs.html). vLLM serves any model
under any name and has no fixed host, so it is chosen by option only.
"""

from __future__ import annotations

from chatcodec._providers.openai_chat.sampled_ids import give_ids_vllm, take_ids
from chatcodec._providers.openai_chat.servers import kinds
from chatcodec._providers.openai_chat.servers.server import Server
from chatcodec.contract import Extension, SampledIds, SamplingRange

DOCS = "https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html"
_EXTRA = DOCS + "#extra-parameters"
_PROTOCOL = "https://docs.vllm.ai/en/latest/api/vllm/entrypoints/openai/protocol.html"
_REASONING = "https://docs.vllm.ai/en/latest/features/reasoning_outputs.html"
_TOKEN_IDS = (
    "https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/chat_completion/protocol.py "
    "(ChatCompletionRequest.return_token_ids: the prompt's ids at the top level, each choice's sampled "
    "token_ids; on a stream, prompt_token_ids in the first chunk and each chunk's new token_ids)"
)
FIELDS = (
    "top_k",
    "min_p",
    "repetition_penalty",
    "length_penalty",
    "min_tokens",
    "best_of",
    "use_beam_search",
    "ignore_eos",
    "skip_special_tokens",
    "spaces_between_special_tokens",
    "stop_token_ids",
    "include_stop_str_in_output",
    "chat_template",
    "chat_template_kwargs",
    "add_generation_prompt",
    "continue_final_message",
    "guided_json",
    "guided_regex",
    "guided_choice",
    "guided_grammar",
    "structured_outputs",
    "priority",
    "request_id",
    "return_token_ids",
)

_RANGES = (
    "https://github.com/vllm-project/vllm/blob/main/vllm/sampling_params.py (SamplingParams._verify_args: "
    '"temperature must be non-negative", "top_p must be in (0, 1]", "presence_penalty must be in [-2, 2]", '
    '"frequency_penalty must be in [-2, 2]")'
)

SERVER = Server(
    "vllm",
    "vLLM",
    DOCS,
    extensions=(
        *(Extension(kinds.PROVIDER, kind, FIELDS, _EXTRA) for kind in kinds.REQUESTS),
        *(Extension(kinds.PROVIDER, kind, ("reasoning", "reasoning_content"), _REASONING) for kind in kinds.MESSAGES),
        Extension(kinds.PROVIDER, "ChatCompletion", ("prompt_logprobs", "kv_transfer_params"), _PROTOCOL),
        *(
            Extension(kinds.PROVIDER, kind, ("prompt_token_ids",), _TOKEN_IDS)
            for kind in ("ChatCompletion", "ChatCompletionChunk")
        ),
        Extension(kinds.PROVIDER, "*Choice", ("stop_reason", "token_ids"), _PROTOCOL),
    ),
    reasoning_field="reasoning",
    reasoning_source=_REASONING,
    efforts=("low", "medium", "high"),
    efforts_source=_PROTOCOL + " (ChatCompletionRequest.reasoning_effort)",
    parts=frozenset({"text", "image_url", "input_audio", "video_url"}),
    parts_source="https://docs.vllm.ai/en/latest/features/multimodal_inputs.html",
    sampling_ranges=(
        SamplingRange("temperature", 0.0, None, _RANGES),
        SamplingRange("top_p", 0.0, 1.0, _RANGES),
        SamplingRange("frequency_penalty", -2.0, 2.0, _RANGES),
        SamplingRange("presence_penalty", -2.0, 2.0, _RANGES),
    ),
    sampled_ids=SampledIds(
        ("return_token_ids", "logprobs"), take_ids, streams=True, source=_TOKEN_IDS, give_back=give_ids_vllm
    ),
)
"""vLLM."""
