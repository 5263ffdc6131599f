"""A framework's whole-state dump, which ``validate`` reads as the conversation it holds: an
ADK ``Session`` (its history under ``events``), an A2A ``Task`` or a method's body holding a
task or a message, an MCP ``sampling/createMessage`` request or its result. Detection knows
the provider wires, which would read such a dump as an OpenAI Chat request missing its
``messages``, and a framework format's reader would read it as one answer, so the keys that
say which it is are listed here once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HISTORY_UNDER = {
    "google-adk": ("events",),
    "a2a": ("history", "status", "artifacts", "task", "message"),
    "mcp-sampling": ("messages", "params"),
}
"""The keys a framework's whole-state dump holds its history under, where it is not
``messages`` (an A2A agent's bare ``Message``, which holds none, is its answer)."""


def holds_a_history(format_name: str, fields: Mapping[str, Any]) -> bool:
    """Whether ``fields``, in the framework format ``format_name``, holds a conversation
    (read as a request), rather than being one answer."""
    return any(key in fields for key in HISTORY_UNDER.get(format_name, ("messages",)))


def whole_state_format(fields: Mapping[str, Any]) -> str | None:
    """The framework whose whole-state dump ``fields`` is, found by keys no provider's body
    holds at its top (an ADK ``Session``: an ``events`` list, no ``messages``; an A2A ``Task``:
    an ``id`` and a ``status`` with its ``state``; MCP sampling: :func:`mcp_sampling_body`), so
    ``validate`` without ``--format`` reads it as that framework's conversation; None for any
    other body."""
    if mcp_sampling_body(fields):
        return "mcp-sampling"
    if "messages" in fields:
        return None
    if isinstance(fields.get("events"), list):
        return "google-adk"
    status = fields.get("status")
    if isinstance(fields.get("id"), str) and isinstance(status, dict) and "state" in status:
        return "a2a"
    return None


MCP_METHOD = "sampling/createMessage"
"""The JSON-RPC method of an MCP server's sampling request."""


def mcp_sampling_body(fields: Mapping[str, Any]) -> bool:
    """Whether ``fields`` is unmistakably MCP sampling: a JSON-RPC request of
    ``sampling/createMessage``, its params (``messages`` beside a top-level ``maxTokens``, which
    no provider spells at its top: Bedrock's is inside ``inferenceConfig``), a
    ``CreateMessageResult`` (``stopReason``, camel-cased, beside ``role`` and ``content``), or a
    JSON-RPC response holding one."""
    if fields.get("method") == MCP_METHOD:
        return True
    if "messages" in fields and "maxTokens" in fields:
        return True
    result = fields.get("result") if "jsonrpc" in fields else fields
    return isinstance(result, dict) and {"stopReason", "role", "content"} <= result.keys()
