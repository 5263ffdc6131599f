"""``status`` and ``incomplete_details.reason`` <-> the unified + raw finish reason.

A Responses answer says why it ended in two fields: ``status`` (``completed``,
``incomplete``, ``failed``, ``cancelled``, and ``in_progress`` / ``queued`` for a
background response not done yet) and, when ``incomplete``, ``incomplete_details.reason``
(``max_output_tokens``, ``content_filter``). The raw word is the reason when there is
one, else the status. ``completed`` is ``tool_calls`` when the output holds a function
call (there is no separate status for it) and ``stop`` otherwise.

``incomplete`` with no reason is an answer whose end is unknown, as a stream cut off
before its terminal event is: both are no finish reason, and no finish reason is written
``incomplete`` (``response.incomplete`` in a stream), never ``completed``, which says the
answer is whole.

Encoding writes the raw word back when it means the same unified reason (or this codec
read it: the ``_finish_reason`` marker), so a new incomplete reason survives a round trip
while another provider's words (``end_turn``, ``MAX_TOKENS``) never reach the wire.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec.contract import EncodeContext, Steps

if TYPE_CHECKING:
    from chatcodec import UnifiedFinishReason

FinishReason = Mapping[str, Any]
"""A canonical finish reason, as data (``unified``, and ``raw`` when known)."""

STATUSES: dict[str, UnifiedFinishReason] = {
    "completed": "stop",
    "failed": "error",
    "cancelled": "other",
    "in_progress": "other",
    "queued": "other",
}
"""The statuses other than ``incomplete`` and what they mean."""

INCOMPLETE_REASONS: dict[str, UnifiedFinishReason] = {"max_output_tokens": "length", "content_filter": "content_filter"}
"""The documented ``incomplete_details.reason`` values."""

MARKER = "_finish_reason"
"""Bag key holding an undocumented incomplete reason this codec read, so it is written back."""

STATUS_MARKER = "_status"
"""Bag key holding an undocumented status this codec read, so it is written back."""

UNKNOWN_END = "incomplete"
"""The status of an answer whose end is unknown (no reason given): not ``completed``."""

_WORDS: dict[UnifiedFinishReason, tuple[str, str | None]] = {
    "stop": ("completed", None),
    "tool_calls": ("completed", None),
    "length": ("incomplete", "max_output_tokens"),
    "content_filter": ("incomplete", "content_filter"),
    "error": ("failed", None),
}


def decode_finish_reason(
    raw: str | None, bag: dict[str, Any], *, incomplete_reason: object = None, has_tool_calls: bool = False
) -> dict[str, Any] | None:
    """The canonical finish reason for a ``status`` (``raw``) and, when it is
    ``incomplete``, ``incomplete_details.reason``; a completed response with tool calls
    finished for them. An undocumented word is also recorded in ``bag`` so it is
    written back."""
    status, reason, tool_calls = raw, incomplete_reason, has_tool_calls
    if status == "incomplete" and isinstance(reason, str):
        if reason not in INCOMPLETE_REASONS:
            bag[MARKER] = reason
        return {"unified": INCOMPLETE_REASONS.get(reason, "other"), "raw": reason}
    if status is None or status == UNKNOWN_END:
        return None
    if status not in STATUSES:
        bag[STATUS_MARKER] = status
    unified = STATUSES.get(status, "other")
    return {"unified": "tool_calls" if unified == "stop" and tool_calls else unified, "raw": status}


def encode_finish_reason(reason: FinishReason | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps) -> str:
    """The ``status`` for ``reason`` (``bag`` is the response's); with ``incomplete``,
    :func:`incomplete_reason` gives ``incomplete_details.reason``."""
    words = _words(reason, bag)
    if words is None:
        unified = "other" if reason is None else reason["unified"]
        why = "Responses has no such status; sent 'completed'"
        context.losses.add(at, f"finish reason {unified!r}", why, "metadata")
        return "completed"
    return words[0]


def incomplete_reason(reason: FinishReason | None, bag: Mapping[str, Any]) -> str | None:
    """``incomplete_details.reason`` for ``reason``: None unless the status is
    ``incomplete`` (a Responses finish is two fields, where other formats have one word)."""
    words = _words(reason, bag)
    return None if words is None else words[1]


def _words(reason: FinishReason | None, bag: Mapping[str, Any]) -> tuple[str, str | None] | None:
    """``(status, incomplete reason or None)`` for ``reason``; None when it has none."""
    if reason is None:
        return UNKNOWN_END, None
    raw, unified = reason.get("raw"), reason["unified"]
    if raw is not None:
        ours = raw in INCOMPLETE_REASONS or raw == bag.get(MARKER)
        if ours and INCOMPLETE_REASONS.get(raw, "other") == unified:
            return "incomplete", raw
        if raw in STATUSES and (STATUSES[raw] == unified or (raw == "completed" and unified == "tool_calls")):
            return raw, None
        if raw == bag.get(STATUS_MARKER) and unified == "other":
            return raw, None
    return _WORDS.get(unified)
