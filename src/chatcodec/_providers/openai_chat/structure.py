"""What strict mode's structural rules read of an OpenAI Chat Completions request
(:class:`~chatcodec._providers.contract.structure.Structure`): its ``messages``, its token limits,
its tool calls (``tool_calls``) and results (``role: "tool"``), and OpenAI's 400 texts
(https://platform.openai.com/docs/guides/error-codes)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from chatcodec.codec_kit import as_dict, as_list, role_at
from chatcodec.contract import Location, Structure, ToolStep, Turn


def tool_steps(message: Mapping[str, Any], turn: int, where: Location) -> Iterator[ToolStep]:
    """A ``role: "tool"`` message's result, and an assistant message's ``tool_calls``."""
    result_id = message.get("tool_call_id")
    if message.get("role") == "tool" and isinstance(result_id, str):
        yield ToolStep("result", result_id, turn, (*where, "tool_call_id"))
    for index, call in enumerate(as_list(message.get("tool_calls")) or ()):
        fields = as_dict(call)
        call_id = None if fields is None else fields.get("id")
        if isinstance(call_id, str):
            yield ToolStep("call", call_id, turn, (*where, "tool_calls", index, "id"))


def turn(message: Mapping[str, Any], where: Location) -> Turn | None:
    """A message as a turn: ``developer`` is a system turn, ``tool`` and ``function`` results."""
    role = message.get("role")
    at = role_at(message, where)
    if role in ("system", "developer"):
        return Turn("system", at)
    if role in ("tool", "function"):
        return Turn("tool", at, results=True)
    if role == "assistant":
        return Turn("assistant", at, calls=bool(as_list(message.get("tool_calls")) or message.get("function_call")))
    return Turn("user", at) if role == "user" else None


STRUCTURE = Structure(
    conversation_key="messages",
    token_limits=(("max_tokens",), ("max_completion_tokens",)),
    tool_steps=tool_steps,
    turn=turn,
    orphan_result=(
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."
    ),
    token_limit="Invalid '{name}': integer below minimum value. Expected a value >= 1, but got {value} instead.",
)
"""OpenAI Chat Completions' conversation, for strict mode."""
