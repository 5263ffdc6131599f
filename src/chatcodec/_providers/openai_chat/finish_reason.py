"""``finish_reason`` both ways: the unified value plus the raw word.

OpenAI sends ``stop``, ``length``, ``tool_calls``, ``content_filter`` and the legacy
``function_call``. Compatible servers add their own: OpenRouter ``error`` (a provider
failed mid-generation) and DeepSeek ``insufficient_system_resource`` (the request was cut
off for capacity) both mean the answer is broken, so they map to ``error``; anything else
is ``other`` with the word kept in ``raw``.

Gemini's OpenAI-compatible endpoint, OSS servers and at times OpenAI's own models end a
turn that calls tools with ``stop`` (microsoft/autogen#4878, BerriAI/litellm#10485,
ENTERPILOT/GoModel#124 for gpt-4o-mini; an agent such as Claude Code then stops without
running the tool). As Gemini's ``STOP`` and Ollama's ``stop``,
``stop`` is therefore ``tool_calls`` when the message holds a call (the caller says so),
with the raw word kept and marked, and it is written back as ``stop``; a turn that called
tools read from another format (Ollama's and Gemini's raw word is also ``stop``) is written
``tool_calls``, as OpenAI writes it.

A ``refusal`` (Anthropic's ``stop_reason: "refusal"``: "streaming classifiers intervened
to handle potential policy violations", Anthropic "Handling stop reasons") is written
``content_filter``, OpenAI's word for an answer its policy stopped (litellm and the Vercel
AI SDK map it the same way), reported as the reading back says ``content_filter``.

Encoding writes ``raw`` back when it is one of OpenAI's words for the same unified reason,
or when this codec decoded it (the ``_finish_reason`` marker on the choice or finish event),
so a compatible server's own words survive a round trip but another provider's
(``end_turn``, ``MAX_TOKENS``) never reach the wire. Otherwise the unified reason picks
OpenAI's word; reasons OpenAI has no word for become ``stop``, with a loss.

An answer with no finish reason ended where nobody knows (a cut-off stream). A stream
just ends without a finish chunk; a ``chat.completion`` requires a ``finish_reason``, so
it is written ``length`` (cut short), reported, never ``stop``, which says the answer is
whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chatcodec import UnifiedFinishReason
    from chatcodec.contract import EncodeContext, LossRecorder, Steps

STANDARD = ("stop", "length", "tool_calls", "content_filter", "function_call")
"""The values of the SDK's ``Choice.finish_reason``."""

_UNIFIED: dict[str, UnifiedFinishReason] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "content_filter": "content_filter",
    "function_call": "tool_calls",
    "error": "error",
    "insufficient_system_resource": "error",
}

_OPENAI_WORD: dict[UnifiedFinishReason, str] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "content_filter": "content_filter",
}

MARKER = "_finish_reason"
"""Bag key holding a non-standard raw value this codec read (or ``stop`` on a turn that called
tools), so it is written back."""


def decode_finish_reason(
    raw: str | None, bag: dict[str, Any], *, has_tool_calls: bool = False
) -> dict[str, Any] | None:
    """A wire value as a canonical finish-reason dict (None while a stream runs); a
    non-standard word is also recorded in ``bag`` so it is written back."""
    if raw is None:
        return None
    if raw not in STANDARD:
        bag[MARKER] = raw
    if raw == "stop" and has_tool_calls:
        bag[MARKER] = raw  # this server's word for the turn: another format's "stop" is not
        return {"unified": "tool_calls", "raw": raw}
    return {"unified": _UNIFIED.get(raw, "other"), "raw": raw}


def encode_finish_reason(
    reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """The wire value for a canonical finish reason (``{"unified", "raw"}``); ``bag`` is the
    choice's (or finish event's) own bag."""
    losses = context.losses
    if reason is None:
        return None
    raw: str | None = reason.get("raw")
    unified: UnifiedFinishReason = reason["unified"]
    if raw is not None and _UNIFIED.get(raw, "other") == unified and (raw in STANDARD or raw == bag.get(MARKER)):
        return raw
    if raw == "stop" and unified == "tool_calls" and bag.get(MARKER) == raw:
        return raw  # a server's word for a turn that called tools, read by this codec
    if unified == "refusal":
        why = "OpenAI has no refusal finish_reason; sent 'content_filter', its word for an answer a policy stopped"
        losses.add(at, "finish reason 'refusal'", why, "metadata")
        return "content_filter"
    word = _OPENAI_WORD.get(unified)
    if word is None:
        losses.add(at, f"finish reason {unified!r}", "OpenAI has no such finish_reason; sent 'stop'", "metadata")
        return "stop"
    return word


UNKNOWN_END = "length"
"""The ``finish_reason`` of an answer whose end is unknown: cut short, not whole."""


def encode_unknown_finish(losses: LossRecorder, at: Steps) -> str:
    """The required ``finish_reason`` for an answer with no finish reason (a cut-off stream)."""
    why = f"OpenAI requires one; the answer's end is unknown (cut off), sent {UNKNOWN_END!r}"
    losses.add(at, "missing finish reason", why)
    return UNKNOWN_END
