"""The bench's feature shapes (``bench/feature_shapes.py``, issue 107): each feature of the coding
agent's wire turns on alone what it names, the agent shape holds every feature the issue names, and
every session says what the bench's check expects of it (so a count is never of a failed conversion).
The anchor libraries are not needed (nor imported) here."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from bench_modules import bench_module as _bench


def _marks(body: dict[str, Any]) -> dict[str, object]:
    """What an OpenAI Chat session holds of each feature."""
    messages: list[dict[str, Any]] = body["messages"]
    assistants = [message for message in messages if message["role"] == "assistant"]
    results = [message for message in messages if message["role"] == "tool"]
    texts = [message["content"] for message in results if isinstance(message["content"], str)]
    return {
        "signed": sum("thinking_blocks" in message for message in assistants),
        "system marker": isinstance(messages[0]["content"], list),
        "images": sum(isinstance(message["content"], list) for message in results),
        "parallel": max(len(message["tool_calls"]) for message in assistants),
        "longest": max(map(len, texts)),
        "errors": sum(text.startswith("Error:") for text in texts),
        "nulls": sum("refusal" in message for message in assistants),
        "steps": len(assistants),
    }


def test_each_feature_alone_turns_on_what_it_names() -> None:
    shapes = _bench("feature_shapes")
    plain = _marks(shapes.openai_session(10, ()))
    assert plain == {
        "signed": 0,
        "system marker": False,
        "images": 0,
        "parallel": 1,
        "longest": plain["longest"],
        "errors": 0,
        "nulls": 0,
        "steps": 10,
    }
    assert isinstance(plain["longest"], int)
    assert plain["longest"] < 1_000
    changed = {
        shapes.SIGNED: ("signed", 10),
        shapes.SYSTEM_MARKER: ("system marker", True),
        shapes.TOOL_IMAGE: ("images", 1),
        shapes.ERRORS: ("errors", 2),
        shapes.NULLS: ("nulls", 10),
    }
    for feature, (mark, value) in changed.items():
        marks = _marks(shapes.openai_session(10, (feature,)))
        assert marks[mark] == value, feature
        assert {key: held for key, held in marks.items() if key not in (mark, "longest")} == {
            key: held for key, held in plain.items() if key not in (mark, "longest")
        }, feature
    assert _marks(shapes.openai_session(10, (shapes.PARALLEL,)))["parallel"] in (2, 3)
    longest = _marks(shapes.openai_session(10, (shapes.LONG,)))["longest"]
    assert isinstance(longest, int)
    assert 1_000 <= longest <= 8_200


def test_the_agent_shape_is_the_issues_session() -> None:
    """40 steps, signed thinking on every turn (its ``reasoning_content`` their copy), one to three
    calls a turn, results of 1-8 KB, two errors, one image in a tool message, a marked system part;
    as Anthropic: the image inside a ``tool_result``, the two errors ``is_error``."""
    shapes = _bench("feature_shapes")
    body = shapes.openai_session(40)
    marks = _marks(body)
    assert marks["steps"] == marks["signed"] == 40
    assert (marks["images"], marks["errors"], marks["system marker"], marks["parallel"]) == (1, 2, True, 3)
    for message in body["messages"]:
        if "thinking_blocks" in message:
            assert message["reasoning_content"] == "".join(block["thinking"] for block in message["thinking_blocks"])
            assert all(isinstance(block["signature"], str) for block in message["thinking_blocks"])
    assert body["messages"][0]["content"][0]["cache_control"] == {"type": "ephemeral"}
    claude: dict[str, Any] = shapes.body("anthropic", "openai-chat", 40, shapes.AGENT)
    blocks: list[dict[str, Any]] = [
        block for message in claude["messages"] if isinstance(message["content"], list) for block in message["content"]
    ]
    results = [block for block in blocks if block["type"] == "tool_result"]
    assert sum(block.get("is_error") is True for block in results) == 2
    assert sum(isinstance(block["content"], list) for block in results) == 1
    assert sum(block["type"] == "thinking" and bool(block.get("signature")) for block in blocks) >= 40


@pytest.mark.parametrize(
    ("source", "target"),
    [("openai-chat", "anthropic"), ("openai-chat", "openai-responses"), ("anthropic", "openai-chat")],
)
def test_every_feature_session_passes_the_bench_check(source: str, target: str) -> None:
    """Each shape converts to what the bench's check (``agent_sources.viewer``) expects of it."""
    shapes = _bench("feature_shapes")
    sources = _bench("agent_sources")
    view = sources.viewer(source, target)
    for _name, features in shapes.combinations():
        body = shapes.body(source, target, 3, features)
        written = chatcodec.convert_request(body, source=source, target=target, on_loss="ignore")
        assert view(written) == sources.expected(body, source, target), features
