"""What both OpenAI Chat pairs ask of an assistant turn they write by the writer's general rules
(OpenRouter's reasoning details, a client's marked dialect): which of them a pair may prove by its
shape, and what a proof keeps.

Both pairs prove a general turn's shape once (the first turn written by the general rules and by
its parts, compared: :mod:`.openai_chat_to_anthropic_reasoned`, and the Responses pair's
``_general_items``) and write later turns of the shape by their parts. A proof holds only when the
general writing reports what the parts report and nothing of the turn's own before it
(:func:`parts_alone`), and a turn a client marked (a cache marker, an empty list of calls, text
parts beside a name) is the general rules' always (:func:`marked_dialect`). A participant's
``name`` alone is a plain turn's (its report written by the pass: :mod:`.openai_chat_assistant_turns`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

    from chatcodec._losses import LossKind
    from chatcodec.contract import Steps

Found = list[tuple["Steps", str, str, "LossKind"]]
"""Losses below a turn's place (``LossRecorder.below``)."""


def parts_alone(found: Found, parts: Found | None) -> bool:
    """Whether the general rules reported of a turn (``found``) what its parts report (``parts``)
    and nothing before them: the one case a proof keeps (a report of the turn's own might not be a
    later turn's)."""
    return parts is not None and found == parts


def marked_dialect(message: Mapping[str, Any]) -> bool:
    """Of an assistant turn the walk found general, whether it is a client's marked dialect: a cache
    marker, an empty list of calls, or text parts (a reasoned turn holds none of them). One look,
    no call: a pass asks it of every general turn."""
    return "cache_control" in message or message.get("tool_calls", 0) == [] or message.get("content").__class__ is list
