"""What one Bedrock Converse encode carries along (the loss recorder, the target model and
the encoder options), apart from the modules that read it, so ``parts.py`` and
``thinking.py`` both take it without importing each other."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from chatcodec.losses import LossRecorder

StatusPolicy = Literal["source", "always", "never"]
"""When ``toolResult.status`` is written: as the source had it, always, or never."""
UnsignedThinking = Literal["drop", "text"]
"""What to do with thinking Bedrock cannot verify: drop it, or send its text as text."""


@dataclass
class EncodeContext:
    """What one encode carries along: the loss recorder and the rules in force."""

    losses: LossRecorder
    for_request: bool = True
    model: str | None = None
    """The target ``modelId``, when known: decides whether Claude signatures replay."""
    unsigned_thinking: UnsignedThinking = "drop"
    tool_result_status: StatusPolicy = "source"
    document_names: set[str] = field(default_factory=set[str])
