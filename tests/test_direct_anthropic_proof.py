"""The Anthropic -> OpenAI Chat direct path's own copy of the messages (``proved``) against the
closed front's (``COMMON_MESSAGES``): whenever the walk makes a copy it is the front's, value
for value and key for key (``repr`` shows both, and a float-holding input's marker), and it
makes none of a body the front refuses. The acceptance sessions are copied by the walk (a walk
that always hands back would pass the rest and save nothing)."""

from __future__ import annotations

import copy
import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from chatcodec._direct.anthropic_to_openai_chat import proved
from chatcodec._providers.anthropic.wire import COMMON_MESSAGES

SESSIONS = Path(__file__).resolve().parent / "fixtures" / "perf-sessions"


class _Text(str):
    """A text of a subclass: the front's strict strings may take it, the walk does not."""


def _session() -> list[dict[str, Any]]:
    with gzip.open(SESSIONS / "an-oc-real-10.json.gz") as text:
        messages: list[dict[str, Any]] = json.loads(text.read())["messages"]
    return messages


def _front(messages: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    validated = COMMON_MESSAGES.validate({"messages": messages})
    return None if validated is None else validated["messages"]


def _agrees(messages: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The walk's copy, held to the front's."""
    walked = proved(messages)
    front = _front(messages)
    if front is None:
        assert walked is None
    elif walked is not None:
        assert repr(walked) == repr(front)
    return walked


def test_the_acceptance_session_is_copied_as_the_front_copies_it() -> None:
    messages = _session()
    walked = _agrees(messages)
    assert walked is not None
    assert walked[1] is not messages[1]
    assert all(block is not given for block, given in zip(walked[1]["content"], messages[1]["content"], strict=True))


def _blocks(messages: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for message in messages:
        content: Any = message["content"]
        if isinstance(content, list):
            found += [block for block in cast("list[dict[str, Any]]", content) if block["type"] == kind]
    return found


_MUTATIONS: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    "call id of a subclass": ("tool_use", lambda block: block.update(id=_Text(block["id"]))),
    "call of an extra key": ("tool_use", lambda block: block.update(extra=1)),
    "call with a cache marker": ("tool_use", lambda block: block.update(cache_control={"type": "ephemeral"})),
    "call without input": ("tool_use", lambda block: block.pop("input")),
    "input not an object": ("tool_use", lambda block: block.update(input=[1])),
    "input holding NaN": ("tool_use", lambda block: block.update(input={"x": float("nan")})),
    "input holding a tuple": ("tool_use", lambda block: block.update(input={"x": (1, 2)})),
    "input holding a float": ("tool_use", lambda block: block.update(input={"x": [1e16, {"y": 0.5}]})),
    "input with an int key": ("tool_use", lambda block: block.update(input={1: "x"})),
    "call name not text": ("tool_use", lambda block: block.update(name=None)),
    "result flag an int": ("tool_result", lambda block: block.update(is_error=1)),
    "result flag true": ("tool_result", lambda block: block.update(is_error=True)),
    "result of no content": ("tool_result", lambda block: block.pop("content")),
    "result of no parts": ("tool_result", lambda block: block.update(content=[])),
    "result of a number": ("tool_result", lambda block: block.update(content=3)),
    "result with a cache marker": ("tool_result", lambda block: block.update(cache_control={"type": "ephemeral"})),
    "result of a document": (
        "tool_result",
        lambda block: block.update(
            content=[{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "d"}}]
        ),
    ),
    "result of an image and text": (
        "tool_result",
        lambda block: block.update(
            content=[
                {"text": "keys in another order", "type": "text"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}},
            ]
        ),
    ),
    "result id a subclass": ("tool_result", lambda block: block.update(tool_use_id=_Text("toolu_x"))),
    "thinking without signature": ("thinking", lambda block: block.pop("signature", None)),
    "signature not text": ("thinking", lambda block: block.update(signature=1)),
    "text of another key order": ("text", lambda block: block.update({"type": block.pop("type")})),
    "text not text": ("text", lambda block: block.update(text=None)),
    "text with a cache marker": ("text", lambda block: block.update(cache_control={"type": "ephemeral"})),
    "text with a marker of a ttl": (
        "text",
        lambda block: block.update(cache_control={"type": "ephemeral", "ttl": "1h"}),
    ),
    "text with a null marker": ("text", lambda block: block.update(cache_control=None)),
    "text with a marker of another type": ("text", lambda block: block.update(cache_control={"type": "persistent"})),
    "text with a marker of a subclass": (
        "text",
        lambda block: block.update(cache_control={"type": _Text("ephemeral")}),
    ),
    "text with citations": ("text", lambda block: block.update(citations=[])),
}


@pytest.mark.parametrize("name", sorted(_MUTATIONS))
def test_a_changed_block_is_copied_as_the_front_copies_it_or_left_to_the_front(name: str) -> None:
    kind, change = _MUTATIONS[name]
    messages = copy.deepcopy(_session())
    for block in _blocks(messages, kind):
        change(block)
    _agrees(messages)


@pytest.mark.parametrize(
    "source",
    [
        {"type": "base64", "media_type": "", "data": "AAAA"},
        {"type": "base64", "media_type": "image/p\ud800ng", "data": "AAAA"},
        {"type": "base64", "media_type": "image/pñg", "data": "AAAA"},
        {"type": "base64", "media_type": "image/png", "data": "not base64 at all"},
        {"type": "url", "url": "https://example.com/a.png"},
        {"type": "base64", "media_type": "image/png"},
        {"media_type": "image/png", "type": "base64", "data": "AAAA"},
    ],
)
def test_an_image_source_is_copied_as_the_front_copies_it_or_left_to_the_front(source: dict[str, Any]) -> None:
    messages = [{"role": "user", "content": [{"type": "image", "source": source}, {"type": "text", "text": "see"}]}]
    _agrees(messages)


def test_a_turn_of_other_roles_or_content_is_left_to_the_front() -> None:
    assert _agrees([{"role": "user", "content": None}]) is None
    assert _agrees([{"role": "user", "content": ["text"]}]) is None
    assert _agrees([{"role": "assistant", "content": [{"type": "image", "source": {}}]}]) is None
    assert _agrees([{"role": "user", "content": [{"type": "thinking", "thinking": "x"}]}]) is None
    assert _agrees([{"role": _Text("user"), "content": "a role of a subclass"}]) is None
