"""Issue 76: the LangChain messages and keys the ``langchain`` format once refused or
changed, each against LangChain's own classes (langchain-core 1.7.2).

- a ``ChatMessage`` (``type: "chat"``, any ``role``);
- a message field whose name starts with ``_`` holding ``null``.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from langchain_core.load import dumpd, load
from langchain_core.messages import (
    BaseMessage,
    ChatMessage,
    HumanMessage,
    convert_to_openai_messages,
    messages_from_dict,
    messages_to_dict,
)

import chatcodec


def _round_trip(wire: dict[str, Any]) -> dict[str, Any]:
    back: dict[str, Any] = chatcodec.convert_request(wire, source="langchain", target="langchain", on_loss="raise")
    return back


@pytest.mark.parametrize(("role", "openai_role"), [("assistant", "assistant"), ("user", "user"), ("system", "system")])
def test_a_chat_message_reads_in_its_role(role: str, openai_role: str) -> None:
    """A ``ChatMessage`` is read in the role langchain-core gives it (``convert_to_openai_messages``
    sends its ``role`` as the OpenAI role), where the history was refused whole."""
    history: list[BaseMessage] = [HumanMessage("Hi"), ChatMessage(content="Hello.", role=role)]
    assert convert_to_openai_messages(history)[1]["role"] == openai_role
    wire = {"messages": messages_to_dict(history)}
    chat = chatcodec.convert_request(wire, source="langchain", target="openai-chat", options={"model": "gpt-5.6"})
    assert chat["messages"][1] == {"role": openai_role, "content": "Hello."}


def test_a_chat_message_is_written_back_as_one() -> None:
    history: list[BaseMessage] = [
        ChatMessage(content="Be terse.", role="developer"),
        ChatMessage(content="Hi", role="user"),
        ChatMessage(content="Rate this.", role="critic"),
    ]
    for wire in ({"messages": messages_to_dict(history)}, {"messages": [dumpd(message) for message in history]}):
        back = _round_trip(wire)
        assert back == wire
    assert messages_from_dict(_round_trip({"messages": messages_to_dict(history)})["messages"]) == history
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # LangChainBetaWarning: load is in beta
        dumped = _round_trip({"messages": [dumpd(message) for message in history]})["messages"]
        assert [load(entry) for entry in dumped] == history


def test_a_chat_message_of_another_role_is_a_user_message_reported_elsewhere() -> None:
    """No provider has a ``critic`` role (OpenAI refuses one): the message is read as a user
    message, and another format reports the role it cannot keep."""
    wire = {"messages": messages_to_dict([ChatMessage(content="Rate this.", role="critic")])}
    losses: list[chatcodec.Loss] = []
    chat = chatcodec.convert_request(
        wire, source="langchain", target="openai-chat", on_loss="ignore", losses=losses, options={"model": "gpt-5.6"}
    )
    assert chat["messages"] == [{"role": "user", "content": "Rate this."}]
    assert [loss.path for loss in losses if "critic" in loss.what] == ["$.messages[0].data"]


def test_a_chat_message_without_a_role_is_refused_at_its_place() -> None:
    wire = {"messages": [{"type": "chat", "data": {"content": "hi"}}]}
    with pytest.raises(chatcodec.ValidationError, match=r"\$\.messages\[0\].*role"):
        chatcodec.convert_request(wire, source="langchain", target="canonical")


def test_an_underscored_field_holding_null_comes_back_as_it_was() -> None:
    """``HumanMessage("hi", _x=None)``: ``messages_to_dict`` writes ``"_x": null`` into ``data``;
    it gained an underscore (``__x``) on every round trip."""
    wire = {"messages": messages_to_dict([HumanMessage("hi", _x=None, __y=None)])}
    once = _round_trip(wire)
    assert once == wire
    assert _round_trip(once) == wire
