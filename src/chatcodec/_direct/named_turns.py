"""A named assistant turn's report, proved the shape's: what the writer's general rules report of a
turn beyond what its parts report, the participant's ``name`` (multi-agent clients name each agent's
turns), which a pair repeats at each later turn of the shape when it holds no text of the name.

Both OpenAI Chat pairs prove a general turn's shape once (the first turn written by the general rules
and by its parts, compared: :mod:`.openai_chat_to_anthropic_reasoned`, and the Responses pair's
``_general_items``): a named turn's general writing reports the name first, which its parts do not.
A turn a client marked beside its name (a cache marker, an empty list of calls, text parts) is the
general rules' always (:func:`marked_dialect`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

    from chatcodec._losses import LossKind
    from chatcodec.contract import Steps

Found = list[tuple["Steps", str, str, "LossKind"]]
"""Losses below a turn's place (``LossRecorder.below``)."""


def before_parts(found: Found, parts: Found | None, message: Mapping[str, Any]) -> Found | None:
    """What the general rules reported of a turn before what its parts report (``parts``): none,
    or the report of the participant's ``name`` a named turn carries, when it holds no text of the
    name (so it is the shape's, repeated at every turn of it); None when ``found`` is not that
    followed by the parts' own losses."""
    if parts is None or len(found) < len(parts) or found[len(found) - len(parts) :] != parts:
        return None
    before = found[: len(found) - len(parts)]
    if not before:
        return before
    name = message.get("name")
    if type(name) is not str:
        return None
    for steps, what, why, _ in before:
        if name in what or name in why or name in steps:
            return None
    return before


def marked_dialect(message: Mapping[str, Any]) -> bool:
    """Of an assistant turn the walk found general, whether it is a dialect turn beyond a name
    alone: a cache marker, an empty list of calls, or text parts (a reasoned turn holds none of
    them; a named turn of a text or none and calls a pass may write as its parts once its shape is
    proved). One look, no call: a pass asks it of every general turn."""
    return "cache_control" in message or message.get("tool_calls", 0) == [] or message.get("content").__class__ is list
