"""Ids for Ollama tool calls that came without one, and the pairing of results with calls.

Ollama servers give each call an ``id`` (``call_`` and 8 random characters) and take a
result's ``tool_call_id`` since 2025 (``api.ToolCall.ID``, ``api.Message.ToolCallID``);
before that, and in the documentation's own examples, a call had no id and a result named
only its tool (``tool_name``), the model pairing the two by order. Canonical calls and
results pair by id, so the decoder makes ids up, deterministically:

* in a request, ``ollama_call_<message index>_<call index>`` (the call's wire position);
* in a response, ``ollama_call_<created_at>_<call index>`` (``created_at`` without its
  punctuation, so the calls of two answers in one history stay apart).

A made-up id carries the ``_synthesized_id`` marker and is never written to the wire, and
a result answering such a call is sent without ``tool_call_id`` (as it came). A result
without an id answers the first unanswered call of its ``tool_name`` in the assistant turn
before it (or the first unanswered call, when it names none), and takes that call's id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

PREFIX = "ollama_call"
"""The prefix of ids made up for calls."""

ORPHAN_PREFIX = "ollama_result"
"""The prefix of ids made up for results that answer no call the history holds."""

_PUNCTUATION = re.compile(r"[^0-9A-Za-z]")


def request_call_id(message: int, call: int) -> str:
    """The made-up id of call ``call`` of wire message ``message``."""
    return f"{PREFIX}_{message}_{call}"


def response_call_id(created_at: str | None, call: int) -> str:
    """The made-up id of call ``call`` of an answer created at ``created_at``."""
    stamp = _PUNCTUATION.sub("", created_at or "")
    return f"{PREFIX}_{stamp}_{call}" if stamp else f"{PREFIX}_{call}"


def orphan_result_id(message: int) -> str:
    """The made-up id of a result (wire message ``message``) answering no known call."""
    return f"{ORPHAN_PREFIX}_{message}"


@dataclass
class OpenCalls:
    """The calls of the last assistant turn that no result has answered yet, in order."""

    calls: list[tuple[str, str]] = field(default_factory=lambda: [])
    """``(id, name)`` of each unanswered call."""

    def reset(self, calls: list[tuple[str, str]]) -> None:
        """A new assistant turn: its calls replace the old ones."""
        self.calls = list(calls)

    def answer(self, name: str | None, wire_id: str | None) -> str | None:
        """The id of the call a result answers: the call with ``wire_id`` when the result
        has one, else the first unanswered call named ``name`` (any call for no name)."""
        for position, (call_id, call_name) in enumerate(self.calls):
            answered = call_id == wire_id if wire_id is not None else name in (None, call_name)
            if answered:
                del self.calls[position]
                return call_id
        return None
