"""A canonical message compares equal to the dict it reads back as: Verifiers' rollout code
compares messages with plain dicts (``message == {"role": "user", ...}``)."""

from __future__ import annotations

import chatcodec


def _assistant() -> chatcodec.AssistantMessage:
    call = {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
    (message,) = chatcodec.validate_messages([{"role": "assistant", "content": "looking", "tool_calls": [call]}])
    assert isinstance(message, chatcodec.AssistantMessage)
    return message


def test_a_message_equals_its_dump_and_its_dict_view_from_either_side() -> None:
    message = _assistant()
    assert message == message.model_dump()
    assert message.model_dump() == message
    assert message == dict(message)
    assert dict(message) == message


def test_a_message_equals_the_verifiers_dict_it_was_read_from() -> None:
    verifiers = {
        "role": "assistant",
        "content": "looking",
        "tool_calls": [{"id": "call_1", "name": "lookup", "arguments": "{}"}],
    }
    assert _assistant() == verifiers


def test_a_message_equals_a_canonical_dict_that_leaves_a_default_out() -> None:
    (message,) = chatcodec.validate_messages([{"role": "user", "content": "hi"}])
    assert message == {"role": "user", "content": "hi"}
    call = {"type": "tool_use", "id": "call_1", "name": "lookup"}
    assert chatcodec.validate_model(chatcodec.AssistantMessage, {"role": "assistant", "content": [call]}) == {
        "role": "assistant",
        "content": [call],
    }


def test_a_message_differs_from_a_dict_saying_something_else() -> None:
    (message,) = chatcodec.validate_messages([{"role": "user", "content": "hi"}])
    assert message != {"role": "user", "content": "bye"}
    assert message != {"role": "user", "content": "hi", "unknown": 1}
    assert message != {"no": "role"}
    assert message != "hi"
