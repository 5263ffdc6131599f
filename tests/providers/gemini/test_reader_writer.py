"""Gemini's one reader and one writer, over canonical data.

The reader checks a body with the closed schema of the common shapes first (one pass in
Rust) and with the full wire shapes otherwise, then reads it with one set of functions:
its output is what the model dumps, whichever check took the body. The writer takes
canonical data with defaults written or left out alike. The conformance laws hold both on
recordings, mutations and generated requests; these name the Gemini rules.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._payloads import read_json_text
from chatcodec._providers.gemini import wire
from chatcodec._providers.gemini.results import parsed_object
from chatcodec.testing._laws.mutations import mutated
from conformance.generated_requests import REQUESTS
from conformance.providers import PROVIDER

GEMINI = PROVIDER["gemini"]
CODEC = chatcodec.get_codec("gemini")
SETTINGS = settings(
    max_examples=max(60, settings.default.max_examples), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _write(request: dict[str, Any], options: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[str]]:
    recorder = LossRecorder()
    body = CODEC.write_request(request, recorder, options=options)
    return body, [f"{loss.path} {loss.what}" for loss in recorder.losses]


def _call(call_id: str, name: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "arguments": '{"q": 1}'}


def _session(model: str) -> dict[str, Any]:
    return {
        "model": model,
        "messages": [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": [{"type": "text", "text": "look"}]},
            {
                "role": "assistant",
                "content": [{"type": "thinking", "text": "hm", "provider": "openai-chat"}, _call("c1", "a.b")],
            },
            {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "ok"}]},
        ],
        "tools": [{"name": "a.b", "parameters": {"type": "object", "properties": {}}}],
        "temperature": 0.5,
    }


# --- the writer ----------------------------------------------------------------------------


def test_the_writer_reports_the_unsigned_first_call_of_the_current_turn_for_gemini_3() -> None:
    body, losses = _write(_session("gemini-3-pro-preview"))
    assert "$.messages[2].content[1] thought signature" in losses
    assert body["contents"][1] == {
        "role": "model",
        "parts": [{"functionCall": {"name": "a.b", "args": {"q": 1}, "id": "c1"}}],
    }


def test_the_writer_leaves_gemini_2_calls_unsigned_and_unreported() -> None:
    _, losses = _write(_session("gemini-2.5-flash"))
    assert not any(loss.endswith("thought signature") for loss in losses)


def test_the_writer_sends_the_sentinel_when_missing_signature_is_skip() -> None:
    for options, request in [
        ({"missing_signature": "skip"}, _session("gemini-3-pro-preview")),
        (None, {**_session("gemini-3-pro-preview"), "provider_options": {"gemini": {"missing_signature": "skip"}}}),
    ]:
        body, losses = _write(request, options)
        assert body["contents"][1]["parts"][0]["thoughtSignature"] == "skip_thought_signature_validator"
        assert not any(loss.endswith("thought signature") for loss in losses)
        assert "missing_signature" not in body  # an option, never a field


def test_the_writer_guesses_and_reports_the_media_type_of_a_url_image() -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}
    body, losses = _write({"messages": [{"role": "user", "content": [image]}]})
    assert body["contents"][0]["parts"] == [
        {"fileData": {"fileUri": "https://example.com/a.png", "mimeType": "image/png"}}
    ]
    assert losses == ["$.messages[0].content[0].source.media_type media type"]


def _sparse(full: object, sparse: object) -> object:
    """``sparse`` (a dump without its defaults) with the tags of ``full`` (the whole dump)
    written back: canonical data always carries ``type`` and ``role``."""
    if isinstance(full, dict) and isinstance(sparse, dict):
        kept: dict[str, Any] = {key: _sparse(full[key], value) for key, value in sparse.items()}
        kept.update({key: full[key] for key in ("type", "role") if key in full})
        return kept
    if isinstance(full, list) and isinstance(sparse, list):
        return [_sparse(whole, part) for whole, part in zip(full, sparse, strict=True)]
    return sparse


@SETTINGS
@given(request=REQUESTS)
def test_the_writer_takes_data_with_defaults_left_out_or_written_alike(request: chatcodec.ChatRequest) -> None:
    full = request.model_dump()
    sparse = _sparse(full, request.model_dump(exclude_defaults=True))
    assert isinstance(sparse, dict)
    outcomes = []
    for data in (full, sparse):
        try:
            outcomes.append(_write(data))
        except chatcodec.ChatcodecError as error:
            outcomes.append((type(error).__name__, str(error)))
    assert outcomes[0] == outcomes[1]


# --- the reader ----------------------------------------------------------------------------


def _outcome(call: Callable[[], object]) -> object:
    """What ``call`` returns, or the error it raises (type and message)."""
    try:
        return call()
    except chatcodec.ChatcodecError as error:
        return f"{type(error).__name__}: {error}"


def _assert_read_as_the_model_dumps(payload: Any) -> None:
    """The reader's output is canonical data as the model dumps it, and the model the
    door builds from it; a body the door refuses, the reader refuses alike (a body, not a
    value the public functions refuse before a reader sees it)."""
    if not isinstance(payload, dict):
        return
    read = _outcome(lambda: CODEC.read_request(payload))
    decoded = _outcome(lambda: chatcodec.decode_request("gemini", payload).model_dump())
    assert read == decoded


def test_the_reader_gives_recorded_requests_as_the_model_dumps_them() -> None:
    for name in GEMINI.recorded["request"]:
        _assert_read_as_the_model_dumps(GEMINI.load("request", name))


@SETTINGS
@given(data=st.data())
def test_the_reader_gives_mutated_requests_as_the_model_dumps_them(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(GEMINI.recorded["request"]))
    _assert_read_as_the_model_dumps(data.draw(mutated(GEMINI.load("request", name))))


@SETTINGS
@given(request=REQUESTS)
def test_the_reader_gives_generated_requests_as_the_model_dumps_them(request: chatcodec.ChatRequest) -> None:
    try:
        payload = chatcodec.encode_request("gemini", request, on_loss="ignore")
    except chatcodec.ChatcodecError:
        return  # a request Gemini cannot carry
    _assert_read_as_the_model_dumps(payload)


class _Refusing:
    """A closed schema that takes nothing: every body goes to the full wire shapes."""

    def validate(self, payload: object) -> None:
        del payload


@pytest.fixture
def full_shapes_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wire, "REQUEST", _Refusing())


def _recorded_and_written() -> list[dict[str, Any]]:
    payloads = [GEMINI.load("request", name) for name in GEMINI.recorded["request"]]
    for source in ("openai-chat", "anthropic", "openai-responses", "bedrock-converse"):
        for name in PROVIDER[source].recorded["request"]:
            try:
                payloads.append(
                    chatcodec.convert_request(
                        PROVIDER[source].load("request", name), source=source, target="gemini", on_loss="ignore"
                    )
                )
            except chatcodec.ChatcodecError:
                continue
    return payloads


PAYLOADS = _recorded_and_written()


def test_the_closed_schema_takes_the_common_shapes() -> None:
    taken = [payload for payload in PAYLOADS if wire.checked_request(payload)[2]]
    assert len(taken) > len(PAYLOADS) // 2


@pytest.mark.usefixtures("full_shapes_only")
def test_the_closed_schema_is_only_a_front_the_reading_is_the_same_without_it() -> None:
    for payload in PAYLOADS:
        assert not wire.checked_request(payload)[2]
        assert CODEC.read_request(payload) == chatcodec.decode_request("gemini", payload).model_dump()


def test_the_reader_reads_an_sdk_dump_spelled_in_snake_case_with_its_marker() -> None:
    payload = GEMINI.load("request", "file_data_uri.json")
    request, _, common = wire.checked_request(payload)
    assert common  # renamed, then taken by the closed schema
    assert "fileData" in request["contents"][0]["parts"][1]
    decoded = CODEC.read_request(payload)
    assert decoded["provider_options"]["gemini"]["_snake"]
    assert chatcodec.convert_request(payload, source="gemini", target="gemini", on_loss="error") == payload


def test_the_reader_makes_up_call_ids_and_pairs_results_by_position() -> None:
    payload = {
        "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "f", "args": {"a": 1}}},
                    {"functionCall": {"name": "f", "args": {}}},
                ],
            },
            {
                "role": "user",
                "parts": [
                    {"functionResponse": {"name": "f", "response": {"output": "1"}}},
                    {"functionResponse": {"name": "f", "response": {"error": "no"}}},
                    {"text": "and?"},
                ],
            },
        ]
    }
    decoded = CODEC.read_request(payload)
    assert [result["tool_use_id"] for result in decoded["messages"][2]["content"]] == [
        "gemini_call_1_0",
        "gemini_call_1_1",
    ]
    assert decoded["messages"][3]["provider_metadata"] == {"gemini": {"_joined": True}}
    assert chatcodec.convert_request(payload, source="gemini", target="gemini", on_loss="error") == payload


def _deep(levels: int) -> object:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize("levels", [253, 254])
def test_a_value_kept_in_a_bag_is_refused_exactly_where_the_model_refuses_it(levels: int) -> None:
    """A top-level field rides in the request's bag, which pydantic-core reads to a depth
    one level short of the closed schema's: the reader refuses what the model does, as
    converting does (found by the mutated-requests law)."""
    payload = {"contents": [{"role": "user", "parts": [{"text": "x"}]}], "labels2": _deep(levels)}
    decoded = _outcome(lambda: chatcodec.decode_request("gemini", payload).model_dump())
    assert _outcome(lambda: CODEC.read_request(payload)) == decoded
    converted = _outcome(
        lambda: chatcodec.convert_request(payload, source="gemini", target="anthropic", on_loss="ignore")
    )
    if levels == 253:
        assert isinstance(decoded, dict)
        assert isinstance(converted, dict)
    else:
        assert isinstance(decoded, str)
        assert decoded.startswith("PayloadError: at $.labels2[0][0]")
        assert converted == decoded


ARGUMENT_TEXTS = [
    '{"path":"a","n":1,"ok":true,"none":null}',
    '{"big":123456789012345678901234567890}',
    '{"f":1.5}',
    '{"f":1e400}',
    '{"deep":{"f":-1e999}}',
    '{"deep":{"s":"Infinity"},"f":2.5}',
    '{"deep":{"s":"\\ud800"}}',
    '{"edits":[{"old":"a","new":"b"}],"env":{"K":"v"}}',
    '{"list":[1,2]}',
    '{"a":1,"a":2}',
    "",
    "   ",
    "[1]",
    '"text"',
    "{",
    '{"n":NaN}',
    '{"s":"\\ud800"}',
    '{"s":"\ud800"}',
]


def _reference_parse(text: str) -> dict[str, Any] | None:
    if not text.strip():
        return {}
    try:
        parsed = read_json_text(text)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def test_arguments_read_in_one_step_are_what_the_checked_reading_gives() -> None:
    """``parsed_object`` reads flat argument objects without ``payloads.read_json_text``'s infinity
    check, and checks a nested one's parse as ``loads`` checks its own (not parsing it
    again): every text must read as ``loads`` reads it."""
    for text in ARGUMENT_TEXTS:
        assert parsed_object(text) == _reference_parse(text), text
    assert parsed_object('{"f":1e400}') is None


CALL_ARGS: list[dict[str, Any]] = [
    {"path": "notes/a.md", "limit": 100, "ok": True, "none": None, "list": [1, "x", [False]]},
    {"text": 'caf\u00e9 \u2603 \U0001f600 "quoted" back\\slash \n\t\x00\x1f\x7f \u2028'},
    {"f": 1.5, "big": 1e16, "small": 1e-7, "negative": -0.0},
    {"nested": {"deep": [{"f": 2.5}]}},
    {"big": 123456789012345678901234567890, "minus": -(2**70)},
    {"first": int("7" * 3000), "second": int("8" * 3000)},  # written past the digit limit's length
    {"lone": "\ud800"},
    {},
]


@pytest.mark.parametrize("closed", [True, False], ids=["closed schema", "full shapes"])
def test_call_args_are_written_byte_for_byte_as_compact_json(closed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``args`` with no float are written by pydantic-core's ``to_json`` after the closed
    schema; a float (``1e+16``), a lone surrogate or a long text goes to
    ``kit.compact_json``: the text is ``json.dumps``'s either way."""
    if not closed:
        monkeypatch.setattr(wire, "REQUEST", _Refusing())
    for args in CALL_ARGS:
        payload = {
            "contents": [
                {"role": "user", "parts": [{"text": "go"}]},
                {"role": "model", "parts": [{"functionCall": {"name": "f", "args": args, "id": "c1"}}]},
            ]
        }
        assert wire.checked_request(payload)[2] is closed
        arguments = CODEC.read_request(payload)["messages"][1]["content"][0]["arguments"]
        assert arguments == json.dumps(args, ensure_ascii=False, separators=(",", ":")), args


