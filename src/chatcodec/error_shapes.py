"""Errors in each provider's own shape, with their HTTP status, both ways.

A proxy that serves one API on another must answer errors the way the caller's SDK reads
them, or the caller sees only "An error occurred during streaming" (issue 23): the
OpenAI SDK reads ``{"error": {"message", "type", "param", "code"}}``, Anthropic's
``{"type": "error", "error": {"type", "message"}}``, google-genai
``{"error": {"code", "message", "status"}}``, and a Bedrock client a ``{"message"}`` body
with the type in the ``x-amzn-ErrorType`` header. The error *type* is translated through
the HTTP status, the one vocabulary every provider shares: Anthropic's
``overloaded_error`` is a 529, which an OpenAI client gets as a ``server_error`` with
status 529.

The tables are the providers' documented error lists:
https://platform.openai.com/docs/guides/error-codes,
https://docs.anthropic.com/en/api/errors,
https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes,
https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_Errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._narrow import as_dict, as_list
from chatcodec.error_statuses import OPENAI_TYPES, SERVER_ERROR, TYPES_BY_PROVIDER, error_status
from chatcodec.errors import ProviderAPIError
from chatcodec.stream_events import ErrorEvent

__all__ = ["error_body", "error_event", "error_status", "error_type_for", "read_error"]


def error_type_for(provider: str, status: int) -> str:
    """``provider``'s error type for an HTTP status (its server error for an unknown one)."""
    table = TYPES_BY_PROVIDER.get(provider, OPENAI_TYPES)
    if status in table:
        return table[status]
    return SERVER_ERROR.get(provider, "server_error") if status >= 500 or status < 400 else table.get(400, "error")


def error_body(provider: str, message: str, status: int = 500) -> dict[str, Any]:
    """A plain (non-streamed) error body as ``provider`` sends it with ``status``."""
    kind = error_type_for(provider, status)
    if provider == "anthropic":
        return {"type": "error", "error": {"type": kind, "message": message}}
    if provider == "gemini":
        return {"error": {"code": status, "message": message, "status": kind}}
    if provider == "bedrock-converse":
        return {"message": message}
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def error_event(provider: str, message: str, status: int = 500) -> dict[str, Any]:
    """A mid-stream error as ``provider`` sends it: for OpenAI Chat and Gemini the error
    body as one more chunk, Anthropic's ``error`` event, the Responses ``error`` event,
    Bedrock's exception event."""
    kind = error_type_for(provider, status)
    if provider == "openai-responses":
        return {"type": "error", "code": kind, "message": message, "param": None, "sequence_number": 0}
    if provider == "bedrock-converse":
        return {kind[:1].lower() + kind[1:]: {"message": message}}
    return error_body(provider, message, status)


def translated_event(event: ErrorEvent, target: str, status: int | None = None) -> ErrorEvent:
    """A canonical error event with its type in ``target``'s vocabulary (through the
    status) and no foreign body, so the target's encoder writes its own shape."""
    code = status if status is not None else error_status(event.error_type)
    return ErrorEvent(message=event.message, error_type=error_type_for(target, code))


def read_error(
    provider: str, body: object, status: int | None = None, error_type: str | None = None
) -> ProviderAPIError:
    """The error an upstream ``provider`` answered with (its body, parsed or not), as a
    :class:`~chatcodec.ProviderAPIError` with its status: the HTTP status when known,
    else the one its type stands for. ``error_type`` is for Bedrock's header."""
    message, found_type = _message_and_type(body)
    kind = found_type if found_type is not None else error_type
    code = status if status is not None else error_status(kind)
    if not message:
        message = f"the {provider} upstream answered HTTP {code}"
    return ProviderAPIError(message, kind, body, status_code=code)


def _message_and_type(body: object) -> tuple[str, str | None]:
    items = as_list(body)
    if items:  # Gemini's streamGenerateContent (a JSON array) answers an error as [{"error": ...}]
        body = items[0]
    fields = as_dict(body)
    if fields is None:
        return (body if isinstance(body, str) else ""), None
    error = as_dict(fields.get("error"))
    if error is None:  # Bedrock's {"message": ...}, or its stream's {"throttlingException": {...}}
        if len(fields) == 1 and next(iter(fields)).endswith("Exception"):
            ((name, inner),) = fields.items()
            return _text(as_dict(inner) or {}, "message"), name
        return _text(fields, "message", "Message"), None
    kind = error.get("type") or error.get("status") or error.get("code")
    return _text(error, "message"), None if kind is None else str(kind)


def _text(fields: Mapping[str, Any], *keys: str) -> str:
    for key in keys:
        if isinstance(fields.get(key), str):
            return str(fields[key])
    return ""
