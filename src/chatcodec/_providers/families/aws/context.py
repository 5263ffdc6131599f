"""What one Bedrock block body's encode carries beyond the shared context (Converse's and
Nova's encoders each build one, with their :class:`~.body.Body`), apart from the modules
that read it, so ``parts.py`` and ``thinking.py`` both take it without importing each other."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from chatcodec._providers.contract.context import EncodeContext
from chatcodec._providers.families.aws.body import Body
from chatcodec._providers.families.claude.wire_rules import UnsignedThinking

StatusPolicy = Literal["source", "always", "never"]
"""When ``toolResult.status`` is written: as the source had it, always, or never."""


def _no_names() -> set[str]:
    """An empty set of names, typed: ``set[str]`` as the factory calls a generic alias per
    context, which raises and clears an ``AttributeError`` inside."""
    return set()


@dataclass(slots=True, kw_only=True)
class BedrockContext(EncodeContext):
    """A Bedrock encode's state beyond the shared context (whose ``model``, the target
    ``modelId``, decides whether Claude signatures replay): the body written, the options,
    checked, and the document names used so far."""

    body: Body
    """The body being written (its kit, names, and what it lacks)."""

    unsigned_thinking: UnsignedThinking = "drop"
    """The ``unsigned_thinking`` option (anything but ``"text"`` is ``"drop"``)."""
    tool_result_status: StatusPolicy = "source"
    """The ``tool_result_status`` option (anything but ``"always"``/``"never"`` is ``"source"``)."""
    document_names: set[str] = field(default_factory=_no_names)
