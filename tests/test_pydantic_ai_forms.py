"""The pydantic-ai format's content forms, against pydantic-ai itself (``ModelMessagesTypeAdapter``
loads what chatcodec writes; ``ToolReturnPart.model_response_str`` is what pydantic-ai sends a
model for a tool's return).

A canonical message's content is a string or a list of parts; pydantic-ai has one form for
some of them: a ``SystemPromptPart`` holds one string, a ``ModelResponse`` a list of parts, and
a tool return of strings is sent as JSON text. A form pydantic-ai cannot spell comes back as
the other, so writing it is reported as a ``spelling`` change (texts joined, a ``content``
loss), never silently; the forms pydantic-ai keeps come back as they were.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic_ai.messages import (
    CachePoint,
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    SystemPromptPart,
    TextPart,
    ToolReturnPart,
    UserPromptPart,
)

import chatcodec


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


FORMS: list[Any] = ["", "x", [], [_text("")], [_text("x")], [_text("a"), _text("b")]]


def _history(role: str, content: Any) -> list[dict[str, Any]]:
    """A canonical history with ``content`` in a message of ``role`` (a tool result's content for ``tool``)."""
    call = {"type": "tool_use", "id": "call_1", "name": "lookup", "arguments": "{}"}
    result = {"type": "tool_result", "tool_use_id": "call_1", "name": "lookup", "content": content}
    histories: dict[str, list[dict[str, Any]]] = {
        "system": [{"role": "system", "content": content}, {"role": "user", "content": "hi"}],
        "user": [{"role": "user", "content": content}],
        "assistant": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": content}],
        "tool": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [call]},
            {"role": "tool", "content": [result]},
        ],
    }
    return histories[role]


def _there_and_back(role: str, content: Any) -> tuple[list[ModelMessage], Any, list[tuple[str, str, str]]]:
    """The history written as pydantic-ai (loaded by pydantic-ai), the content read back, and the losses."""
    losses: list[chatcodec.Loss] = []
    request = {"model": "m", "messages": _history(role, content)}
    body = chatcodec.encode_request("pydantic-ai", request, on_loss="ignore", losses=losses)
    loaded = ModelMessagesTypeAdapter.validate_python(body["messages"])
    back = chatcodec.decode_request("pydantic-ai", body).model_dump(mode="json", exclude_none=True)["messages"]
    message = back[{"system": 0, "user": 0, "assistant": 1, "tool": 2}[role]]
    got = message["content"][0]["content"] if role == "tool" else message["content"]
    return loaded, got, [(loss.path, loss.what, loss.kind) for loss in losses]


@pytest.mark.parametrize("role", ["system", "user", "assistant", "tool"])
@pytest.mark.parametrize("content", FORMS, ids=repr)
def test_each_form_comes_back_as_it_was_or_its_change_is_reported(role: str, content: Any) -> None:
    """No form changes silently: a form that comes back otherwise has a loss at its content."""
    _, got, losses = _there_and_back(role, content)
    if got != content:
        assert [kind for _, _, kind in losses] in (["spelling"], ["content"]), (got, losses)
        assert losses[0][0].endswith(".content")
    else:
        assert losses == []


@pytest.mark.parametrize("content", [[], [_text("x")]], ids=repr)
def test_a_system_list_is_the_one_string_pydantic_ai_holds_reported_as_spelling(content: Any) -> None:
    loaded, got, losses = _there_and_back("system", content)
    request = loaded[0]
    assert isinstance(request, ModelRequest)
    assert [part.content for part in request.parts if isinstance(part, SystemPromptPart)] == [got]
    assert got == "".join(part["text"] for part in content)
    assert losses == [("$.messages[0].content", "content list", "spelling")]


def test_an_assistant_string_is_a_model_response_text_part_reported_as_spelling() -> None:
    loaded, got, losses = _there_and_back("assistant", "x")
    response = loaded[1]
    assert isinstance(response, ModelResponse)
    assert response.parts == [TextPart("x")]
    assert got == [_text("x")]
    assert losses == [("$.messages[1].content", "content string", "spelling")]


@pytest.mark.parametrize(
    ("content", "sent", "what", "kind"),
    [
        ([], "", "content list", "spelling"),
        ([_text("x")], "x", "content list", "spelling"),
        ([_text("a"), _text("b")], "ab", "text parts", "content"),
    ],
    ids=repr,
)
def test_a_text_only_tool_result_list_is_sent_as_its_text_not_as_json(
    content: Any, sent: str, what: str, kind: str
) -> None:
    """pydantic-ai sends a return that is a list of strings as its JSON text (``["a","b"]``, or
    ``[]``): the parts are written as the one string the model then sees, and reported."""
    loaded, got, losses = _there_and_back("tool", content)
    request = loaded[2]
    assert isinstance(request, ModelRequest)
    (part,) = request.parts
    assert isinstance(part, ToolReturnPart)
    assert part.model_response_str() == sent
    assert got == sent
    assert losses == [("$.messages[2].content[0].content", what, kind)]


def test_a_cache_marker_in_a_tool_result_is_reported_not_sent_as_json_text() -> None:
    """A ``CachePoint`` is user content: in a tool return pydantic-ai would send it to the model
    as part of the return's JSON text (and chatcodec read it back as that text)."""
    content = [{**_text("x"), "cache_control": {"type": "ephemeral"}}]
    loaded, got, losses = _there_and_back("tool", content)
    request = loaded[2]
    assert isinstance(request, ModelRequest)
    (part,) = request.parts
    assert isinstance(part, ToolReturnPart)
    assert part.model_response_str() == "x"
    assert got == "x"
    assert losses == [
        ("$.messages[2].content[0].content[0].cache_control", "cache_control", "setting"),
        ("$.messages[2].content[0].content", "content list", "spelling"),
    ]


@pytest.mark.parametrize(
    ("content", "losses"),
    [
        ("", [("$.messages[0].cache_control", "message cache_control", "spelling")]),
        ("x", [("$.messages[0].cache_control", "message cache_control", "spelling")]),
        ([_text("x")], [("$.messages[0].cache_control", "message cache_control", "spelling")]),
        ([], []),
        (
            [{**_text("x"), "cache_control": {"type": "ephemeral"}}],
            [("$.messages[0].cache_control", "cache_control", "setting")],
        ),
    ],
    ids=repr,
)
def test_a_user_messages_cache_marker_is_a_cache_point_after_its_items(content: Any, losses: list[Any]) -> None:
    """A ``CachePoint`` after a user prompt's items reads back as its last part's marker: a
    message's own marker written so is reported (as lost when that part has one of its own),
    and with no items it reads back as the message's, as it was (it was an opaque part)."""
    marker = {"type": "ephemeral", "ttl": "1h"}
    found: list[chatcodec.Loss] = []
    request = {"model": "m", "messages": [{"role": "user", "content": content, "cache_control": marker}]}
    body = chatcodec.encode_request("pydantic-ai", request, on_loss="ignore", losses=found)
    (loaded,) = ModelMessagesTypeAdapter.validate_python(body["messages"])
    assert isinstance(loaded, ModelRequest)
    (part,) = loaded.parts
    assert isinstance(part, UserPromptPart)
    assert isinstance(part.content, list)
    assert isinstance(part.content[-1], CachePoint)
    assert [(loss.path, loss.what, loss.kind) for loss in found] == losses
    back = chatcodec.decode_request("pydantic-ai", body).model_dump(mode="json", exclude_none=True)["messages"][0]
    if content == []:
        assert back == {"role": "user", "content": [], "cache_control": marker}
        assert part.content[-1].ttl == "1h"
