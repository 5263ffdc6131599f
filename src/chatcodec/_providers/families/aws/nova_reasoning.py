"""Canonical reasoning as Nova's ``reasoningConfig``, for both bodies that serve Nova: the
InvokeModel body writes it at its top level (``bedrock_nova/settings.py``), Converse in
``additionalModelRequestFields`` when the model is a Nova one (``bedrock_converse/settings.py``:
Nova 2's Converse examples send ``additionalModelRequestFields={"reasoningConfig": {"type":
"enabled", "maxReasoningEffort": "low"}}``,
https://docs.aws.amazon.com/nova/latest/nova2-userguide/extended-thinking.html; Nova's guides
document neither of Claude's spellings, ``thinking`` and ``outputConfig.effort``, which
Converse writes for every other model).

``reasoningConfig`` is ``type`` ``enabled`` / ``disabled`` and ``maxReasoningEffort`` ``low``
/ ``medium`` / ``high``: Nova takes no thinking budget and no adaptive mode (each a loss); an
effort it has no word for is sent as the nearest (``minimal`` as ``low``, ``xhigh`` and
``max`` as ``high``; ``none`` as reasoning disabled), reported. Which models take it at all
is a model rule (``reasoning_config``: Nova 2 only).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import as_dict
from chatcodec.contract import LossRecorder, RuleCall

EFFORTS = ("low", "medium", "high")
"""``maxReasoningEffort``'s values."""
_NEAREST = {"none": None, "minimal": "low", "xhigh": "high", "max": "high"}
"""A canonical effort Nova has no word for -> the word sent (None: reasoning disabled)."""
FIELDS = "additionalModelRequestFields"


def decode_reasoning(reasoning: Mapping[str, Any]) -> dict[str, Any] | None:
    """Canonical reasoning for a ``reasoningConfig``; None when canonical cannot hold it exactly."""
    kind, effort = reasoning.get("type"), reasoning.get("maxReasoningEffort")
    if set(reasoning) - {"type", "maxReasoningEffort"} or kind not in ("enabled", "disabled"):
        return None
    if kind == "disabled":
        return {"enabled": False} if effort is None else None
    return {"enabled": True} if effort is None else {"enabled": True, "effort": effort} if effort in EFFORTS else None


def encode_reasoning_config(reasoning: Mapping[str, Any] | None, losses: LossRecorder) -> dict[str, Any] | None:
    """The ``reasoningConfig`` for canonical ``reasoning`` (None: nothing to send), each
    change a ``setting`` loss."""
    if reasoning is None:
        return None
    at = ("reasoning",)
    for key in ("budget_tokens", "adaptive", "summary", "include_thoughts"):
        if reasoning.get(key) is not None:
            losses.add((*at, key), f"reasoning {key}", "Nova's reasoningConfig takes an effort only", "setting")
    effort = reasoning.get("effort")
    if reasoning.get("enabled") is False:
        if effort is not None:  # a disabled reasoningConfig has no maxReasoningEffort
            why = "Nova takes an effort only with reasoning enabled; sent disabled"
            losses.add((*at, "effort"), f"effort {effort!r}", why, "setting")
        return {"type": "disabled"}
    if effort is not None and effort not in EFFORTS:
        nearest = _NEAREST.get(effort)
        sent = f"sent {nearest!r}" if nearest else "reasoning sent disabled"
        losses.add((*at, "effort"), f"effort {effort!r}", f"Nova's efforts are low, medium, high: {sent}", "setting")
        if nearest is None:
            return {"type": "disabled"}
        effort = nearest
    if effort is None and reasoning.get("enabled") is None and reasoning.get("budget_tokens") is None:
        return None
    return {"type": "enabled", **({"maxReasoningEffort": effort} if effort is not None else {})}


def drop_claude_reasoning(call: RuleCall) -> None:
    """Claude's spellings of reasoning (``additionalModelRequestFields.thinking``,
    ``outputConfig.effort``) that a Converse body for a Nova model without extended thinking
    still holds (a shape canonical could not read, kept as it came): not sent, reported but
    for thinking disabled (the default)."""
    fields = as_dict(call.body.get(FIELDS))
    output = as_dict(call.body.get("outputConfig"))
    if fields is not None and "thinking" in fields:
        thinking = as_dict(fields.pop("thinking"))
        if thinking is None or thinking.get("type") != "disabled":
            call.report((FIELDS, "thinking"), "thinking", "not sent: the model has no extended thinking")
        if not fields:
            del call.body[FIELDS]
    if output is not None and "effort" in output:
        effort = output.pop("effort")
        call.report(
            ("outputConfig", "effort"),
            f"outputConfig.effort {effort!r}",
            "not sent: the model has no extended thinking",
        )
        if not output:
            del call.body["outputConfig"]
