"""Static typing checks of the public API, run by mypy and pyright (not by pytest).

``assert_type`` lines must hold; each line marked ``type: ignore[...]`` is misuse that
the checkers must flag: with ``warn_unused_ignores`` (mypy) and
``reportUnnecessaryTypeIgnoreComment`` (pyright), an ignore that is no longer needed is
itself an error, so a regression that makes misuse type-check fails CI.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal, assert_type

import chatcodec
from chatcodec import (
    AnyMessage,
    AssistantMessage,
    ChatRequest,
    ChatResponse,
    FinishReason,
    StreamAccumulator,
    TextPart,
    ThinkingPart,
    ToolUsePart,
    UserMessage,
)

messages = chatcodec.validate_messages([{"role": "user", "content": "hi"}])
assert_type(messages, list[AnyMessage])

first = messages[0]
if isinstance(first, UserMessage):
    assert_type(first.role, Literal["user"])
    assert_type(first.text, str)

assistant = AssistantMessage(content=[TextPart(text="hi"), ToolUsePart(id="1", name="f", arguments="{}")])
assert_type(assistant.tool_calls, list[ToolUsePart])
assert_type(assistant.thinking, list[ThinkingPart])
assert_type(assistant["content"], str | list[chatcodec.AssistantContentPart] | None)  # typed per key
assert_type(assistant.tool_calls[0].parsed_arguments(), Any)  # a JSON value, for tool(**...)

request = chatcodec.decode_request("canonical", {"messages": []})
assert_type(request, ChatRequest)
assert_type(chatcodec.encode_request("canonical", request), dict[str, Any])
assert_type(chatcodec.decode_stream("canonical", []), Iterator[chatcodec.AnyStreamEvent])
assert_type(chatcodec.accumulate_stream("canonical", []), ChatResponse)

accumulator = StreamAccumulator()
assert_type(accumulator.response(), ChatResponse)
reason = FinishReason(unified="stop", raw="end_turn")
assert_type(reason.unified, chatcodec.UnifiedFinishReason)

dumped = chatcodec.dump_messages(messages)
assert_type(dumped, list[chatcodec.MessageData])  # the documented TypedDicts, not dict[str, Any]
assert_type(chatcodec.ContentRule(vision=True).dump(messages), list[chatcodec.MessageData])
first_dumped = dumped[0]
if first_dumped["role"] == "tool":
    assert_type(first_dumped["content"][0]["tool_use_id"], str)

# --- misuse the checkers must reject -------------------------------------------------

UserMessage(content=123)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
FinishReason(unified="finished")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
chatcodec.encode_request("canonical", request, on_loss="shout")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
ToolUsePart(id="1", name="f", arguments={"a": 1})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
dumped[0]["tool_call_id"]  # type: ignore[typeddict-item]  # pyright: ignore[reportGeneralTypeIssues]
assistant.tool_calls[0].arguments.keys()  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
