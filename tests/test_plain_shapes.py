"""The plain shapes the writers test inline (``_providers/kit/plain_shapes.py``) are the
canonical types' required keys: a new required key changes the count here, not in each
writer."""

from __future__ import annotations

from chatcodec._model.canonical_types import (
    AssistantMessageData,
    SystemMessageData,
    TextPartData,
    ToolMessageData,
    ToolResultPartData,
    ToolUsePartData,
    UserMessageData,
)
from chatcodec._providers.kit.plain_shapes import PLAIN_MESSAGE, PLAIN_TEXT, PLAIN_TOOL_RESULT, PLAIN_TOOL_USE


def test_a_plain_text_part_holds_the_required_keys_of_a_text_part() -> None:
    assert TextPartData.__required_keys__ == {"type", "text"}
    assert len(TextPartData.__required_keys__) == PLAIN_TEXT


def test_a_plain_tool_call_holds_the_required_keys_of_a_tool_use_part() -> None:
    assert ToolUsePartData.__required_keys__ == {"type", "id", "name", "arguments"}
    assert len(ToolUsePartData.__required_keys__) == PLAIN_TOOL_USE


def test_a_plain_tool_result_holds_the_required_keys_of_a_tool_result_part() -> None:
    assert ToolResultPartData.__required_keys__ == {"type", "tool_use_id", "content"}
    assert len(ToolResultPartData.__required_keys__) == PLAIN_TOOL_RESULT


def test_a_plain_message_holds_the_required_keys_of_every_message_role() -> None:
    for message in (SystemMessageData, UserMessageData, AssistantMessageData, ToolMessageData):
        assert message.__required_keys__ == {"role", "content"}
        assert len(message.__required_keys__) == PLAIN_MESSAGE
