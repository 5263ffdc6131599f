"""Law: the one-pass path converts exactly as the general path does (issue 25 item 6).

For every pair of providers with a one-pass path (:mod:`chatcodec.one_pass`),
``convert_request`` gives what ``decode_request`` then ``encode_request`` give: the same
body (compared as JSON text, so key order and ``1`` against ``1.0`` count), the same
losses in the same order, or the same error (type and message). Checked on every
recorded request of the source format (as a dict, as JSON text and as JSON bytes), on
mutated recordings (structure and bytes), and on generated requests written in the
source format by its general encoder.

The one pass declines every shape it does not write, and the general path then runs, so
the law holds trivially for those; the last test makes sure it is not only that: every
pair converts some recorded requests in one pass.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec import one_pass
from chatcodec.registry import get_one_pass
from conformance.mutations import mutated
from conformance.one_pass_requests import REQUESTS
from conformance.providers import PROVIDER, PROVIDER_NAMES


def _has_side(provider: str, function: str) -> bool:
    return hasattr(get_one_pass(provider), function)


PAIRS = [
    (source, target)
    for source in PROVIDER_NAMES
    for target in PROVIDER_NAMES
    if source != target and _has_side(source, "decode_request") and _has_side(target, "encode_request")
]
"""The pairs of two one-pass sides. A provider that reads and writes canonical data has no
side (its one reader and writer are its only path, issue 29): ``one_pass`` pairs it too,
but there is no second path of its own to hold equal."""
PAIR_IDS = [f"{source}->{target}" for source, target in PAIRS]

Outcome = tuple[Any, ...]


def _outcome(call: Callable[[list[chatcodec.Loss]], dict[str, Any]]) -> Outcome:
    losses: list[chatcodec.Loss] = []
    try:
        body = call(losses)
    except chatcodec.ChatcodecError as error:
        return ("error", type(error).__name__, str(error))
    return ("body", json.dumps(body), losses)


Options = dict[str, Any] | None


def _converted(payload: Any, source: str, target: str, options: Options = None) -> Outcome:
    return _outcome(
        lambda losses: chatcodec.convert_request(
            payload, source=source, target=target, on_loss="ignore", losses=losses, options=options
        )
    )


def _general(payload: Any, source: str, target: str, options: Options = None) -> Outcome:
    def convert(losses: list[chatcodec.Loss]) -> dict[str, Any]:
        request = chatcodec.decode_request(source, payload)
        return chatcodec.encode_request(target, request, on_loss="ignore", losses=losses, options=options)

    return _outcome(convert)


def _assert_same(payload: Any, source: str, target: str, options: Options = None) -> None:
    assert _converted(payload, source, target, options) == _general(payload, source, target, options)


def _forms(payload: dict[str, Any]) -> list[object]:
    text = json.dumps(payload)
    return [payload, text, text.encode()]


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=PAIR_IDS)
def test_one_pass_equals_the_general_path_on_recorded_requests(source: str, target: str) -> None:
    provider = PROVIDER[source]
    for name in provider.recorded["request"]:
        for payload in _forms(provider.load("request", name)):
            _assert_same(payload, source, target)


MUTATED = settings(max_examples=max(60, settings.default.max_examples), deadline=None)


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=PAIR_IDS)
@MUTATED
@given(data=st.data())
def test_one_pass_equals_the_general_path_on_mutated_requests(source: str, target: str, data: st.DataObject) -> None:
    provider = PROVIDER[source]
    name = data.draw(st.sampled_from(provider.recorded["request"]))
    payload = data.draw(mutated(provider.load("request", name)))
    as_text = data.draw(st.booleans())
    _assert_same(json.dumps(payload) if as_text and _writable(payload) else payload, source, target)


def _writable(value: object) -> bool:
    try:
        json.dumps(value)
    except (ValueError, RecursionError):
        return False
    return True


GENERATED = settings(
    max_examples=max(40, settings.default.max_examples), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=PAIR_IDS)
@GENERATED
@given(request=REQUESTS, data=st.data())
def test_one_pass_equals_the_general_path_on_generated_requests(
    source: str, target: str, request: chatcodec.ChatRequest, data: st.DataObject
) -> None:
    """Generated requests written in the source format, as they are and mutated."""
    try:
        payload = chatcodec.encode_request(source, request, on_loss="ignore")
    except chatcodec.ChatcodecError:
        return  # a request the source format cannot write: no payload to convert
    for form in _forms(payload):
        _assert_same(form, source, target)
    _assert_same(data.draw(mutated(payload, deep=False)), source, target)


def _call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "arguments": arguments}


def _result(call_id: str, content: str) -> dict[str, Any]:
    return {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": content}]}


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


EDGES: dict[str, list[dict[str, Any]]] = {
    "empty text part": [{"role": "user", "content": [_text("a"), _text("")]}],
    "whitespace text part": [{"role": "user", "content": [_text(" \n")]}],
    "whitespace message": [{"role": "user", "content": " "}],
    "empty message": [{"role": "user", "content": []}],
    "prefill ending in whitespace": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b "}],
    "prefill part ending in whitespace": [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": [_text("b\n")]},
    ],
    "user text after results": [
        {"role": "assistant", "content": [_call("c1", "f", "{}")]},
        _result("c1", "ok"),
        {"role": "user", "content": " "},
    ],
    "arguments not an object": [{"role": "assistant", "content": [_call("c1", "f", "[1]")]}, _result("c1", "")],
    "arguments with a repeated key": [{"role": "assistant", "content": [_call("c1", "f", '{"a":1,"a":2}')]}],
    "arguments past a double": [{"role": "assistant", "content": [_call("c1", "f", '{"a":1.00000000000000000001}')]}],
    "blank arguments": [{"role": "assistant", "content": [_call("c1", "f", " ")]}],
    "a tool name to rewrite": [{"role": "assistant", "content": [_call("c1", "a.b", "{}")]}],
    "a blank tool name": [{"role": "assistant", "content": [_call("c1", " ", "{}")]}],
    "an id to rewrite": [{"role": "assistant", "content": [_call("a:b", "f", "{}")]}, _result("a:b", "x")],
    "a system message later": [{"role": "user", "content": "a"}, {"role": "system", "content": "b"}],
    "two system messages": [{"role": "system", "content": "a"}, {"role": "system", "content": [_text(" ")]}],
    "reasoning only": [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": [{"type": "thinking", "text": "t"}]},
    ],
}
"""Canonical conversations at the edges of the rules the one pass writes or declines."""


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=PAIR_IDS)
@pytest.mark.parametrize("edge", list(EDGES))
def test_one_pass_equals_the_general_path_at_the_edges(source: str, target: str, edge: str) -> None:
    request = chatcodec.ChatRequest.model_validate({"messages": EDGES[edge], "max_tokens": 10})
    try:
        payload = chatcodec.encode_request(source, request, on_loss="ignore")
    except chatcodec.ChatcodecError:
        return  # the source format cannot write it
    for form in _forms(payload):
        _assert_same(form, source, target)


OPTIONS: list[dict[str, Any]] = [
    {"api_version": "2023-06-01"},
    {"api_version": "2026-10-21", "skip_rules": ["sampling_removed"]},
    {"api_version": "1999-01-01"},
    {"skip_rules": ["mid_conversation_system", "tools_with_reasoning_effort"]},
    {"model": "m", "max_tokens": 77},
    {"unsigned_thinking": "text"},
    {"reasoning_field": "reasoning"},
    {"anything": 1},
]
"""Encoder options: the rule options, the ``model`` and ``max_tokens`` a request without
them takes, an unknown API version (an error), and options a one pass may not read; each
target's ``rule_models`` are added (a model a family rule applies to)."""


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=PAIR_IDS)
@pytest.mark.parametrize("options", OPTIONS, ids=[json.dumps(options) for options in OPTIONS])
def test_one_pass_equals_the_general_path_with_options(source: str, target: str, options: dict[str, Any]) -> None:
    provider = PROVIDER[source]
    for name in provider.recorded["request"]:
        payload = provider.load("request", name)
        _assert_same(payload, source, target, options)
        without_model = {key: value for key, value in payload.items() if key not in ("model", "max_tokens")}
        _assert_same(without_model, source, target, options)


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=PAIR_IDS)
def test_one_pass_equals_the_general_path_for_the_models_a_rule_applies_to(source: str, target: str) -> None:
    models = PROVIDER[target].rule_models
    for name in PROVIDER[source].recorded["request"]:
        payload = PROVIDER[source].load("request", name)
        for model in models:
            _assert_same(payload, source, target, {"model": model, "max_tokens": 77})
            _assert_same({**payload, "model": model}, source, target)


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=PAIR_IDS)
def test_the_one_pass_takes_some_recorded_requests(source: str, target: str) -> None:
    provider = PROVIDER[source]
    taken = [
        name
        for name in provider.recorded["request"]
        if one_pass.convert_request(provider.load("request", name), source, target) is not None
    ]
    assert taken, f"no recorded {source} request converts in one pass"


