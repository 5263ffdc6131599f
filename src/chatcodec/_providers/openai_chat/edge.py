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
- Models: ``GET /v1/models``, OpenAI's list. No token counting endpoint.
- Strict reading: the fields the compatible servers document beyond the SDK types, each
  row with its source: each server's own rows in its ``servers/`` module (DeepSeek,
  Kimi, OpenRouter, vLLM, Groq, Gemini...), and here those of Z.ai and litellm.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.families.openai.edge import (
    OPENAI_ERROR_READS,
    OPENAI_ERROR_TYPES,
    openai_headers,
    write_openai_error,
    write_openai_models,
)
from chatcodec._providers.openai_chat import servers
from chatcodec._providers.openai_chat import wire as shapes
from chatcodec._providers.openai_chat.markers import PROVIDER
from chatcodec._providers.openai_chat.rules import SAMPLING_RANGES
from chatcodec._providers.openai_chat.servers import kinds
from chatcodec._providers.openai_chat.servers.server import Server
from chatcodec._providers.openai_chat.stream_framing import FRAMING
from chatcodec.codec_kit import as_dict, count_written, read_data_ids, read_nested_error, sdk_kinds
from chatcodec.contract import (
    Call,
    Detection,
    Edge,
    ErrorShape,
    Extension,
    Front,
    ModelList,
    SamplingRange,
    Upstream,
    UpstreamModels,
)


def read_call(payload: dict[str, Any], target: str | None, query: Mapping[str, str]) -> Call:
    """The model and stream flag are in the body; ``stream_options.include_usage`` says
    whether the caller wants a usage chunk; ``n`` how many answers."""
    model = payload.get("model")
    stream = payload.get("stream") is True
    include_usage = (as_dict(payload.get("stream_options")) or {}).get("include_usage") is True
    options = {"include_usage": include_usage}
    named = model if isinstance(model, str) else None
    return Call(payload, named, stream, "sse", options, choices=count_written(payload.get("n")))


def upstream_body(body: dict[str, Any], stream: bool) -> dict[str, Any]:
    """A stream asks for its usage chunk (``stream_options.include_usage``)."""
    if not stream:
        return body
    options = {**(as_dict(body.get("stream_options")) or {}), "include_usage": True}
    return {**body, "stream": True, "stream_options": options}


def upstream_url(base: str, model: str, stream: bool) -> str:
    return f"{base}/chat/completions"


def upstream_options(base: str) -> dict[str, object]:
    """The compatible server the base URL points at, as the writer's ``server`` option
    (``servers.server_for_url``): ``https://api.groq.com/openai/v1`` gets Groq's body."""
    server = servers.server_for_url(base)
    return {} if server is None else {servers.OPTION: server.name}


_ZAI = "https://docs.z.ai/guides/capabilities/thinking"
_OPENAI_STREAM_ERROR = "https://platform.openai.com/docs/guides/error-codes"
_LITELLM = "https://docs.litellm.ai/docs/reasoning_content"
_VLLM_RESPONSE = "https://docs.vllm.ai/en/latest/api/vllm/entrypoints/openai/protocol.html"
_SDK_PARSED = "https://github.com/openai/openai-python/blob/main/src/openai/lib/streaming/chat/_completions.py"
"""The openai SDK's own output: ``client.chat.completions.parse()`` and the stream helper
(``client.chat.completions.stream(...).get_final_completion()``) answer with a message
holding ``parsed`` (``ParsedChatCompletionMessage``, ``types/chat/parsed_chat_completion.py``),
each tool call's delta ``index`` (the helper's snapshot is built from the chunks) and
``function.parsed_arguments`` (``types/chat/parsed_function_tool_call.py``); a tool loop
appends that message to its next request as it is."""

_MESSAGES = (*sdk_kinds(shapes.AssistantMessage), *sdk_kinds(shapes.Delta))
_REQUESTS = sdk_kinds(shapes.Request)
"""The SDK kinds the rows below extend, as the wire shapes name them (``wire.py``)."""

