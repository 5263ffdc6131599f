"""Issue 76: a stored history's keys beside ``messages`` and ``model`` were dropped without a
word. A LangGraph state is a dict of channels, ``messages`` one of them: the summarisation
how-to keeps a ``summary`` channel beside it (``class State(MessagesState): summary: str``,
https://langchain-ai.github.io/langgraph/how-tos/memory/add-summary-conversation-history/),
and an app adds its own (``user_id``). The same holds for the object chatcodec reads each
framework's history in (``{"messages": [...]}``). Each such key is written back by its format
and reported by any other.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, messages_to_dict

import chatcodec

_MESSAGES: dict[str, list[dict[str, Any]]] = {
    "langchain": messages_to_dict([HumanMessage("Weather in Paris?"), AIMessage("Sunny.")]),
    "pydantic-ai": [{"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "Weather in Paris?"}]}],
    "ai-sdk-model": [{"role": "user", "content": "Weather in Paris?"}],
    "ai-sdk-ui": [{"id": "m1", "role": "user", "parts": [{"type": "text", "text": "Weather in Paris?"}]}],
    "google-adk": [{"author": "user", "content": {"role": "user", "parts": [{"text": "Weather in Paris?"}]}}],
    "a2a": [{"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": "Weather in Paris?"}]}],
    "ag-ui": [{"id": "m1", "role": "user", "content": "Weather in Paris?"}],
}

_STATE = {"summary": "The user asked about the weather before.", "user_id": "u-42", "_seen": None}
"""Channels beside ``messages``: the how-to's ``summary``, an app's own, one with a leading ``_``."""


@pytest.mark.parametrize("name", sorted(_MESSAGES))
def test_a_history_keeps_its_other_keys_through_its_own_format(name: str) -> None:
    state = {"messages": _MESSAGES[name], "model": "m", **_STATE}
    back = chatcodec.convert_request(state, source=name, target=name, on_loss="error")
    assert back == state


@pytest.mark.parametrize("name", sorted(_MESSAGES))
def test_a_history_reports_its_other_keys_to_another_format(name: str) -> None:
    state = {"messages": _MESSAGES[name], **_STATE}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        state, source=name, target="openai-chat", on_loss="ignore", losses=losses, options={"model": "gpt-5.6"}
    )
    assert not set(_STATE) & set(body)
    assert [loss.what for loss in losses if loss.path == "$.provider_options"] == [
        f"{name} data ['_seen', 'summary', 'user_id']"
    ]