@pytest.mark.parametrize("provider", PROVIDER_NAMES)
def test_the_registry_finds_the_one_pass_role_of_each_codec(provider: str) -> None:
    """``get_one_pass`` imports a built-in side without its codec (first use, issue 25):
    it must be the module the codec is given as its ``one_pass`` role."""
    assert get_one_pass(provider) is getattr(chatcodec.get_codec(provider), "one_pass", None)


UPDATES: list[dict[str, Any]] = [{"model": "mapped-model", "stream": True}, {"model": None, "stream": None}]
"""Top-level fields a proxy sets between the two sides (its model mapping, its stream flag)."""


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=PAIR_IDS)
@pytest.mark.parametrize("update", UPDATES, ids=[json.dumps(update) for update in UPDATES])
def test_one_pass_equals_the_general_path_with_fields_updated(source: str, target: str, update: dict[str, Any]) -> None:
    """``one_pass.convert_request(update=...)`` writes what the general path writes for
    ``decode_request(...).model_copy(update=...)``, as the proxy uses them."""
    provider = PROVIDER[source]
    for name in provider.recorded["request"]:
        payload = provider.load("request", name)
        converted = one_pass.convert_request(payload, source, target, update=update)
        one = None if converted is None else json.dumps(converted[0])
        decoded = chatcodec.decode_request(source, payload).model_copy(update=update)
        try:
            general: str | None = json.dumps(chatcodec.encode_request(target, decoded, on_loss="ignore"))
        except chatcodec.ChatcodecError:
            general = None  # refused: the one pass must have declined
        assert one in (None, general)
