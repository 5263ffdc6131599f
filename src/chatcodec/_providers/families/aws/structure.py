"""What strict mode's structural rules read of a Bedrock Converse request
(:class:`~chatcodec._providers.contract.structure.Structure`): its ``messages``,
``inferenceConfig.maxTokens``, its ``toolUse`` and ``toolResult`` blocks, and Bedrock's
``ValidationException`` texts. As a target, Bedrock takes a conversation that starts with
the user's turn."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal

from chatcodec._narrow import as_dict, as_list
from chatcodec._providers.contract.structure import Location, Structure, ToolStep, Turn, role_at, user_first

_KEYS: tuple[tuple[str, Literal["call", "result"]], ...] = (("toolUse", "call"), ("toolResult", "result"))


def tool_steps(message: Mapping[str, Any], turn: int, where: Location) -> Iterator[ToolStep]:
    """The ``toolUse`` and ``toolResult`` blocks of a message."""
    for index, block in enumerate(as_list(message.get("content")) or ()):
        fields = as_dict(block) or {}
        for key, kind in _KEYS:
            inner = as_dict(fields.get(key)) or {}
            tool_id = inner.get("toolUseId")
            if isinstance(tool_id, str):
                yield ToolStep(kind, tool_id, turn, (*where, "content", index, key, "toolUseId"))


def turn(message: Mapping[str, Any], where: Location) -> Turn | None:
    """A message as a turn: a user message of ``toolResult`` blocks alone is a tool turn."""
    keys = [key for block in as_list(message.get("content")) or () for key in (as_dict(block) or {})]
    role = message.get("role")
    at = role_at(message, where)
    if role == "assistant":
        return Turn("assistant", at, calls="toolUse" in keys)
    if role != "user":
        return None
    results = "toolResult" in keys
    return Turn("tool" if results and set(keys) == {"toolResult"} else "user", at, results=results)


STRUCTURE = Structure(
    conversation_key="messages",
    token_limits=(("inferenceConfig", "maxTokens"),),
    tool_steps=tool_steps,
    turn=turn,
    orphan_result=(
        "The number of toolResult blocks exceeds the number of toolUse blocks of previous turn (toolUseId {id})."
    ),
    turn_order=(
        user_first(
            "A conversation must start with a user message."
            " Try again with a conversation that starts with a user message."
        ),
    ),
)
"""Bedrock Converse's conversation, for strict mode."""
