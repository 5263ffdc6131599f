"""A framework's whole-state dump, which ``validate`` reads as the conversation it holds: an
ADK ``Session`` (its history under ``events``), an A2A ``Task`` or a method's body holding a
task or a message. Detection knows the provider wires, which would read such a dump as an
OpenAI Chat request missing its ``messages``, and a framework format's reader would read it
as one answer, so the keys that say which it is are listed here once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HISTORY_UNDER = {
    "google-adk": ("events",),
    "a2a": ("history", "status", "artifacts", "task", "message"),
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
    an ``id`` and a ``status`` with its ``state``), so ``validate`` without ``--format`` reads it
    as that framework's conversation; None for any other body."""
    if "messages" in fields:
        return None
    if isinstance(fields.get("events"), list):
        return "google-adk"
    status = fields.get("status")
    if isinstance(fields.get("id"), str) and isinstance(status, dict) and "state" in status:
        return "a2a"
    return None
