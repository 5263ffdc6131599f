"""SGLang's OpenAI-compatible server: sampling extras, reasoning as ``reasoning_content``.

Extra sampling and constraint parameters:
https://docs.sglang.ai/basic_usage/sampling_params.html; with a reasoning parser the
answer splits thinking into ``reasoning_content`` (``separate_reasoning``), which the
chat templates read back (https://docs.sglang.ai/advanced_features/separate_reasoning.html).
Like vLLM it serves any model on any host: chosen by option only.
"""

from __future__ import annotations

from chatcodec._providers.openai_chat.sampled_ids import give_ids_sglang, take_ids
from chatcodec._providers.openai_chat.servers import kinds
from chatcodec._providers.openai_chat.servers.server import Server
from chatcodec.contract import Extension, SampledIds, SamplingRange

DOCS = "https://docs.sglang.ai/basic_usage/openai_api_completions.html"
_SAMPLING = "https://docs.sglang.ai/basic_usage/sampling_params.html"
_REASONING = "https://docs.sglang.ai/advanced_features/separate_reasoning.html"
_TOKEN_IDS = (
    "https://github.com/sgl-project/sglang/pull/30917 (return_token_ids on /v1/chat/completions: each "
    "choice's prompt_token_ids and token_ids, on a plain answer only; refused with stream=true)"
)
FIELDS = (
    "top_k",
    "min_p",
    "repetition_penalty",
    "min_new_tokens",
    "regex",
    "ebnf",
    "json_schema",
    "ignore_eos",
    "skip_special_tokens",
    "no_stop_trim",
    "stop_token_ids",
    "chat_template_kwargs",
    "separate_reasoning",
    "stream_reasoning",
    "continue_final_message",
    "lora_path",
    "rid",
    "return_token_ids",
)

_RANGES = (
    _SAMPLING + " (temperature: 0 or more, 0 is greedy; top_p in (0, 1]; "
    "frequency_penalty and presence_penalty in [-2, 2])"
)

SERVER = Server(
    "sglang",
    "SGLang",
    DOCS,
    extensions=(
        *(Extension(kinds.PROVIDER, kind, FIELDS, _SAMPLING) for kind in kinds.REQUESTS),
        *(Extension(kinds.PROVIDER, kind, ("reasoning_content",), _REASONING) for kind in kinds.MESSAGES),
        Extension(kinds.PROVIDER, "*Choice", ("matched_stop",), DOCS),
        Extension(kinds.PROVIDER, "*Choice", ("prompt_token_ids", "token_ids"), _TOKEN_IDS),
    ),
    reasoning_field="reasoning_content",
    reasoning_source=_REASONING,
    efforts=("low", "medium", "high"),
    efforts_source=DOCS,
    parts=frozenset({"text", "image_url", "input_audio", "video_url"}),
    parts_source="https://docs.sglang.ai/basic_usage/openai_api_vision.html",
    sampling_ranges=(
        SamplingRange("temperature", 0.0, None, _RANGES),
        SamplingRange("top_p", 0.0, 1.0, _RANGES),
        SamplingRange("frequency_penalty", -2.0, 2.0, _RANGES),
        SamplingRange("presence_penalty", -2.0, 2.0, _RANGES),
    ),
    sampled_ids=SampledIds(
        ("return_token_ids", "logprobs"), take_ids, streams=False, source=_TOKEN_IDS, give_back=give_ids_sglang
    ),
)
"""SGLang."""
