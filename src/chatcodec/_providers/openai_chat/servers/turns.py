"""Where the current turn starts in a written body: what the servers' replay rules read.

Gemini checks signatures and Kimi needs reasoning only in the *current turn*: the steps
after the last user message (tool results are ``tool`` messages, not user turns).
DeepSeek needs reasoning back on every tool-call step of the conversation, earlier turns
included (:func:`tool_call_steps`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from chatcodec.codec_kit import as_dict, as_list

if TYPE_CHECKING:
    from chatcodec._providers.openai_chat.servers.server import ServerCall


def current_steps(body: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each assistant message holding tool calls after the last user message, with its index."""
    messages = [as_dict(message) or {} for message in as_list(body.get("messages")) or ()]
    start = max((index for index, message in enumerate(messages) if message.get("role") == "user"), default=-1)
    for index in range(start + 1, len(messages)):
        message = messages[index]
        if message.get("role") == "assistant" and as_list(message.get("tool_calls")):
            yield index, message


def tool_call_steps(body: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each assistant message holding tool calls, in every turn, with its index."""
    for index, message in enumerate(as_list(body.get("messages")) or ()):
        fields = as_dict(message) or {}
        if fields.get("role") == "assistant" and as_list(fields.get("tool_calls")):
            yield index, fields


def reasoning_back_in_tool_loop(
    source: str, thinking: Callable[[ServerCall], bool], *, every_turn: bool = False
) -> Callable[[ServerCall], None]:
    """The rule of DeepSeek and Kimi: in thinking mode every assistant step of the current
    turn's tool loop (``every_turn``: of every turn) carries ``reasoning_content``, or the
    server answers 400; a step with none to send (a history from a format that kept none)
    gets an empty one, reported. ``thinking`` says whether the body is in thinking mode."""
    steps = tool_call_steps if every_turn else current_steps

    def edit(call: ServerCall) -> None:
        if not thinking(call) or (as_dict(call.body.get("thinking")) or {}).get("type") == "disabled":
            return
        for index, message in steps(call.body):
            if "reasoning_content" not in message:
                message["reasoning_content"] = ""
                why = (
                    f"sent empty: {call.server.title} refuses a tool-loop step without one in thinking mode ({source})"
                )
                call.report(("messages", index, "reasoning_content"), "reasoning of a tool-loop step", why)

    return edit