_OTHERS: tuple[Extension, ...] = (
    *(
        Extension(PROVIDER, kind, ("provider_specific_fields", "thinking_blocks", "reasoning_content"), _LITELLM)
        for kind in _MESSAGES
    ),
    *(Extension(PROVIDER, kind, ("thinking",), _ZAI) for kind in _REQUESTS),
    Extension(PROVIDER, "ChatCompletion", ("provider",), _VLLM_RESPONSE),
    Extension(PROVIDER, "ChatCompletionChunk", ("error",), _OPENAI_STREAM_ERROR),
    Extension(PROVIDER, "*Choice", ("native_finish_reason", "error"), _VLLM_RESPONSE),
    *(Extension(PROVIDER, kind, ("parsed",), _SDK_PARSED) for kind in sdk_kinds(shapes.AssistantMessage)),
    Extension(PROVIDER, "ChatCompletionMessage*ToolCallParam", ("index",), _SDK_PARSED),
    Extension(
        PROVIDER, "chat_completion_message_function_tool_call_param.Function", ("parsed_arguments",), _SDK_PARSED
    ),
)
"""Extensions of servers and gateways not described in ``servers/`` (Z.ai, litellm)."""


def _server_rows(server: Server) -> tuple[Extension, ...]:
    """A server's extension rows, with the content parts it takes that the SDK has no arm
    for (vLLM's, SGLang's and Kimi K2.5's ``video_url``: ``servers.kinds.PART_ARMS``)."""
    taken = server.parts.union(*(row.parts for row in server.model_parts))
    return (*server.extensions, *(arm for tag, arm in kinds.PART_ARMS.items() if tag in taken))


def _held_to(ranges: tuple[SamplingRange, ...]) -> tuple[SamplingRange, ...]:
    """A server's own ranges in place of Chat Completions' (as the ``sampling_range`` rule
    takes them): each of OpenAI's ranged keys the server documents no range for is held to
    none."""
    own = {item.key for item in ranges}
    none = "the server's reference documents no range for it"
    return (*ranges, *(SamplingRange(item.key, None, None, none) for item in SAMPLING_RANGES if item.key not in own))


EXTENSIONS: tuple[Extension, ...] = (
    *_OTHERS,
    *dict.fromkeys(row for server in servers.SERVERS.values() for row in _server_rows(server)),
)
"""Fields the compatible servers document beyond the SDK types (strict reading accepts
them): each described server's own (``servers/``), and the few others'."""

EDGE = Edge(
    PROVIDER,
    response_name="an OpenAI Chat Completions response",
    framing=FRAMING,
    errors=ErrorShape(
        OPENAI_ERROR_TYPES, "server_error", write_openai_error, read_nested_error, reads=OPENAI_ERROR_READS
    ),
    front=Front(
        ("/v1/chat/completions", "/chat/completions"),
        read_call,
        models=ModelList(("/v1/models", "/models"), write_openai_models),
    ),
    upstream=Upstream(
        upstream_url,
        "OPENAI_API_KEY",
        openai_headers,
        upstream_body,
        options=upstream_options,
        models=UpstreamModels(lambda base: f"{base}/models", read_data_ids),
        semconv_name="openai",
        server_semconv={name: server.semconv_name or name for name, server in servers.SERVERS.items()},
        sampled_ids={name: server.sampled_ids for name, server in servers.SERVERS.items() if server.sampled_ids},
    ),
    detection=Detection(
        package=__package__,
        keys=("error",),  # the error body the SDK reads (write_openai_error), which no wire shape types
        roles=shapes.ROLES,
        shapes=(
            "object:chat.completion",
            "object:chat.completion.chunk",
            "finish_reason:string",
            "tool:function",
            "message:tool_calls",
            "part:image_url",
            "part:input_audio",
            "part:file",
            "block:thinking",  # Mistral's thinking part (wire.ThinkingPart)
        ),
    ),
    extensions=EXTENSIONS,
    server_extensions={name: _server_rows(server) for name, server in servers.SERVERS.items()},
    server_ranges={
        name: _held_to(server.sampling_ranges)
        for name, server in servers.SERVERS.items()
        if server.sampling_ranges is not None
    },
)
"""The OpenAI Chat Completions edge."""
