"""Errors in each provider's own shape, with their HTTP status, both ways.

A proxy that serves one API on another must answer errors the way the caller's SDK reads
them, or the caller sees only "An error occurred during streaming": the
OpenAI SDK reads ``{"error": {"message", "type", "param", "code"}}``, Anthropic's
``{"type": "error", "error": {"type", "message"}}``, google-genai
``{"error": {"code", "message", "status"}}``, and a Bedrock client a ``{"message"}`` body
with the type in the ``x-amzn-ErrorType`` header. Each shape, written and read, and each
provider's error types by status are the provider's facts, in its edge
(``Edge.errors``, ``_providers/<name>/edge.py``); a provider without an edge is refused
(:func:`~chatcodec._registry.get_edge`), never answered in another provider's shape. The
error *type* is translated through the HTTP status, the one vocabulary every provider
shares (:func:`~chatcodec._error_statuses.error_status`): Anthropic's ``overloaded_error``
is a 529, which an OpenAI client gets as a ``server_error`` with status 529.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._error_statuses import error_status
from chatcodec._errors import ProviderAPIError
from chatcodec._model.stream_records import ErrorRecord
from chatcodec._public_label import shown_as
from chatcodec._registry import get_edge

__all__ = ["error_body", "error_event", "error_status", "error_type_for", "read_error"]


def error_type_for(provider: str, status: int) -> str:
    """``provider``'s error type for an HTTP status (its server error for an unknown one)."""
    return get_edge(provider).errors.type_for(status)


def error_body(provider: str, message: str, status: int = 500) -> dict[str, Any]:
    """A plain (non-streamed) error body as ``provider`` sends it with ``status``."""
    return get_edge(provider).errors.body(message, status)


def error_event(provider: str, message: str, status: int = 500) -> dict[str, Any]:
    """A mid-stream error as ``provider`` sends it: for OpenAI Chat and Gemini the error
    body as one more chunk, Anthropic's ``error`` event, the Responses ``error`` event,
    Bedrock's exception event."""
    return get_edge(provider).errors.event(message, status)


def translated_event(event: ErrorRecord, target: str, status: int | None = None) -> ErrorRecord:
    """A canonical error event with its type in ``target``'s vocabulary (through the
    status) and no foreign body, so the target's encoder writes its own shape."""
    code = status if status is not None else error_status(event.error_type)
    return ErrorRecord(message=event.message, error_type=error_type_for(target, code))


def read_error(
    provider: str, body: object, status: int | None = None, error_type: str | None = None
) -> ProviderAPIError:
    """The error an upstream ``provider`` answered with (its body, parsed or not), as a
    :class:`~chatcodec.ProviderAPIError` with its status: the HTTP status when known,
    else the one its type stands for in ``provider``'s vocabulary. ``error_type`` is for a
    type sent in a header (Bedrock's ``x-amzn-ErrorType``: ``Edge.errors.type_header``);
    a body naming no type, of a shape typed by status (``ErrorShape.typed_by_status``),
    gets the provider's type for ``status``."""
    errors = get_edge(provider).errors
    message, found_type = errors.read(body)
    kind = found_type if found_type is not None else error_type
    if kind is None and status is not None and errors.typed_by_status:  # a wire whose body is only a message
        kind = errors.type_for(status)
    code = status if status is not None else error_status(kind, provider=provider)
    if not message:
        message = f"the {provider} upstream answered HTTP {code}"
    return ProviderAPIError(message, kind, body, status_code=code, provider=provider)


def failed_answer(source: str, response: Mapping[str, Any], body: object) -> ProviderAPIError | None:
    """The error of an answer that failed as a whole, for a conversion to another format:
    its finish reason is ``error`` and its body carries ``source``'s error object (a
    Responses ``Response`` with ``status: "failed"`` and ``error: {code, message}``,
    https://platform.openai.com/docs/api-reference/responses/object). A format without a
    failed status would write it as an answer that stopped (``finish_reason: "stop"``);
    raised, it is answered as the error it is, in the target's shape (:func:`error_body`),
    as an error body is. An answer that ended with an error finish and no error object
    (Gemini's ``MALFORMED_FUNCTION_CALL``) is an answer: None."""
    choices: Any = response.get("choices")
    finish: Any = choices[0].get("finish_reason") if choices else None
    if finish is None or finish.get("unified") != "error":
        return None
    message, kind = get_edge(source).errors.read(body)
    if not message:
        return None
    return ProviderAPIError(message, kind, body, status_code=error_status(kind, provider=source), provider=source)


shown_as("chatcodec", error_body, error_event, read_error)
