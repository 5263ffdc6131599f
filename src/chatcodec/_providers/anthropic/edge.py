"""What the Anthropic Messages API says on HTTP: ``POST /v1/messages``.

- Routes: the Anthropic SDK posts to ``{base_url}/v1/messages`` (its ``base_url`` has no
  ``/v1``).
- Auth: ``x-api-key`` (a caller may send ``Authorization: Bearer`` instead), the key from
  ``ANTHROPIC_API_KEY``; every request carries ``anthropic-version``
  (https://docs.anthropic.com/en/api/versioning): a caller's own, and its
  ``anthropic-beta``, are passed on; without one, the version the writer applied, as it
  does for the library (a body only ``2023-06-01`` takes keeps that version, a server
  running Claude gets the one it requires, else the rules' ``2026-10-21``, the one a current
  SDK sends: ``servers.default_version``), so the gateway and the library write the same
  request under the same rules and the header says which.
- Stream: SSE with ``event: <type>`` before each ``data:``
  (https://docs.anthropic.com/en/api/messages-streaming).
- Errors: ``{"type": "error", "error": {"type", "message"}}``, in a stream the same object
  as an ``error`` event (https://docs.anthropic.com/en/api/errors).
- Models: ``GET /v1/models`` answers ``{"data": [{"type": "model", "id", "display_name",
  "created_at"}], "has_more", "first_id", "last_id"}`` (https://docs.anthropic.com/en/api/models-list).
- Token counting: ``POST /v1/messages/count_tokens`` takes a Messages body without
  ``max_tokens`` and the sampling settings, answers ``{"input_tokens"}``
  (https://docs.anthropic.com/en/api/messages-count-tokens).
- Compatible servers (DeepSeek, Kimi, Z.ai, MiniMax; Ollama, llama-server, vLLM, SGLang,
  LM Studio; Bedrock's Mantle endpoint): each in ``servers/``; the one a base URL points at
  is the writer's ``server`` option (``upstream_options``).
- Strict reading: the sampling parameters of API version 2023-06-01, which the SDK the
  field table comes from (targeting 2026-10-21) no longer types, and answer fields newer
  than the SDK.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._providers.anthropic import servers
from chatcodec._providers.anthropic.markers import PROVIDER
from chatcodec._providers.anthropic.rules import OLD, RULES
from chatcodec._providers.anthropic.stream_framing import FRAMING
from chatcodec.codec_kit import as_dict, bearer_key, read_data_ids, read_nested_error
from chatcodec.contract import (
    CountFront,
    CountUpstream,
    Detection,
    Edge,
    ErrorShape,
    Extension,
    Front,
    ModelList,
    Upstream,
    UpstreamModels,
)

ERROR_TYPES: Mapping[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}
"""The documented error types by status (https://docs.anthropic.com/en/api/errors)."""


def write_error(message: str, status: int, kind: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


def caller_key(headers: Mapping[str, str], query: Mapping[str, str]) -> str | None:
    """``x-api-key``, the Anthropic SDK's header, or a bearer token."""
    return headers.get("x-api-key") or bearer_key(headers, query)


def upstream_url(base: str, model: str, stream: bool) -> str:
    return f"{base}/v1/messages"


def upstream_options(base: str) -> dict[str, object]:
    """The Anthropic-compatible server the base URL points at, as the writer's ``server``
    option (``servers.server_for_url``): ``https://api.deepseek.com/anthropic`` gets DeepSeek's body."""
    server = servers.server_for_url(base)
    return {} if server is None else {servers.OPTION: server.name}


def upstream_headers(key: str | None, caller_headers: Mapping[str, str]) -> dict[str, str]:
    """The caller's ``anthropic-version`` (else the rules' default, as the library writes;
    a message call's header is then set to the version its body was written for) and
    ``anthropic-beta``, with the key."""
    headers = {"anthropic-version": caller_headers.get("anthropic-version") or RULES.default_version}
    if "anthropic-beta" in caller_headers:
        headers["anthropic-beta"] = caller_headers["anthropic-beta"]
    if key:
        headers["x-api-key"] = key
    return headers


COUNTED_FIELDS = (
    "model",
    "messages",
    "system",
    "tools",
    "tool_choice",
    "thinking",
    "mcp_servers",
    "output_config",
    "context_management",
)
"""What ``count_tokens`` takes of a Messages body (the SDK's ``MessageCountTokensParams``);
``max_tokens``, ``stream`` and the sampling settings are refused there."""
COUNTED_MAX_TOKENS = 1
"""A ``max_tokens`` put into a count body for reading it as a Messages body (it needs one)."""


def write_models(names: Sequence[str]) -> dict[str, Any]:
    models = [
        {"type": "model", "id": name, "display_name": name, "created_at": "1970-01-01T00:00:00Z"} for name in names
    ]
    return {
        "data": models,
        "has_more": False,
        "first_id": names[0] if names else None,
        "last_id": names[-1] if names else None,
    }


def count_request(body: dict[str, Any], path_model: str | None) -> dict[str, Any]:
    return {"max_tokens": COUNTED_MAX_TOKENS, **body}


def count_url(base: str, model: str) -> str:
    return f"{base}/v1/messages/count_tokens"


def count_body(body: dict[str, Any], model: str) -> dict[str, Any]:
    return {key: value for key, value in body.items() if key in COUNTED_FIELDS}


def read_count(body: object) -> int | None:
    tokens = (as_dict(body) or {}).get("input_tokens")
    return tokens if isinstance(tokens, int) else None


_VERSIONS = (
    "https://platform.claude.com/docs/en/api/versioning ; https://platform.claude.com/docs/en/api/migration-2026-10-21"
)
_RECORDED = "recorded, no documentation found: tests/fixtures/"
_CONTEXT_EDITING = "https://platform.claude.com/docs/en/build-with-claude/context-editing"
_MCP_CONNECTOR = "https://platform.claude.com/docs/en/agents-and-tools/mcp-connector"

EXTENSIONS: tuple[Extension, ...] = (
    # 2026-10-21 removed the sampling parameters (400 "temperature: Extra inputs are not
    # permitted"); 2023-06-01 keeps them, and Claude Code and every older SDK send that version.
    *(
        Extension(PROVIDER, kind, ("temperature", "top_p", "top_k"), _VERSIONS, api_version=OLD)
        for kind in ("MessageCreateParamsNonStreaming", "MessageCreateParamsStreaming")
    ),
    # Beta request fields (the SDK types them under ``anthropic.types.beta`` only), taken
    # with their ``anthropic-beta`` header.
    *(
        Extension(PROVIDER, kind, ("context_management",), _CONTEXT_EDITING)
        for kind in ("MessageCreateParamsNonStreaming", "MessageCreateParamsStreaming")
    ),
    *(
        Extension(PROVIDER, kind, ("mcp_servers",), _MCP_CONNECTOR)
        for kind in ("MessageCreateParamsNonStreaming", "MessageCreateParamsStreaming")
    ),
    Extension(
        PROVIDER,
        "CodeExecutionResultBlock",
        ("abort_reason",),
        _RECORDED + "anthropic/response/server_tool_code_execution_result.json",
    ),
    Extension(
        PROVIDER,
        "RefusalStopDetails",
        ("recommended_model",),
        _RECORDED + "anthropic/response/refusal_stop_details.json",
    ),
)
"""API-version fields, beta request fields and answer fields newer than the SDK (strict reading accepts them)."""

EDGE = Edge(
    PROVIDER,
    response_name="an Anthropic response",
    framing=FRAMING,
    errors=ErrorShape(ERROR_TYPES, "api_error", write_error, read_nested_error, overloaded=529),
    front=Front(
        ("/v1/messages",),
        caller_key=caller_key,
        models=ModelList(("/v1/models",), write_models),
        count_tokens=CountFront(("/v1/messages/count_tokens",), count_request, lambda tokens: {"input_tokens": tokens}),
        own_reasoning_signature="",  # a thinking block requires one; a self-hosted model's is empty
    ),
    upstream=Upstream(
        upstream_url,
        "ANTHROPIC_API_KEY",
        upstream_headers,
        version_header="anthropic-version",
        default_version=servers.default_version,
        options=upstream_options,
        count_tokens=CountUpstream(count_url, count_body, read_count),
        models=UpstreamModels(lambda base: f"{base}/v1/models?limit=1000", read_data_ids),
        semconv_name="anthropic",
        server_semconv={name: server.semconv_name or name for name, server in servers.SERVERS.items()},
    ),
    detection=Detection(
        package=__package__,
        # the body Claude on Bedrock and Vertex AI take names the API version in it
        # (https://docs.anthropic.com/en/api/claude-on-amazon-bedrock); an error body
        # carries its request_id (https://docs.anthropic.com/en/api/errors)
        keys=("anthropic_version", "request_id"),
        roles=("user", "assistant"),
        shapes=(
            "response-type:message",
            "error-type:error",
            "tool:input_schema",
            "tool:server",
            "block:redacted_thinking",
            "block:server_tool_use",
            "block:web_search_tool_result",
            "block:search_result",
            "block:thinking",
            "block:tool_use+input",
            "block:tool_result",
            "block:image+source",
            "block:image+source+media_type",
            "block:document+source",
            "block:document+source+media_type",
        ),
    ),
    extensions=EXTENSIONS,
    server_extensions={name: EXTENSIONS for name in servers.SERVERS},
)
"""The Anthropic Messages edge."""
