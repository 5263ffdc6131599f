"""What strict mode's structural rules read of an Anthropic Messages request
(:class:`~chatcodec._providers.contract.structure.Structure`): its ``messages``, ``max_tokens``,
its ``tool_use`` and ``tool_result`` blocks, and Anthropic's 400 texts (the orphan one
recorded in ``tests/fixtures/anthropic/response/error_400_orphan_tool_result.json``).

As a target, Anthropic has no turn-order rule here. It once refused a conversation whose
first message was not the user's ('messages: first message must use the "user" role', as
many clients still quote it), but the API now takes one: a recorded live request starting
with an assistant turn was answered
(``tests/fixtures/anthropic/request/history_starts_with_assistant.json``, see its
PROVENANCE). Consecutive turns of one role are merged by the encoder (and by the API), so
alternation needs no rule either.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from chatcodec.codec_kit import as_dict, as_list, role_at
from chatcodec.contract import Location, Structure, ToolStep, Turn


def tool_steps(message: Mapping[str, Any], turn: int, where: Location) -> Iterator[ToolStep]:
    """The ``tool_use`` and ``tool_result`` blocks of a message."""
    for index, block in enumerate(as_list(message.get("content")) or ()):
        fields = as_dict(block) or {}
        kind, result_id, call_id = fields.get("type"), fields.get("tool_use_id"), fields.get("id")
        if kind == "tool_result" and isinstance(result_id, str):
            yield ToolStep("result", result_id, turn, (*where, "content", index, "tool_use_id"))
        elif kind == "tool_use" and isinstance(call_id, str):
            yield ToolStep("call", call_id, turn, (*where, "content", index, "id"))


def turn(message: Mapping[str, Any], where: Location) -> Turn | None:
    """A message as a turn: a user message of ``tool_result`` blocks alone is a tool turn."""
    role = message.get("role")
    kinds = [(as_dict(block) or {}).get("type") for block in as_list(message.get("content")) or ()]
    at = role_at(message, where)
    if role == "assistant":
        return Turn("assistant", at, calls="tool_use" in kinds)
    if role != "user":
        return None
    results = "tool_result" in kinds
    return Turn("tool" if results and all(kind == "tool_result" for kind in kinds) else "user", at, results=results)


STRUCTURE = Structure(
    conversation_key="messages",
    token_limits=(("max_tokens",),),
    tool_steps=tool_steps,
    turn=turn,
    orphan_result=(
        "unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each `tool_result` block must have a"
        " corresponding `tool_use` block in the previous message."
    ),
    empty_conversation="messages: at least one message is required",
    duplicate_result=("each tool_use must have a single result. Found multiple `tool_result` blocks with id: {id}"),
    result_in_next_turn=True,
    stream_events_outside_sdk=frozenset(
        {"ping", "error"}
    ),  # https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
)
"""Anthropic Messages' conversation, for strict mode."""
