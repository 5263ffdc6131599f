"""The ``langchain`` format keeps each content form (langchain-core is the oracle).

A LangChain message's ``content`` is a string or a list of content blocks in every role, so
every canonical form (a string, an empty list, a list of one or several text parts) is written
as that form, loads in LangChain (``messages_from_dict``) with it, and reads back as it was,
with no loss: unlike pydantic-ai (tests/test_pydantic_ai_forms.py), nothing needs reporting.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage, messages_from_dict

import chatcodec


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


FORMS: list[Any] = ["", "x", [], [_text("")], [_text("x")], [_text("a"), _text("b")]]

CALL = {"type": "tool_use", "id": "call_1", "name": "lookup", "arguments": "{}"}

HISTORIES: dict[str, tuple[type, int]] = {
    "system": (SystemMessage, 0),
    "user": (HumanMessage, 0),
    "assistant": (AIMessage, 1),
    "tool": (ToolMessage, 2),
}
"""Each role's LangChain class and the index of the message holding the form."""


def _history(role: str, content: Any) -> list[dict[str, Any]]:
    if role == "tool":
        result = {"type": "tool_result", "tool_use_id": "call_1", "name": "lookup", "content": content}
        return [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [CALL]},
            {"role": "tool", "content": [result]},
        ]
    if role == "assistant":
        return [{"role": "user", "content": "hi"}, {"role": "assistant", "content": content}]
    return [{"role": role, "content": content}]


@pytest.mark.parametrize("role", list(HISTORIES))
@pytest.mark.parametrize("content", FORMS, ids=repr)
def test_each_form_is_written_as_itself_and_comes_back_without_a_loss(role: str, content: Any) -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(
        "langchain", {"model": "m", "messages": _history(role, content)}, on_loss="ignore", losses=losses
    )
    kind, index = HISTORIES[role]
    loaded = messages_from_dict(body["messages"])[index]
    assert isinstance(loaded, kind)
    assert loaded.content == (content if isinstance(content, str) else [dict(part) for part in content])
    back = chatcodec.decode_request("langchain", body).model_dump(mode="json", exclude_none=True)["messages"][index]
    got = back["content"][0]["content"] if role == "tool" else back["content"]
    assert got == content
    assert losses == []


def test_a_tool_results_cache_marker_is_reported() -> None:
    """A ``ToolMessage`` keeps no cache marker: a result's is reported, as a message's and a
    block's are (found by the single-hop loss law: it was dropped silently)."""
    result = {"type": "tool_result", "tool_use_id": "call_1", "content": "x", "cache_control": {"type": "ephemeral"}}
    losses: list[chatcodec.Loss] = []
    request = {"model": "m", "messages": [{"role": "tool", "content": [result]}]}
    body = chatcodec.encode_request("langchain", request, on_loss="ignore", losses=losses)
    (loaded,) = messages_from_dict(body["messages"])
    assert isinstance(loaded, ToolMessage)
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[0].content[0].cache_control", "cache_control")]
