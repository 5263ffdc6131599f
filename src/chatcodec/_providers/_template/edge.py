"""What the provider says on HTTP (``EDGE``, :class:`~chatcodec._providers.contract.edge.Edge`):
``response_name``; ``framing`` (SSE with or without ``event:`` names, a ``[DONE]``-style
sentinel, the line end; or JSON lines, a JSON array, AWS event-stream); ``errors`` (its
error types by HTTP status, its server error, the body and stream error event it writes,
how it reads an error body); and, for ``chatcodec serve``, ``front`` (the routes it
answers, where a request carries the model, stream flag and key; its model list and
token counting) and ``upstream`` (the URL built from a base URL, model and stream flag,
the key's environment variable, auth and version headers, the body as sent, signing).

The core reaches it only through ``registry.get_edge(name)``; no core module names a
provider. The error types it writes (``types``, by status) and the other types and codes
it sends (``reads``, with their status) are what ``error_statuses.error_status`` reads; no
two edges may give one type two statuses (``tests/conformance/test_edges.py``).
``detection`` is the wire description format detection reads
(:class:`~chatcodec._providers.contract.detection.Detection`): its top-level keys come from
the folder's ``known_fields.json`` request and response kinds, its wire ``Request``,
``Response`` and ``ErrorBody`` shapes and its ``extensions``, never listed by hand
(``keys=`` adds a documented field none of them types); ``roles`` are its messages'
roles; ``shapes`` its other marks of ``_detect.py`` (None: detection does not know the
format). ``extensions`` are the fields compatible servers document beyond the SDK types,
each with its source. The toy wire is neither served nor called (``front`` and
``upstream`` left None).
"""

from __future__ import annotations

from typing import Any

from chatcodec._providers._template.markers import PROVIDER
from chatcodec.codec_kit import as_dict
from chatcodec.contract import Detection, Edge, ErrorShape, StreamFraming


def write_error(message: str, status: int, kind: str) -> dict[str, Any]:
    """The error body this API writes: ``{"error": {"message", "type"}}``."""
    del status  # the HTTP status carries it
    return {"error": {"message": message, "type": kind}}


def read_error(body: object) -> tuple[str, str | None]:
    """The message and type of an error body (a text body is the message itself)."""
    if isinstance(body, str):
        return body, None
    error = as_dict((as_dict(body) or {}).get("error")) or {}
    message, kind = error.get("message"), error.get("type")
    return (message if isinstance(message, str) else ""), (kind if isinstance(kind, str) else None)


EDGE = Edge(
    PROVIDER,
    response_name="a Template Chat response",
    framing=StreamFraming("jsonl"),
    errors=ErrorShape({}, "server_error", write_error, read_error, reads={"server_error": 500}),
    detection=Detection(package=__package__, roles=("system", "user", "assistant")),
)
"""The template's edge: JSON-lines streams, one error shape, no server routes."""
