"""``done_reason`` <-> the canonical finish reason.

The server writes ``stop`` (a natural end or a stop sequence) and ``length`` (the token
limit, ``num_predict``, or the context) for an answer (``llm.DoneReason``), and ``load`` /
``unload`` for a request with no messages that only loaded or unloaded the model; older
servers and a closed runner connection send none (``DoneReasonConnectionClosed`` is
written as nothing). An answer that is ``done`` without a ``done_reason`` therefore ended
for a reason the wire does not say: ``other``, with no raw word, and it encodes back as
``done: true`` without one (another provider's ``other`` too, its raw word being that
provider's). Ollama ends a turn that calls tools with
``stop``, like a plain answer (its own OpenAI-compatible layer then says ``tool_calls``),
so ``stop`` is ``tool_calls`` when the message holds a call (the caller says so) and
``stop`` otherwise; the raw word is kept either way. ``load`` and ``unload`` are ``other``.
An answer that is ``done`` with no ``done_reason`` but holds a call (Ollama's cloud models
stream their tool calls so, ``cloud_tool_call_with_id.jsonl``) ended to call its tools:
``tool_calls``, with no raw word and the reason recorded as left out (the kit's
``_absent``), so it encodes back without one; read as ``other``, another format's
writer sent ``end_turn`` or ``completed`` and the caller's agent loop stopped there.
A word added later decodes to ``other`` with the raw word kept and recorded in the
choice's bag (``_finish_reason``), and encodes back as that word only with that record.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._providers.ollama.markers import FINISH_REASON
from chatcodec.codec_kit import ABSENT_MARKER, absent_keys, as_list
from chatcodec.contract import EncodeContext, Steps

if TYPE_CHECKING:  # the codec loads no canonical model (first use)
    from chatcodec import UnifiedFinishReason

DONE_REASONS: Mapping[str, UnifiedFinishReason] = {
    "stop": "stop",
    "length": "length",
    "load": "other",
    "unload": "other",
}
"""Every ``done_reason`` the server writes, with its unified reason."""

_WORD: Mapping[str, str] = {"stop": "stop", "tool_calls": "stop", "length": "length"}
"""The word sent for a unified reason this codec did not read."""


def decode_finish_reason(
    raw: str | None, bag: dict[str, Any], *, has_tool_calls: bool = False, done: bool = False
) -> dict[str, Any] | None:
    """The canonical reason for a wire ``done_reason`` of an answer that is ``done`` or not
    (None: not done, a stream line before the last)."""
    if raw is None:
        if done and has_tool_calls:  # a call ends the turn whatever the wire leaves unsaid
            bag[ABSENT_MARKER] = [*(as_list(bag.get(ABSENT_MARKER)) or ()), "done_reason"]
            return {"unified": "tool_calls"}
        return {"unified": "other"} if done else None
    if raw not in DONE_REASONS:
        bag[FINISH_REASON] = raw
    unified = "tool_calls" if raw == "stop" and has_tool_calls else DONE_REASONS.get(raw, "other")
    return {"unified": unified, "raw": raw}


def encode_finish_reason(
    reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """The wire ``done_reason``: the raw word when it is Ollama's and agrees with the
    unified value, else the closest word (a loss when that changes the unified value)."""
    if reason is None:
        return None
    raw, unified = reason.get("raw"), reason["unified"]
    if raw is not None and (DONE_REASONS.get(raw) == unified or (raw == "stop" and unified == "tool_calls")):
        return str(raw)
    if raw is not None and unified == "other" and raw == bag.get(FINISH_REASON):
        return str(raw)  # most likely a reason added after this was written: kept as sent
    if unified == "other" or (raw is None and unified == "tool_calls" and "done_reason" in absent_keys(bag)):
        return None  # done, for a reason the wire does not say (or left out beside the calls it made)
    word = _WORD.get(unified)
    if word is None:
        context.losses.add(at, f"finish reason {unified!r}", "Ollama has no such done_reason; sent 'stop'", "metadata")
        return "stop"
    return word
