"""What OpenAI Chat Completions says on HTTP: ``POST /v1/chat/completions``.

- Routes: the OpenAI SDK posts to ``{base_url}/chat/completions`` with a ``base_url``
  ending in ``/v1``; a server answers it with and without ``/v1``.
- Auth: ``Authorization: Bearer``, the key from ``OPENAI_API_KEY``; a caller's
  ``OpenAI-Organization`` and ``OpenAI-Project`` headers are passed on.
- Stream: SSE ``data:`` lines, then ``data: [DONE]``
  (https://platform.openai.com/docs/api-reference/chat-streaming). A proxy asks for
  ``stream_options.include_usage`` so usage reaches every caller that wants it; the
  caller's own wish is applied to the stream written back (``Call.options``).
- Errors: ``{"error": {"message", "type", "param", "code"}}``, and inside a stream the same
  body as one more chunk (https://platform.openai.com/docs/guides/error-codes).
- Strict reading: the fields the compatible servers (DeepSeek, Kimi, OpenRouter, Z.ai,
  vLLM, Groq, LiteLLM) document beyond the SDK types, each row with its source.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._narrow import as_dict
from chatcodec.providers.kit import sdk_kinds
from chatcodec.providers.kit.edge import (
    OPENAI_ERROR_TYPES,
    Call,
    Edge,
    ErrorShape,
    Extension,
    Front,
    StreamFraming,
    Upstream,
    openai_headers,
    read_nested_error,
    write_openai_error,
)
from chatcodec.providers.openai_chat import wire as shapes
from chatcodec.providers.openai_chat.markers import PROVIDER


def read_call(payload: dict[str, Any], target: str | None, query: Mapping[str, str]) -> Call:
    """The model and stream flag are in the body; ``stream_options.include_usage`` says
    whether the caller wants a usage chunk."""
    model = payload.get("model")
    stream = payload.get("stream") is True
    include_usage = (as_dict(payload.get("stream_options")) or {}).get("include_usage") is True
    return Call(payload, model if isinstance(model, str) else None, stream, "sse", {"include_usage": include_usage})


def upstream_body(body: dict[str, Any], stream: bool) -> dict[str, Any]:
    """A stream asks for its usage chunk (``stream_options.include_usage``)."""
    if not stream:
        return body
    options = {**(as_dict(body.get("stream_options")) or {}), "include_usage": True}
    return {**body, "stream": True, "stream_options": options}


def upstream_url(base: str, model: str, stream: bool) -> str:
    return f"{base}/chat/completions"


_DEEPSEEK = "https://api-docs.deepseek.com/guides/reasoning_model"
_KIMI = "https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model"
_OPENROUTER_REASONING = "https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks"
_OPENROUTER_CACHE = "https://openrouter.ai/docs/features/prompt-caching#anthropic-claude"
_OPENROUTER_REQUEST = "https://openrouter.ai/docs/api-reference/overview#request-body"
_OPENROUTER_RESPONSE = "https://openrouter.ai/docs/api-reference/overview#responses"
_ZAI = "https://docs.z.ai/guides/capabilities/thinking"
_VLLM = "https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html#extra-parameters"
_VLLM_RESPONSE = "https://docs.vllm.ai/en/latest/api/vllm/entrypoints/openai/protocol.html"
_OPENAI_STREAM_ERROR = "https://platform.openai.com/docs/guides/error-codes"
_LITELLM = "https://docs.litellm.ai/docs/reasoning_content"
_DEEPSEEK_CACHE = "https://api-docs.deepseek.com/guides/kv_cache"
_GROQ = "https://console.groq.com/docs/api-reference#chat-create"
_RECORDED = "recorded, no documentation found: tests/fixtures/"
_GEMINI_OPENAI = "https://ai.google.dev/gemini-api/docs/thought-signatures (OpenAI compatibility: extra_content)"

_MESSAGES = (*sdk_kinds(shapes.AssistantMessage), *sdk_kinds(shapes.Delta))
_PARTS = tuple(
    kind for part in (shapes.TextPart, shapes.ImagePart, shapes.AudioPart, shapes.FilePart) for kind in sdk_kinds(part)
)
_REQUESTS = sdk_kinds(shapes.Request)
"""The SDK kinds the rows below extend, as the wire shapes name them (``wire.py``)."""
_VLLM_FIELDS = (
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
)
_OPENROUTER_FIELDS = ("reasoning", "provider", "transforms", "models", "route", "usage", "plugins")

EXTENSIONS: tuple[Extension, ...] = (
    *(Extension(PROVIDER, kind, ("reasoning_content",), _DEEPSEEK) for kind in _MESSAGES),
    *(Extension(PROVIDER, kind, ("reasoning_content",), _KIMI) for kind in _MESSAGES),
    *(Extension(PROVIDER, kind, ("reasoning", "reasoning_details"), _OPENROUTER_REASONING) for kind in _MESSAGES),
    *(Extension(PROVIDER, kind, ("cache_control",), _OPENROUTER_CACHE) for kind in _PARTS),
    *(
        Extension(PROVIDER, kind, ("provider_specific_fields", "thinking_blocks", "reasoning_content"), _LITELLM)
        for kind in _MESSAGES
    ),
    Extension(PROVIDER, "ChatCompletionSystemMessageParam", ("cache_control",), _OPENROUTER_CACHE),
    *(
        Extension(PROVIDER, kind, ("extra_content",), _GEMINI_OPENAI)
        for kind in (
            "ChatCompletionMessageFunctionToolCall",
            "ChatCompletionMessageFunctionToolCallParam",
            "ChoiceDeltaToolCall",
        )
    ),
    Extension(PROVIDER, "ChatCompletionFunctionToolParam", ("cache_control",), _OPENROUTER_CACHE),
    *(Extension(PROVIDER, kind, _OPENROUTER_FIELDS, _OPENROUTER_REQUEST) for kind in _REQUESTS),
    *(Extension(PROVIDER, kind, ("thinking",), _ZAI) for kind in _REQUESTS),
    *(Extension(PROVIDER, kind, _VLLM_FIELDS, _VLLM) for kind in _REQUESTS),
    Extension(PROVIDER, "ChatCompletion", ("provider", "prompt_logprobs", "kv_transfer_params"), _VLLM_RESPONSE),
    Extension(PROVIDER, "ChatCompletionChunk", ("provider", "error"), _OPENROUTER_RESPONSE),
    Extension(PROVIDER, "ChatCompletionChunk", ("error",), _OPENAI_STREAM_ERROR),
    Extension(PROVIDER, "*Choice", ("stop_reason", "native_finish_reason", "error"), _VLLM_RESPONSE),
    Extension(PROVIDER, "CompletionUsage", ("cost", "is_byok", "cost_details"), _OPENROUTER_RESPONSE),
    Extension(PROVIDER, "CompletionUsage", ("prompt_cache_hit_tokens", "prompt_cache_miss_tokens"), _DEEPSEEK_CACHE),
    Extension(PROVIDER, "CompletionUsage", ("queue_time", "prompt_time", "completion_time", "total_time"), _GROQ),
    Extension(PROVIDER, "ChatCompletionChunk", ("x_groq",), _GROQ),
    Extension(
        PROVIDER, "ChoiceDelta", ("channel",), _RECORDED + "openai-chat/stream/groq_reasoning_channel_tool_call.sse"
    ),
    Extension(PROVIDER, "PromptTokensDetails", ("video_tokens", "image_tokens"), _OPENROUTER_RESPONSE),
    Extension(PROVIDER, "CompletionTokensDetails", ("image_tokens",), _OPENROUTER_RESPONSE),
)
"""Fields the compatible servers document beyond the SDK types (strict reading accepts them)."""

EDGE = Edge(
    PROVIDER,
    response_name="an OpenAI Chat Completions response",
    framing=StreamFraming("sse", done="[DONE]"),
    errors=ErrorShape(OPENAI_ERROR_TYPES, "server_error", write_openai_error, read_nested_error),
    front=Front(("/v1/chat/completions", "/chat/completions"), read_call),
    upstream=Upstream(upstream_url, "OPENAI_API_KEY", openai_headers, upstream_body),
    detection=(
        "object:chat.completion",
        "object:chat.completion.chunk",
        "finish_reason:string",
        "key:stop",
        "key:max_completion_tokens",
        "key:n",
        "key:logit_bias",
        "key:logprobs",
        "key:stream_options",
        "key:reasoning_effort",
        "key:web_search_options",
        "key:modalities",
        "key:audio",
        "key:prediction",
        "key:user",
        "key:top_logprobs",
        "tool:function",
        "role:system",
        "role:developer",
        "role:tool",
        "message:tool_calls",
        "part:image_url",
        "part:input_audio",
        "part:file",
    ),
    extensions=EXTENSIONS,
)
"""The OpenAI Chat Completions edge."""
