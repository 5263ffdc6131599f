"""The Interaction's ``status`` <-> canonical :class:`~chatcodec.FinishReason`.

An Interaction has no finish word: its ``status`` says how it ended (google-genai 3.6.1
``InteractionStatus``). ``requires_action`` is a turn that called functions (the client
runs them and sends their results), ``incomplete`` and ``budget_exceeded`` ran out of
tokens, ``failed`` is an error, ``cancelled`` was stopped; the statuses of an unfinished
interaction (``in_progress``, ``queued``, ``idle``, ``requires_continuation``) are
``other``. The status rides in ``raw``, so a same-format round trip writes it back.

A ``completed`` Interaction whose last step is a function call (what the API answers when
the client runs the functions itself, as Google ADK's and the Vercel AI SDK's converters
read it) is a turn that ended on tool calls: every other format must say so (``tool_calls``,
``tool_use``...) for its clients to run them, so it reads as ``tool_calls`` with ``raw``
``completed`` (marked in the response's bag), and is written back as ``completed``; another
format's ``completed`` turn that called tools (OpenAI Responses') is ``requires_action`` here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._providers.gemini_interactions.markers import STATUS
from chatcodec.contract import EncodeContext, Steps

if TYPE_CHECKING:
    from chatcodec import UnifiedFinishReason

WORDS: Mapping[str, UnifiedFinishReason] = {
    "completed": "stop",
    "requires_action": "tool_calls",
    "incomplete": "length",
    "budget_exceeded": "length",
    "failed": "error",
    "cancelled": "other",
    "in_progress": "other",
    "queued": "other",
    "idle": "other",
    "requires_continuation": "other",
}
"""Every status the API documents, with its unified reason."""

_WORD: Mapping[str, str] = {
    "stop": "completed",
    "tool_calls": "requires_action",
    "length": "incomplete",
    "error": "failed",
}
"""The status written for a unified reason."""


def decode_finish_reason(raw: str | None, bag: dict[str, Any], *, ends_on_call: bool = False) -> dict[str, Any] | None:
    """The canonical reason for a status (None when there is none); a status not known here
    is marked in ``bag`` (the response's), so this writer sends it back as it came.
    ``ends_on_call``: the Interaction's last step is a function call."""
    if raw is None:
        return None
    if raw not in WORDS:
        bag[STATUS] = raw
    if raw == "completed" and ends_on_call:
        bag[STATUS] = raw  # this API's own completed turn, written back as it came
        return {"unified": "tool_calls", "raw": raw}
    return {"unified": WORDS.get(raw, "other"), "raw": raw}


def encode_finish_reason(
    reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str:
    """The status: the raw one when it is this API's and agrees with the unified value, else
    the closest (``completed`` for a reason with none, reported: an Interaction always has a
    status, so one without a finish reason would otherwise be read back as having stopped)."""
    if reason is None:
        context.losses.add(at, "no finish reason", "an Interaction always has a status; sent 'completed'")
        return "completed"
    raw, unified = reason.get("raw"), reason["unified"]
    if isinstance(raw, str) and raw in WORDS and WORDS[raw] == unified:
        return raw
    if raw == "completed" and unified == "tool_calls" and bag.get(STATUS) == raw:
        return "completed"  # a completed Interaction that ended on a call (decode_finish_reason)
    if unified == "other" and raw is not None and raw == bag.get(STATUS):
        return str(raw)  # most likely a status added after this was written: kept as sent
    status = _WORD.get(unified)
    if status is None:
        context.losses.add(at, f"finish reason {unified!r}", "an Interaction has no such status; sent 'completed'")
        return "completed"
    return status
