"""``stopReason`` <-> canonical finish reason (unified value plus the raw word), for both
Bedrock block bodies: Converse's ``stopReason`` and Nova's InvokeModel ``stopReason`` (and
their streams' ``messageStop``) are one word list. Nova's user guide lists ``end_turn``,
``tool_use``, ``max_tokens``, ``stop_sequence``, ``content_filtered``,
``malformed_model_output`` and ``malformed_tool_use``
(https://docs.aws.amazon.com/nova/latest/userguide/complete-request-schema-response.html),
all of them in botocore's ``StopReason``; Nova 2 supports guardrails, whose word is
``guardrail_intervened``.

Every value botocore's ``StopReason`` lists is mapped: ``guardrail_intervened`` and
``content_filtered`` are ``content_filter`` (a safety system stopped the answer),
``malformed_model_output`` and ``malformed_tool_use`` are ``error`` (the model produced
something Bedrock could not parse; retrying may help), ``model_context_window_exceeded``
and ``max_tokens`` are ``length``. The raw word is always kept, so none of them collapses
into another on the way back. A value AWS adds later decodes to ``other`` with the raw
word kept and recorded in the response's bag (``_finish_reason``), and encodes back as
that word only with that record: a raw word is written back only by the provider that
read it. Another provider's word (a Responses ``queued`` or ``cancelled`` status, spelled
as Bedrock spells its words) is mapped from the unified value instead, and any ``other``
becomes ``end_turn``, reported.

An answer with no finish reason ended where nobody knows (a cut-off stream): a Converse
response requires a ``stopReason`` and has no word for "not finished", so it is written
``max_tokens`` (cut short), reported, never ``end_turn``, which says the answer is whole
(Nova's writer leaves the field out, as its answers did).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._losses import LossRecorder, Steps
from chatcodec._providers.contract.context import EncodeContext
from chatcodec._providers.families.claude.wire_rules import StopReasons

if TYPE_CHECKING:  # annotations only: a codec loads no canonical model until one is asked for
    from chatcodec._model.response_fields import UnifiedFinishReason

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
    """The canonical reason for a wire ``stopReason``; a word this codec does not know is
    also recorded in ``bag`` (the response's) so it is written back."""
    return _STOP_REASONS.decode(raw, bag)


def encode_finish_reason(
    finish_reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """The wire ``stopReason`` for canonical finish-reason data: the raw word when it is Bedrock's and agrees with the
    unified value (a word it does not know only when ``bag``, the response's own, records
    it), else the closest word (a loss when that changes the unified value)."""
    return _STOP_REASONS.encode(finish_reason, bag, context.losses, at)


UNKNOWN_END = "max_tokens"
"""The ``stopReason`` of an answer whose end is unknown: cut short, not whole."""


def encode_unknown_finish(losses: LossRecorder, at: Steps, response: str = "a Converse response") -> str:
    """The required ``stopReason`` for an answer with no finish reason (a cut-off stream);
    ``response``: the answer named in the loss (a body's ``Body.response``)."""
    why = f"{response} requires a stopReason; the answer's end is unknown (cut off), sent {UNKNOWN_END!r}"
    losses.add(at, "missing finish reason", why)
    return UNKNOWN_END
