"""What the OpenAI Responses API says on HTTP: ``POST /v1/responses``.

- Routes: the OpenAI SDK posts to ``{base_url}/responses`` with a ``base_url`` ending in
  ``/v1``; a server answers it with and without ``/v1``.
- Auth: ``Authorization: Bearer``, the key from ``OPENAI_API_KEY``; a caller's
  ``OpenAI-Organization`` and ``OpenAI-Project`` headers are passed on.
- Stream: SSE with ``event: <type>`` before each ``data:``
  (https://platform.openai.com/docs/api-reference/responses-streaming).
- Errors: the OpenAI body ``{"error": {"message", "type", "param", "code"}}``; inside a
  stream an ``error`` event ``{"type": "error", "code", "message", "param",
  "sequence_number"}`` (https://platform.openai.com/docs/api-reference/responses-streaming/error),
  which also carries the Open Responses spec's ``error`` object (:func:`error_fields`).
- Answering: a server of this API answers with a resource of its own (its ``resp_`` id,
  the request's settings echoed, ``previous_response_id`` continuing an earlier answer):
  :mod:`.server`.
- Models: ``GET /v1/models``, OpenAI's list.
- Token counting: ``POST /v1/responses/input_tokens`` takes the request's input fields,
  answers ``{"object": "response.input_tokens", "input_tokens"}``
  (https://platform.openai.com/docs/api-reference/responses/input-tokens).
- Strict reading: response fields the API reference lists beyond the SDK.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from chatcodec._providers.families.openai.edge import (
    OPENAI_ERROR_READS,
    OPENAI_ERROR_TYPES,
    openai_headers,
    write_openai_error,
    write_openai_models,
)
from chatcodec._providers.openai_responses.markers import PROVIDER
from chatcodec._providers.openai_responses.server import ANSWERING
from chatcodec._providers.openai_responses.stream_framing import FRAMING
from chatcodec.codec_kit import as_dict, body_call, read_data_ids, read_nested_error
from chatcodec.contract import (
    Call,
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


def write_error_event(message: str, status: int, kind: str) -> dict[str, Any]:
    return {"type": "error", **error_fields(message, kind), "sequence_number": 0}


def error_fields(message: str, kind: str | None) -> dict[str, Any]:
    """A stream ``error`` event's fields in both published shapes: OpenAI's
    (``code``, ``message``, ``param`` on the event, what the OpenAI SDK's
    ``ResponseErrorEvent`` reads) and the Open Responses spec's (the same in an ``error``
    object with its ``type``: ``ErrorStreamingEvent``, https://www.openresponses.org/reference);
    each reader ignores the other's fields."""
    nested = {"type": kind or "server_error", "code": kind, "message": message, "param": None}
    return {"code": kind, "message": message, "param": None, "error": nested}


def upstream_url(base: str, model: str, stream: bool) -> str:
    return f"{base}/responses"


COUNTED_FIELDS = (
    "model",
    "input",
    "instructions",
    "tools",
    "tool_choice",
    "text",
    "reasoning",
    "conversation",
    "previous_response_id",
    "parallel_tool_calls",
    "personality",
    "truncation",
)
"""What ``input_tokens`` takes of a request (the SDK's ``InputTokenCountParams``)."""


def count_url(base: str, model: str) -> str:
    return f"{base}/responses/input_tokens"


def count_body(body: dict[str, Any], model: str) -> dict[str, Any]:
    return {key: value for key, value in body.items() if key in COUNTED_FIELDS}


def read_count(body: object) -> int | None:
    tokens = (as_dict(body) or {}).get("input_tokens")
    return tokens if isinstance(tokens, int) else None


def write_count(tokens: int) -> dict[str, Any]:
    return {"object": "response.input_tokens", "input_tokens": tokens}


_RESPONSE_OBJECT = "https://platform.openai.com/docs/api-reference/responses/object"
_OBFUSCATION = "https://platform.openai.com/docs/api-reference/responses-streaming"
_RECORDED = "recorded, no documentation found: tests/fixtures/"

EXTENSIONS: tuple[Extension, ...] = (
    Extension(
        PROVIDER,
        "Response",
        ("store", "billing", "presence_penalty", "frequency_penalty", "content_filters"),
        _RESPONSE_OBJECT,
    ),
    Extension(PROVIDER, "Response*DeltaEvent", ("obfuscation",), _OBFUSCATION),
    Extension(
        PROVIDER,
        "WebSearchTool",
        ("return_token_budget", "search_content_types"),
        _RECORDED + "openai-responses/response/web_search_call_url_citation.json",
    ),
)
"""The response object as the API reference lists it, beyond the SDK (strict reading accepts them)."""


def read_call(payload: dict[str, Any], target: str | None, query: Mapping[str, str]) -> Call:
    """The model and stream flag are in the body; ``conversation`` (an id, or an object
    with one) names the conversation the request belongs to
    (https://platform.openai.com/docs/api-reference/responses/create#responses-create-conversation)."""
    call = body_call(payload, target, query)
    conversation = payload.get("conversation")
    named = (as_dict(conversation) or {}).get("id") if not isinstance(conversation, str) else conversation
    return replace(call, conversation=named) if isinstance(named, str) and named else call


EDGE = Edge(
    PROVIDER,
    response_name="an OpenAI Responses response",
    framing=FRAMING,
    errors=ErrorShape(
        OPENAI_ERROR_TYPES,
        "server_error",
        write_openai_error,
        read_nested_error,
        write_event=write_error_event,
        reads=OPENAI_ERROR_READS,
    ),
    front=Front(
        ("/v1/responses", "/responses"),
        read_call,
        answering=ANSWERING,
        models=ModelList(("/v1/models", "/models"), write_openai_models),
        count_tokens=CountFront(
            ("/v1/responses/input_tokens", "/responses/input_tokens"), lambda body, model: body, write_count
        ),
        # A conversation's items and a stored prompt template are OpenAI's:
        # https://platform.openai.com/docs/api-reference/responses/create#responses-create-conversation
        # https://platform.openai.com/docs/api-reference/responses/create#responses-create-prompt
        provider_state=("conversation", "prompt"),
    ),
    upstream=Upstream(
        upstream_url,
        "OPENAI_API_KEY",
        openai_headers,
        count_tokens=CountUpstream(count_url, count_body, read_count),
        models=UpstreamModels(lambda base: f"{base}/models", read_data_ids),
        semconv_name="openai",
    ),
    detection=Detection(
        package=__package__,
        roles=None,
        shapes=(
            "tool:parameters",
            "output:list",
        ),
    ),
    extensions=EXTENSIONS,
)
"""The OpenAI Responses edge."""
