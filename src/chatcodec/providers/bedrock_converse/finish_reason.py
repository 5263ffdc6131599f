"""``stopReason`` <-> canonical finish reason (unified value plus the raw word).

Every value botocore's ``StopReason`` lists is mapped: ``guardrail_intervened`` and
``content_filtered`` are ``content_filter`` (a safety system stopped the answer),
``malformed_model_output`` and ``malformed_tool_use`` are ``error`` (the model produced
something Bedrock could not parse; retrying may help), ``model_context_window_exceeded``
and ``max_tokens`` are ``length``. The raw word is always kept, so none of them collapses
into another on the way back. A value AWS adds later decodes to ``other`` with the raw
word kept, and encodes back as that word when it is spelled as Bedrock spells them
(lowercase snake case); any other ``other`` becomes ``end_turn``, reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.losses import Steps
from chatcodec.providers.kit.claude import StopReasons
from chatcodec.providers.kit.context import EncodeContext
from chatcodec.response import FinishReason, UnifiedFinishReason

UNIFIED: dict[str, UnifiedFinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_calls",
    "guardrail_intervened": "content_filter",
    "content_filtered": "content_filter",
    "malformed_model_output": "error",
    "malformed_tool_use": "error",
}
"""Every ``StopReason`` in botocore's ``bedrock-runtime`` model, with its unified reason."""

_RAW: dict[UnifiedFinishReason, str] = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_use",
    "content_filter": "content_filtered",
    "error": "malformed_model_output",
    "refusal": "content_filtered",
    "pause": "end_turn",
    "other": "end_turn",
}


_STOP_REASONS = StopReasons(UNIFIED, _RAW, field="stopReason", provider="Bedrock")


def decode_finish_reason(raw: str | None, bag: dict[str, Any]) -> dict[str, Any] | None:
    """The canonical reason for a wire ``stopReason`` (nothing goes into ``bag``)."""
    return _STOP_REASONS.decode(raw)


def encode_finish_reason(
    finish_reason: FinishReason | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """The wire ``stopReason``: the raw word when it is Bedrock's and agrees with the
    unified value, else the closest word (a loss when that changes the unified value)."""
    return _STOP_REASONS.encode(finish_reason, context.losses, at)
