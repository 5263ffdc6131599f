"""``stop_reason`` <-> canonical finish reason (unified value plus the raw word).

``max_tokens`` and ``model_context_window_exceeded`` both mean the answer was cut by a
token limit, so both are ``length``; ``pause_turn`` (a long server-tool turn paused, send
it back to continue) is ``pause``. A value the API adds later decodes to ``other`` with
the raw word kept and recorded in the response's bag (``_finish_reason``), and encodes
back as that word only with that record: a raw word is written back only by the provider
that read it. Another provider's word (a Responses ``queued`` or ``cancelled`` status,
spelled as Anthropic spells its words) is mapped from the unified value instead, and any
``other`` becomes ``end_turn``, reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._providers.families.claude.wire_rules import StopReasons
from chatcodec.contract import EncodeContext, Steps

REFUSAL_SENT_AS_TEXT = "Anthropic has no refusal block; sent as text"
"""Why a refusal part is a loss: Anthropic says a refusal by ``stop_reason: refusal``, with
no block for the refusal's text. An empty one is not sent at all (no empty text block), but
the answer's having refused is lost either way, so it is reported either way."""


if TYPE_CHECKING:  # annotations only: the codec loads no canonical model (first use)
    from chatcodec import UnifiedFinishReason

_UNIFIED: dict[str, UnifiedFinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_calls",
    "pause_turn": "pause",
    "refusal": "refusal",
}

# Best Anthropic word for a unified reason that came from another provider.
_RAW: dict[UnifiedFinishReason, str] = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_use",
    "pause": "pause_turn",
    "refusal": "refusal",
    "content_filter": "refusal",
    "error": "end_turn",
    "other": "end_turn",
}


_STOP_REASONS = StopReasons(_UNIFIED, _RAW, field="stop_reason", provider="Anthropic")


def decode_finish_reason(raw: str | None, bag: dict[str, Any]) -> dict[str, Any] | None:
    """The canonical reason for a wire ``stop_reason`` (None while a stream is running);
    a word this codec does not know is also recorded in ``bag`` so it is written back."""
    return _STOP_REASONS.decode(raw, bag)


def encode_finish_reason(
    finish_reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """The wire ``stop_reason``: the raw word when it is Anthropic's and agrees with the
    unified value (a word it does not know only when ``bag``, the response's own, records
    it), else the closest word for the unified value (a loss when that changes the unified
    value, e.g. ``content_filter`` -> ``refusal``)."""
    return _STOP_REASONS.encode(finish_reason, bag, context.losses, at)
