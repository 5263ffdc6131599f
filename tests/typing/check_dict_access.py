"""Static typing checks of dict-style access, run by mypy --strict and
pyright (``make typecheck``), not by pytest.

Code written against the Verifiers dict API (``message["role"]``,
``message.get("tool_calls")``) gets each key's type per message class, with no ``Any``;
a key no message class has is a type error. Lines marked ``type: ignore[...]`` are misuse
the checkers must flag.
"""

from __future__ import annotations

from typing import Any, Literal, assert_type

from pydantic import JsonValue

import chatcodec
from chatcodec import (
    AssistantContentPart,
    AssistantMessage,
    SystemMessage,
    TextMessage,
    ToolMessage,
    ToolUsePart,
    UserMessage,
)

assistant = AssistantMessage(content=[ToolUsePart(id="1", name="f", arguments="{}")])
assert_type(assistant["role"], Literal["assistant"])
assert_type(assistant["content"], str | list[AssistantContentPart] | None)
assert_type(assistant["tool_calls"], list[ToolUsePart])
assert_type(assistant.get("tool_calls"), list[ToolUsePart] | None)
assert_type(assistant.get("reasoning_content", 0), str | int)
assert_type(assistant.get("reasoning_content"), str | None)
assert_type(assistant.get("name", ""), str)
assert_type(assistant["provider_metadata"], dict[str, dict[str, JsonValue]])

for call in assistant.get("tool_calls") or []:
    assert_type(call["name"], Any)  # parts keep untyped access; their attributes are typed
    assert_type(call.name, str)
    assert_type(call.keyword_arguments(), dict[str, Any])  # for tool(**call.keyword_arguments())


def any_message(message: chatcodec.Message) -> None:
    assert_type(message.get("role"), Literal["system", "developer", "user", "assistant", "tool", "text"] | None)
    # a key another message class has: the default for the classes without it
    assert_type(message.get("tool_calls"), list[ToolUsePart] | None)
    assert_type(message.get("tool_call_id", ""), str)
    assert_type(message.get("reasoning_content", 0), str | int)
    message["contents"]  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]
    message.get("tool_call")  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]
    message["tool_calls"]  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]
    for call in message.get("tool_calls") or []:
        run_tool(**call.parsed_arguments())


def run_tool(**arguments: Any) -> None:
    del arguments


tool = ToolMessage(content=[chatcodec.ToolResultPart(tool_use_id="1", content="ok")])
assert_type(tool["role"], Literal["tool"])
assert_type(tool["tool_call_id"], str)
assert_type(tool.get("tool_call_id"), str | None)
assert_type(SystemMessage(content="s")["role"], Literal["system", "developer"])
assert_type(UserMessage(content="u").get("role"), Literal["user"] | None)
assert_type(TextMessage(content="t")["content"], str)

user = UserMessage(content="hi")
user["content"] = "changed"  # item assignment is allowed (validated at run time)

# --- misuse the checkers must reject -------------------------------------------------

assistant.get("tool_calls")[0]  # type: ignore[index]  # pyright: ignore[reportOptionalSubscript]
assistant["tool_calls"].upper()  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
count: int = tool["tool_call_id"]  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
assistant["anything else"]  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]
assistant.get("tool_call")  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]
