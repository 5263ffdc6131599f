"""OpenAI Responses -> OpenAI Chat: a call output of ``input_text`` parts alone (an agent's tool
answering parts, as the SDK lists them) read once a shape (issue 107): the first output of a shape
is read by the reader's ``decode_parts`` and written by the Chat writer's ``result_content``, and
when that gives each part's text as a Chat text part with no loss, later outputs of the shape are
their texts, neither rule asked (``_direct/openai_responses_to_openai_chat_replayed.py``,
``TEXT_OUTPUTS``). Each body is written as the canonical path writes it (output, losses, warnings)
on a first request and on a later one, and the later one is counted to read no output again."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from chatcodec._direct import openai_responses_to_openai_chat_replayed
from direct_outcomes import equal_to_canonical

_IMAGE = {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=", "detail": "auto"}


def _session(*outputs: Any) -> dict[str, Any]:
    """An agent's request: a call answered by each of ``outputs`` in turn."""
    items: list[dict[str, Any]] = [{"role": "user", "content": "Fix the tests."}]
    for step, output in enumerate(outputs):
        call_id = f"call_{step}"
        items.append({"type": "function_call", "call_id": call_id, "name": "shell", "arguments": "{}"})
        items.append({"type": "function_call_output", "call_id": call_id, "output": copy.deepcopy(output)})
    items.append({"role": "user", "content": "Go on."})
    tools = [{"type": "function", "name": "shell", "parameters": {"type": "object", "properties": {}}}]
    return {"model": "gpt-5", "input": items, "tools": tools}


def _text(text: str) -> dict[str, Any]:
    return {"type": "input_text", "text": text}


@pytest.fixture(autouse=True)
def _forgotten() -> None:
    openai_responses_to_openai_chat_replayed.TEXT_OUTPUTS.clear()


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[list[Any]]:
    """The outputs the pass has the reader's ``decode_parts`` read."""
    reads: list[list[Any]] = []
    reading = openai_responses_to_openai_chat_replayed.decode_parts

    def counted(parts: list[Any], *arguments: Any) -> list[dict[str, Any]]:
        reads.append(parts)
        return reading(parts, *arguments)

    monkeypatch.setattr(openai_responses_to_openai_chat_replayed, "decode_parts", counted)
    return reads


def test_outputs_of_text_parts_are_read_once_a_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    body = _session([_text("ok")], [_text("two")], [_text("a"), _text("b")], [_text("three")], "plain")
    reads = _reads(monkeypatch)
    # the first request proves each shape: one text part, two
    equal_to_canonical(body, "openai-responses", "openai-chat")
    assert [len(parts) for parts in reads] == [1, 2]
    assert set(openai_responses_to_openai_chat_replayed.TEXT_OUTPUTS.values()) == {True}
    reads.clear()
    equal_to_canonical(body, "openai-responses", "openai-chat")
    assert reads == []


@pytest.mark.parametrize(
    "outputs",
    [
        ([_text("")], [_text("")], [_text("x"), _text("")]),  # empty texts: a shape of their own
        ([_text("shot"), _IMAGE], [_text("shot"), _IMAGE]),  # media moved out: read each time
        ([{**_text("x"), "annotations": []}], [_text("y")]),  # a part of other keys: read each time
    ],
)
def test_other_outputs_are_written_as_the_canonical_path_writes_them(outputs: tuple[Any, ...]) -> None:
    body = _session(*outputs)
    for _ in range(2):
        equal_to_canonical(body, "openai-responses", "openai-chat")
