"""Ids for Gemini function calls, which carry none.

Gemini pairs a ``functionResponse`` with its ``functionCall`` by position (the n-th
response of a name answers the n-th call of that name in the model turn before it);
only newer API versions send an ``id``, which is kept when present. Canonical calls
and results pair by id, so the decoder makes ids up, deterministically:

* in a request, ``gemini_call_<content index>_<part index>`` (the call's wire position);
* in a response, ``gemini_call_<responseId>_<candidate index>_<part index>`` (a response id
  keeps the calls of two responses in one history apart).

A made-up id carries the ``_synthesized_id`` marker and is never written to the wire; a
result that was paired by position gets the call's id. Pairing by position, not by name
alone, is what keeps two calls of the same tool apart (results matched by name answer
the wrong call when a turn calls one tool twice).
"""

from __future__ import annotations

from dataclasses import dataclass, field

REQUEST_PREFIX = "gemini_call"
"""The prefix of ids made up for calls in a request."""


def synthesized_call_id(prefix: str, container: int, part: int) -> str:
    """The made-up id of the call at ``part`` of content (or candidate) ``container``."""
    return f"{prefix}_{container}_{part}"


def response_prefix(response_id: str | None) -> str:
    """The id prefix for calls in a response with this ``responseId``."""
    return f"{REQUEST_PREFIX}_{response_id}" if response_id else REQUEST_PREFIX


def _no_calls() -> list[tuple[str, str]]:
    return []  # a factory, not list[...]: calling a generic alias raises and clears an error inside


@dataclass
class OpenCalls:
    """The calls of the last model turn that no result has answered yet, in order."""

    calls: list[tuple[str, str]] = field(default_factory=_no_calls)
    """``(id, name)`` of each unanswered call."""

    def reset(self, calls: list[tuple[str, str]]) -> None:
        """A new model turn: its calls replace the old ones."""
        self.calls = list(calls)

    def answer(self, name: str, wire_id: str | None) -> str | None:
        """The id of the call a result of ``name`` (with ``wire_id`` if it has one) answers:
        the call with that id, else the first unanswered call of that name."""
        for position, (call_id, call_name) in enumerate(self.calls):
            if (wire_id is not None and call_id == wire_id) or (wire_id is None and call_name == name):
                del self.calls[position]
                return call_id
        return None
