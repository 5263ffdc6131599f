"""``stop_reason`` <-> canonical finish reason (unified value plus the raw word).

``max_tokens`` and ``model_context_window_exceeded`` both mean the answer was cut by a
token limit, so both are ``length``; ``pause_turn`` (a long server-tool turn paused, send
it back to continue) is ``pause``. A value the API adds later decodes to ``other`` with
the raw word kept, and encodes back as that word when it is spelled the way Anthropic
spells them (lowercase snake case); any other ``other`` becomes ``end_turn``, reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.losses import Steps
from chatcodec.providers.kit.claude import StopReasons
from chatcodec.providers.kit.context import EncodeContext
from chatcodec.response import FinishReason, UnifiedFinishReason

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


_STOP_REASONS = StopReasons(_UNIFIED, _RAW, field="stop_reason", provider="Anthropic", keep_known_words=True)


def decode_finish_reason(raw: str | None, bag: dict[str, Any]) -> dict[str, Any] | None:
    """The canonical reason for a wire ``stop_reason`` (None while a stream is running).
    Every word comes back from ``raw`` alone, so nothing goes into ``bag``."""
    return _STOP_REASONS.decode(raw)


def encode_finish_reason(
    finish_reason: FinishReason | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """The wire ``stop_reason``: the raw word when it is Anthropic's and agrees with the
    unified value, else the closest word for the unified value (a loss when that changes
    the unified value, e.g. ``content_filter`` -> ``refusal``)."""
    return _STOP_REASONS.encode(finish_reason, context.losses, at)
