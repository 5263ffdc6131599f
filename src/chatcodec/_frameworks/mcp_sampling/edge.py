"""What the wire says on failure (``EDGE``): a client that refuses to sample answers the
JSON-RPC request with an error object (``{"code": -1, "message": "User rejected sampling
request"}``, the spec's example).

MCP carries these messages inside JSON-RPC (over stdio or its streamable HTTP transport), so
the wire has no HTTP route of its own. The front (``FRONT``) gives ``chatcodec serve`` one: a
client that answers ``sampling/createMessage`` posts the request's ``params`` to
``POST /sampling/createMessage`` and gets the ``CreateMessageResult`` to put in its JSON-RPC
answer, from whichever upstream the model routes to. The model is the first of
``modelPreferences.hints`` (the spec's hints are substrings the client may map to a model of
its own: ``--model-map`` or ``--route`` patterns do that mapping); sampling has no stream."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.mcp_sampling.markers import PROVIDER
from chatcodec.codec_kit import as_dict, as_list
from chatcodec.contract import Call, Edge, ErrorShape, Front, StreamFraming

_CODES = {"-1": 400, "-32600": 400, "-32602": 400, "-32603": 500}
"""The JSON-RPC codes this edge writes and reads, with the HTTP status they stand for:
``-1`` the spec's user rejection, ``-32600``/``-32602`` an invalid request or params,
``-32603`` an internal error."""


def write_error(message: str, status: int, kind: str) -> dict[str, Any]:
    """The JSON-RPC error object: ``code`` the error type as a number."""
    del status
    return {"code": int(kind) if kind.lstrip("-").isdigit() else -32603, "message": message}


def read_error(body: object) -> tuple[str, str | None]:
    """The message and type (the code, as text) of an error object."""
    if isinstance(body, str):
        return body, None
    error = as_dict(body) or {}
    message, code = error.get("message"), error.get("code")
    return (message if isinstance(message, str) else ""), (str(code) if isinstance(code, int) else None)


def read_call(payload: dict[str, Any], target: str | None, query: Mapping[str, str]) -> Call:
    """The model a request's first hint names (None without one), never a stream."""
    hints = as_list((as_dict(payload.get("modelPreferences")) or {}).get("hints")) or []
    name = (as_dict(hints[0]) or {}).get("name") if hints else None
    return Call(payload, name if isinstance(name, str) else None, False, "jsonl")


FRONT = Front(("/sampling/createMessage",), read_call=read_call)
"""``POST /sampling/createMessage``: the request's ``params`` in, its result out."""

EDGE = Edge(
    PROVIDER,
    response_name="an MCP sampling result",
    framing=StreamFraming("jsonl"),
    errors=ErrorShape({400: "-32602", 500: "-32603"}, "-32603", write_error, read_error, reads=_CODES),
    front=FRONT,
)
