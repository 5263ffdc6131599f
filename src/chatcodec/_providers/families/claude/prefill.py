"""The prefill rule Claude enforces, shared by the Anthropic and Bedrock encoders.

A final assistant turn (a prefill the model continues) must not end in whitespace:
Anthropic answers 400 "final assistant content cannot end with trailing whitespace"
(https://docs.anthropic.com/en/docs/build-with-claude/prompt-engineering/prefill-claudes-response),
and Claude on Bedrock is the same model behind Converse. The whitespace is trimmed and
the change reported, never made silently.
"""

from __future__ import annotations

from typing import Any

from chatcodec._losses import LossRecorder, Steps

WHAT = "trailing whitespace of the final assistant turn"
WHY = "Claude rejects a final assistant turn that ends in whitespace"


def trimmed_prefill(text: str, at: Steps, losses: LossRecorder) -> str:
    """``text`` without its trailing whitespace (a loss at ``at`` when there was any)."""
    trimmed = text.rstrip()
    if trimmed != text:
        losses.add(at, WHAT, WHY)
    return trimmed


def trim_prefill_block(block: dict[str, Any], key: str, at: Steps, losses: LossRecorder) -> None:
    """Trim the text held under ``key`` of the turn's last text block, in place."""
    text = block.get(key)
    if isinstance(text, str):
        block[key] = trimmed_prefill(text, at, losses)
