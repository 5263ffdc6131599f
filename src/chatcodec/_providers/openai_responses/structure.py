"""What strict mode's structural rules read of an OpenAI Responses request
(:class:`~chatcodec._providers.contract.structure.Structure`): its ``input`` items,
``max_output_tokens``, its ``function_call`` / ``custom_tool_call`` items and their
outputs, and OpenAI's 400 texts (https://platform.openai.com/docs/guides/error-codes)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from chatcodec.codec_kit import role_at
from chatcodec.contract import Location, Structure, ToolStep, Turn

_CALLS = ("function_call", "custom_tool_call")
_RESULTS = ("function_call_output", "custom_tool_call_output")


def tool_steps(item: Mapping[str, Any], turn: int, where: Location) -> Iterator[ToolStep]:
    """A call item's or an output item's ``call_id``."""
    call_id = item.get("call_id")
    if isinstance(call_id, str) and item.get("type") in _CALLS:
        yield ToolStep("call", call_id, turn, (*where, "call_id"))
    elif isinstance(call_id, str) and item.get("type") in _RESULTS:
        yield ToolStep("result", call_id, turn, (*where, "call_id"))


def turn(item: Mapping[str, Any], where: Location) -> Turn | None:
    """An item as a turn: a message by its role, a call item the assistant's with calls,
    an output item a tool turn; the model's other items (reasoning, built-in tool calls)
    are the assistant's; a reference to a stored item is no turn here."""
    kind, role = item.get("type"), item.get("role")
    at = role_at(item, where)
    if role in ("system", "developer"):
        return Turn("system", at)
    if role == "user":
        return Turn("user", at)
    if kind in _RESULTS:
        return Turn("tool", at, results=True)
    if kind in _CALLS:
        return Turn("assistant", at, calls=True)
    if role == "assistant" or (isinstance(kind, str) and kind not in ("message", "item_reference")):
        return Turn("assistant", at)
    return None


STRUCTURE = Structure(
    conversation_key="input",
    token_limits=(("max_output_tokens",),),
    tool_steps=tool_steps,
    turn=turn,
    orphan_result="No tool call found for function call output with call_id {id}.",
    token_limit="Invalid '{name}': integer below minimum value. Expected a value >= 1, but got {value} instead.",
)
"""OpenAI Responses' conversation, for strict mode."""
