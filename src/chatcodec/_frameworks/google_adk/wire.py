"""What a Google ADK session's events must hold, and their validator.

Each event is checked for the fields the reader reads, typed as ``google.adk.events.Event``
types them (google-adk 2.13.0): ``content`` a ``Content`` object (or none), ``author``,
``id`` and ``invocationId`` strings, ``timestamp`` a number, ``actions`` an object; the
content itself is checked by the ``gemini`` reader, named at its event. Everything else an
event holds stays as it is. An event ADK would not load is refused at its own path
(``$.messages[3].author``) as a :class:`~chatcodec.ValidationError`, before anything is read.
"""

from __future__ import annotations

from typing import Any

from chatcodec._frameworks.history import HistoryCheck, history_check, refuse_non_string, validated_answer

_STRINGS = ("author", "id", "invocationId", "invocation_id", "branch")
_OBJECTS = ("content", "actions")


def _event(event: dict[str, Any]) -> dict[str, Any]:
    refuse_non_string(event, _STRINGS, "event")
    for key in _OBJECTS:
        if event.get(key) is not None and not isinstance(event[key], dict):
            raise ValueError(f"an event's {key}: an object")
    stamp = event.get("timestamp")
    if stamp is not None and (isinstance(stamp, bool) or not isinstance(stamp, (int, float))):
        raise ValueError("an event's timestamp: a number (seconds since the epoch)")
    return event


validated_history: HistoryCheck = history_check(_event)
"""``payload`` checked as ``{"messages": [...]}`` whose every entry is an event ADK can load."""


def validated_event(payload: dict[str, Any], title: str) -> dict[str, Any]:
    """``payload`` checked as one event, a refusal named at its place in it."""
    return validated_answer(validated_history, payload, title)
