"""The JSON-RPC message around a sampling body: a server's whole request
(``{"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": {...}}``) and a
client's whole answer (``{"jsonrpc": "2.0", "id": 1, "result": {...}}``, or ``"error"``), as
an MCP log or a transport's capture holds them.

The body inside is read as the bare body is; the message's other members (``jsonrpc``, ``id``,
``method``) are kept under :data:`ENVELOPE` in the bag, a data key (another format reports
them, the request id first: a client answers by it), and the body is written back inside
them. A problem of the body is named at its place in the message (``params.messages.0...``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from chatcodec import ValidationError
from chatcodec.codec_kit import Problem, as_dict, leftovers, problems_error

METHOD = "sampling/createMessage"
"""The JSON-RPC method whose ``params`` are this codec's request body."""

ENVELOPE = "jsonrpc"
"""The bag key of the JSON-RPC message's members beside the body: ``jsonrpc``, ``id``, ``method``."""


def request_body(payload: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """``(None, payload)`` for bare params, ``("params", params)`` for a JSON-RPC request of
    :data:`METHOD` (another method, or params that are no object, refused at their path)."""
    if "method" not in payload:
        return None, payload
    if payload["method"] != METHOD:
        raise problems_error(
            "MCP sampling request", [Problem(("method",), "literal_error", f"the method {METHOD!r}", payload["method"])]
        )
    return "params", _object(payload, "params", "MCP sampling request")


def result_body(payload: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """``(None, payload)`` for a bare result, ``("result", result)`` or ``("error", error)``
    for a JSON-RPC response (one holding ``jsonrpc`` and a ``result`` or an ``error``)."""
    if "jsonrpc" not in payload:
        return None, payload
    for key in ("result", "error"):
        if key in payload:
            return key, _object(payload, key, "MCP sampling result")
    raise problems_error("MCP sampling result", [Problem(("result",), "missing", "a result or an error", payload)])


def _object(payload: Mapping[str, Any], key: str, title: str) -> dict[str, Any]:
    if key not in payload:
        raise problems_error(title, [Problem((key,), "missing", "Field required", dict(payload))])
    found = as_dict(payload[key])
    if found is None:
        raise problems_error(title, [Problem((key,), "dict_type", "an object", payload[key])])
    return found


def read_inside(key: str | None, read: Callable[[], dict[str, Any]], title: str) -> dict[str, Any]:
    """``read()``'s result; its problems placed under ``key`` when the body was inside a message."""
    if key is None:
        return read()
    try:
        return read()
    except ValidationError as error:
        problems = [
            Problem((key, *detail["loc"]), detail["type"], detail["msg"], detail.get("input"))
            for detail in error.errors()
        ]
        raise problems_error(title, problems) from None


def envelope(payload: Mapping[str, Any], key: str | None) -> dict[str, Any]:
    """The message's members beside its body (``{}`` for a bare body)."""
    return {} if key is None else leftovers(payload, (key,))


def wrapped(envelope_members: object, key: str, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` inside the JSON-RPC message it was read from, or as it is without one."""
    members = as_dict(envelope_members)
    return body if members is None else {**members, key: body}
