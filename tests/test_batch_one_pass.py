"""``chatcodec convert`` lines in one pass (issue 25, dataset CLI on the fast path).

:func:`chatcodec.batch.convert_payload` gives a request line (JSON bytes) to the one
pass when the source side declines every body :func:`chatcodec.detect.mismatch` refuses
(``DECLINES_OTHER_FORMATS``). The law: the outcome (output, error text, losses in order)
is the one the general path gives (parse, format check, ``convert_request``), on every
recorded request of every provider read as each one-pass source (so bodies in the wrong
format are among them), on mutated recordings, and with another format's top-level
fields added.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chatcodec import batch, one_pass
from chatcodec.batch import ConvertOptions, Outcome, convert_payload
from chatcodec.detect import mismatch
from chatcodec.registry import get_one_pass
from conformance.mutations import mutated
from conformance.providers import PROVIDER, PROVIDER_NAMES, PROVIDERS

PAIRS = [
    (source, target)
    for source in PROVIDER_NAMES
    for target in PROVIDER_NAMES
    if source != target
    and one_pass.has_one_pass(source, target)
    and getattr(get_one_pass(source), "DECLINES_OTHER_FORMATS", False)
]
PAIR_IDS = [f"{source}->{target}" for source, target in PAIRS]

FOREIGN_FIELDS: list[dict[str, Any]] = [
    {"system": "be brief"},
    {"stop_sequences": ["END"]},
    {"contents": []},
    {"input": "hi"},
    {"provider_options": {}},
    {"type": "message", "role": "assistant"},
    {"choices": [{"finish_reason": {"type": "stop"}}]},
    {"inferenceConfig": {}},
    {"user": "u-1"},
    {"n": 1},
]
"""Top-level fields, most of them another format's markers (the last two allow openai-chat)."""


def _general(payload: object, options: ConvertOptions, monkeypatch: pytest.MonkeyPatch) -> Outcome:
    with monkeypatch.context() as patched:
        patched.setattr(batch, "_in_one_pass", lambda *_: None)
        return convert_payload(payload, options)


def _view(outcome: Outcome) -> tuple[object, ...]:
    return (json.dumps(outcome.converted), outcome.error, [str(loss) for loss in outcome.losses])


def _assert_same(body: dict[str, Any], options: ConvertOptions, monkeypatch: pytest.MonkeyPatch) -> None:
    line = json.dumps(body).encode()
    assert _view(convert_payload(line, options)) == _view(_general(line, options, monkeypatch)), line[:300]


def _options(source: str, target: str) -> ConvertOptions:
    return ConvertOptions(source, target)


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=PAIR_IDS)
def test_a_line_in_one_pass_equals_the_general_path_on_every_recording(
    source: str, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = _options(source, target)
    for provider in PROVIDERS:
        for name in provider.recorded["request"]:
            body = provider.load("request", name)
            _assert_same(body, options, monkeypatch)
            for fields in FOREIGN_FIELDS:
                _assert_same({**body, **fields}, options, monkeypatch)


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=PAIR_IDS)
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_a_line_in_one_pass_equals_the_general_path_on_mutated_recordings(
    source: str, target: str, data: st.DataObject
) -> None:
    provider = PROVIDER[source]
    body = data.draw(mutated(provider.load("request", data.draw(st.sampled_from(provider.recorded["request"])))))
    try:
        line = json.dumps(body).encode()
    except (ValueError, RecursionError):
        return
    options = _options(source, target)
    with pytest.MonkeyPatch.context() as patched:
        general = _view(_general(line, options, patched))
    assert _view(convert_payload(line, options)) == general


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=PAIR_IDS)
def test_a_source_side_that_says_so_declines_what_mismatch_refuses(source: str, target: str) -> None:
    """``DECLINES_OTHER_FORMATS`` checked directly: whatever the side decodes, the format
    check passes; and it does decode the recordings with openai-compatible extra fields."""
    side = get_one_pass(source)
    decoded = 0
    for provider in PROVIDERS:
        for name in provider.recorded["request"]:
            body = provider.load("request", name)
            for candidate in (body, *({**body, **fields} for fields in FOREIGN_FIELDS)):
                if side.decode_request(json.dumps(candidate)) is not None:
                    decoded += 1
                    assert mismatch(source, candidate) is None, candidate
    assert decoded


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=PAIR_IDS)
def test_recorded_lines_take_the_one_pass(source: str, target: str) -> None:
    provider = PROVIDER[source]
    options = _options(source, target)
    taken = [
        name
        for name in provider.recorded["request"]
        if batch._in_one_pass(json.dumps(provider.load("request", name)).encode(), options, [])  # pyright: ignore[reportPrivateUsage]
        is not None
    ]
    assert taken


def test_a_codec_registered_after_a_one_pass_lookup_gives_its_own_side() -> None:
    """The registry looks each name's one-pass side up once; registering a codec under
    the name again (a custom codec replacing a built-in) forgets it, and unregistering
    brings the built-in side back."""
    import chatcodec

    built_in = get_one_pass("openai-chat")
    assert built_in is not None
    assert get_one_pass("openai-chat") is built_in
    chatcodec.register_codec("openai-chat", lambda: chatcodec.get_codec("canonical"))
    try:
        assert get_one_pass("openai-chat") is None  # the canonical codec has no one-pass side
        assert one_pass.convert_request({"model": "m", "messages": []}, "openai-chat", "anthropic") is None
    finally:
        chatcodec.unregister_codec("openai-chat")
    assert get_one_pass("openai-chat") is built_in
