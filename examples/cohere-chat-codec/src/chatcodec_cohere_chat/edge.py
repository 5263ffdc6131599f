"""What the API says on HTTP (``EDGE``): a refused request's body is ``{"message": "..."}``
and its HTTP status says the kind (https://docs.cohere.com/reference/errors: 400, 401, 402,
404, 422, 429, 499, 500...). The body names no type, so the edge states none by status: a
refusal is read with its message and the status of the HTTP answer.

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
    errors=ErrorShape({}, "internal_server_error", write_error, read_error, reads={"internal_server_error": 500}),
    upstream=UPSTREAM,
)