# --- first use ---------------------------------------------------------------------------

_PROBE = textwrap.dedent(
    """
    import json, sys
    import chatcodec

    gemini, openai = json.loads(sys.argv[1])
    again = chatcodec.convert_request(gemini, source="gemini", target="gemini", on_loss="error")
    written = chatcodec.convert_request(openai, source="openai-chat", target="gemini", on_loss="ignore")
    loaded = sorted(name for name in sys.modules if name == "pydantic" or name.startswith("chatcodec"))
    print(json.dumps({"again": again, "written": written, "loaded": loaded}))
    """
)

_OPENAI = {
    "model": "gemini-2.5-flash",
    "messages": [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "weather in Paris?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "weather", "arguments": '{"city":"Paris"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
    ],
    "tools": [{"type": "function", "function": {"name": "weather", "parameters": {"type": "object"}}}],
    "temperature": 0.5,
    "max_completion_tokens": 100,
}


def test_reading_and_writing_common_requests_loads_no_model_and_no_pydantic() -> None:
    """First use: the reader and the writer load no canonical model and no pydantic (the
    stream classes and the full wire shapes load them where they are used)."""
    gemini = chatcodec.convert_request(_OPENAI, source="openai-chat", target="gemini", on_loss="ignore")
    source = Path(chatcodec.__file__).parent.parent
    argument = json.dumps([gemini, _OPENAI])
    command = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(source)!r})\n{_PROBE}", argument]
    found = json.loads(subprocess.run(command, capture_output=True, text=True, check=True, timeout=60).stdout)
    models = (
        "chatcodec._model.messages",
        "chatcodec._model.content",
        "chatcodec._model.request",
        "chatcodec._model.response",
        "pydantic",
    )
    assert [name for name in models if name in found["loaded"]] == []
    assert found["again"] == gemini
    assert found["written"] == gemini
