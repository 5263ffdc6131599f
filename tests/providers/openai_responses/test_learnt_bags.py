"""The Responses reader learns where it writes each bag whether one holds a JSON object or
array (``SealedCalls.deep``), instead of walking every message and part again with
``kit.keeps_a_container``. What it learns must be what that walk finds: a body whose front
took it is "closed" (canonical need not be written again to be sure a model holds it)
exactly when no bag keeps a container. Drawn here: every item and part kind the reader
gives a bag (message, function and custom calls and their outputs, reasoning with summary
and content entries, input and output text, images, files, annotations, a sealed call and
sealed thinking of another provider), each with or without a field the reader keeps, its
value a scalar, a list of scalars, a list holding a container, or an object, at one place
at a time, a tool result's content parts included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chatcodec._providers.contract.context import DecodeContext
from chatcodec._providers.kit.bags import keeps_a_container
from chatcodec._providers.openai_responses import request, wire
from chatcodec._providers.openai_responses.carried_reasoning import seal

_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "openai-responses" / "request"
_KEPT: tuple[object, ...] = (1, "x", [1, 2], [[1]], [{"a": 1}], {}, {"a": [1]})
"""A field the reader keeps in a bag: a value of each kind, containers and not."""
_PLACES = 21
"""The places of :func:`_body` that keep a field."""


def _with(fields: dict[str, Any], kept: object, name: str = "x_kept") -> dict[str, Any]:
    return fields if kept is None else {**fields, name: kept}


class _Draws:
    """The kept value of each place in order: ``value`` at place ``chosen``, none elsewhere
    (so that a place the reader forgot to learn is not hidden by another)."""

    def __init__(self, chosen: int, value: object) -> None:
        self._chosen, self._value = chosen, value
        self._place = 0

    def kept(self) -> object:
        self._place += 1
        return self._value if self._place - 1 == self._chosen else None

    @property
    def places(self) -> int:
        return self._place


def _parts(draws: _Draws, kind: str) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = [_with({"type": kind, "text": "hi"}, draws.kept())]
    if kind == "output_text":
        annotation = draws.kept()
        annotations = [] if annotation is None else [annotation]
        parts.append({"type": "output_text", "text": "cited", "annotations": annotations})
    if kind == "input_text":
        parts.append(_with({"type": "input_image", "image_url": "https://example.com/a.png"}, draws.kept()))
        parts.append(_with({"type": "input_file", "file_id": "file_1"}, draws.kept()))
    return parts


def _body(draws: _Draws, *, with_content: bool) -> dict[str, Any]:
    items: list[dict[str, Any]] = [
        _with({"type": "message", "role": "user", "content": _parts(draws, "input_text")}, draws.kept()),
        _with({"role": "user", "content": "plain"}, draws.kept()),
    ]
    summary = [_with({"type": "summary_text", "text": "thought"}, draws.kept())]
    content = [_with({"type": "reasoning_text", "text": "step"}, draws.kept())]
    reasoning = _with({"type": "reasoning", "id": "rs_1", "summary": summary}, draws.kept())
    items.append({**reasoning, "content": content} if with_content else reasoning)
    message = {"type": "message", "role": "assistant", "content": _parts(draws, "output_text")}
    items.append(_with(message, draws.kept()))
    # another provider's proof on the call, and its sealed thinking
    bags = {"gemini": _with({"thoughtSignature": "c2ln"}, draws.kept())}
    items.append({"type": "reasoning", "summary": [], "encrypted_content": seal(_sealed_call(bags))})
    thinking = {"type": "thinking", "text": "t", "signature": "s", "provider": "anthropic"}
    anthropic = _with({"note": "n"}, draws.kept())
    sealed_thinking = seal({**thinking, "provider_metadata": {"anthropic": anthropic}})
    items.append({"type": "reasoning", "summary": [], "encrypted_content": sealed_thinking})
    call = {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}"}
    items.append(_with(call, draws.kept()))
    items.append(_with({"type": "function_call_output", "call_id": "call_1", "output": "ok"}, draws.kept()))
    custom = {"type": "custom_tool_call", "call_id": "call_2", "name": "g", "input": "raw"}
    items.append(_with(custom, draws.kept()))
    output = {"type": "custom_tool_call_output", "call_id": "call_2", "output": _parts(draws, "input_text")}
    items.append(_with(output, draws.kept()))
    return _with({"model": "gpt-5", "input": items}, draws.kept())


def _sealed_call(bags: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": "call_1", "provider_metadata": bags}


def _closed_as_walked(body: dict[str, Any]) -> None:
    context = DecodeContext("openai-responses")
    canonical = request.decode_request(json.loads(json.dumps(body)), context)
    taken = wire.REQUEST.front(json.loads(json.dumps(body))) is not None
    assert context.closed == (taken and not keeps_a_container(canonical)), body


@pytest.mark.parametrize("with_content", [False, True])
@pytest.mark.parametrize("value", _KEPT, ids=json.dumps)
def test_the_reader_learns_what_the_walk_finds(value: object, with_content: bool) -> None:
    for chosen in range(_PLACES + 1):  # the last: no place keeps anything
        draws = _Draws(chosen, value)
        _closed_as_walked(_body(draws, with_content=with_content))
        assert draws.places == _PLACES


def test_the_recorded_requests_are_learnt_as_walked() -> None:
    bodies = sorted(_FIXTURES.glob("*.json"))
    assert bodies
    for path in bodies:
        _closed_as_walked(json.loads(path.read_text()))
