"""What the API says on HTTP (``EDGE``): a refused request's body is ``{"message": "..."}``
and its HTTP status says the kind (https://docs.cohere.com/reference/errors); the error types
here are this codec's names for those statuses, read in its own namespace.

The upstream side lets ``chatcodec serve`` call Cohere for a client of any front: ``POST
{base URL}/v2/chat`` (the SDK's ``base_url`` is ``https://api.cohere.com``), the key from
``CO_API_KEY`` (the SDK's variable) as a bearer token. The codec reads no streams, so the body
asks for the whole answer (``stream`` left out); a caller that asked for a stream gets the
answer replayed as its front's stream."""

from __future__ import annotations

from typing import Any

from chatcodec.codec_kit import as_dict
from chatcodec.contract import Edge, ErrorShape, StreamFraming, Upstream
from chatcodec_cohere_chat.markers import PROVIDER

_TYPES = {
    400: "invalid_request",
    401: "unauthorized",
    402: "payment_required",
    404: "not_found",
    422: "unprocessable_entity",
    429: "too_many_requests",
    499: "request_cancelled",
    500: "internal_server_error",
}
"""The status of each documented error, with this codec's name for it."""


def write_error(message: str, status: int, kind: str) -> dict[str, Any]:
    """The error body: its message only (the status carries the kind)."""
    del status, kind
    return {"message": message}


def read_error(body: object) -> tuple[str, str | None]:
    """The message of an error body (a text body is the message itself); no type: the status says it."""
    if isinstance(body, str):
        return body, None
    message = (as_dict(body) or {}).get("message")
    return (message if isinstance(message, str) else ""), None


def whole_answer(body: dict[str, Any], stream: bool) -> dict[str, Any]:
    """The body as sent: never a stream (this codec reads none)."""
    del stream
    return {key: value for key, value in body.items() if key != "stream"}


UPSTREAM = Upstream(
    url=lambda base, model, stream: f"{base}/v2/chat",
    key_env="CO_API_KEY",
    body=whole_answer,
)
"""``POST {base}/v2/chat`` with a bearer key."""

EDGE = Edge(
    PROVIDER,
    response_name="a Cohere Chat response",
    framing=StreamFraming("jsonl"),
    errors=ErrorShape(_TYPES, "internal_server_error", write_error, read_error, reads={}),
    upstream=UPSTREAM,
)
