"""The closed front of Anthropic's response reader (``wire.COMMON_RESPONSE``): what it accepts
the wire shapes accept as the same copy (keys in the same order), and an answer reads the same
whether the front or the general path validated it, a value nested too deep refused alike."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec._providers.anthropic import response as response_module
from chatcodec._providers.anthropic import wire
from chatcodec._registry import get_codec
from chatcodec.testing._laws.mutations import mutated
from providers.anthropic.anthropic_support import RESPONSE_FIXTURES, load_json

CODEC = get_codec("anthropic")
COMMON_BLOCKS = {"text", "thinking", "redacted_thinking", "tool_use"}


class _RefusesAll:
    """A front that takes nothing: the general path reads every body."""

    @staticmethod
    def validate(payload: object) -> None:
        return None


@contextmanager
def _general_path_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The reader with its front refusing everything."""
    with monkeypatch.context() as patch:
        patch.setattr(response_module, "COMMON_RESPONSE", _RefusesAll())
        yield


def _is_common(payload: dict[str, Any]) -> bool:
    blocks = payload.get("content") or []
    return (
        all(set(block) <= {"type", "text", "thinking", "signature", "data", "id", "name", "input"} for block in blocks)
        and {block["type"] for block in blocks} <= COMMON_BLOCKS
    )


def _outcome(payload: object) -> object:
    """What the reader gives (or the type and text of what it raises)."""
    try:
        return CODEC.read_response(copy.deepcopy(payload))
    except chatcodec.ChatcodecError as error:
        return (type(error).__name__, str(error))


@pytest.mark.parametrize("name", RESPONSE_FIXTURES)
def test_a_recorded_response_validates_alike_and_the_common_ones_take_the_front(name: str) -> None:
    payload = load_json("response", name)
    closed = wire.COMMON_RESPONSE.validate(copy.deepcopy(payload))
    assert (closed is not None) == _is_common(payload)
    if closed is not None:
        assert repr(closed) == repr(wire.validated(wire.Response, payload, "Anthropic response"))


@pytest.mark.parametrize("name", RESPONSE_FIXTURES)
def test_a_recorded_response_reads_the_same_by_either_path(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    payload = load_json("response", name)
    fronted = _outcome(payload)
    with _general_path_only(monkeypatch):
        assert repr(_outcome(payload)) == repr(fronted)


def test_at_least_one_recording_is_common_and_one_is_not() -> None:
    found = {_is_common(load_json("response", name)) for name in RESPONSE_FIXTURES}
    assert found == {True, False}


def test_nulls_and_extras_are_taken_where_the_wire_shapes_take_them() -> None:
    payload = {
        "model": "claude-sonnet-4-5",  # keys out of the shape's order: the copy holds its order
        "id": None,
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": None,
        "stop_sequence": None,
        "stop_details": {"kind": "x"},
        "usage": {"service_tier": "standard", "input_tokens": 3, "output_tokens_details": None, "output_tokens": None},
    }
    closed = wire.COMMON_RESPONSE.validate(copy.deepcopy(payload))
    assert closed is not None
    assert repr(closed) == repr(wire.validated(wire.Response, payload, "Anthropic response"))


@pytest.mark.parametrize(
    "payload",
    [
        {"content": [], "usage": {"input_tokens": -1}},  # the wire shapes refuse a negative count
        {"content": [{"type": "text", "text": "a", "citations": None}]},  # a block's extra: the general path's
        {"content": [{"type": "server_tool_use", "id": "s", "name": "web_search", "input": {}}]},
        {"content": [], "id": 1},
    ],
)
def test_the_rare_shapes_are_left_to_the_wire_shapes(payload: dict[str, Any]) -> None:
    assert wire.COMMON_RESPONSE.validate(copy.deepcopy(payload)) is None


def _nested(depth: int) -> object:
    value: object = "leaf"
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("where", ["top", "usage"])
@pytest.mark.parametrize("depth", [200, 247, 248, 249, 252])
def test_a_kept_value_nested_too_deep_is_refused_as_by_the_general_path(
    where: str, depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    payload: dict[str, Any] = {"content": [{"type": "text", "text": "hi"}], "usage": {"input_tokens": 1}}
    if where == "top":
        payload["container"] = _nested(depth)
    else:
        payload["usage"]["server_tool_use"] = _nested(depth)
    fronted = _outcome(payload)
    with _general_path_only(monkeypatch):
        general = _outcome(payload)
    assert repr(fronted) == repr(general)
    if isinstance(fronted, dict):  # what the reader gives, the model takes
        assert chatcodec.ChatResponse.model_validate(fronted).model_dump() == fronted


MUTATED = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _with_float_input() -> dict[str, Any]:
    """The draw that found it: a tool call's input holding a float, which the front hands
    on wrapped (``closed_schema.WithFloats``, so its text is written as ``json.dumps``
    spells a float) where the wire shapes give the plain value: alike only if the wrapper
    shows as its value."""
    payload = load_json("response", "parallel_tool_use.json")
    payload["content"][1]["input"] = {"name": 1e308}
    return payload


@MUTATED
@given(payload=st.sampled_from(RESPONSE_FIXTURES).map(lambda name: load_json("response", name)).flatmap(mutated))
@example(payload=_with_float_input())
def test_a_mutated_response_reads_the_same_by_either_path(payload: object) -> None:
    if not isinstance(payload, dict):  # the reader takes a body once it is a JSON object
        return
    closed = wire.COMMON_RESPONSE.validate(copy.deepcopy(payload))
    if closed is not None:
        assert repr(closed) == repr(wire.validated(wire.Response, payload, "Anthropic response"))
    fronted = _outcome(payload)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(response_module, "COMMON_RESPONSE", _RefusesAll())
        assert repr(_outcome(payload)) == repr(fronted)
