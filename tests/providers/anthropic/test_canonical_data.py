"""The one reader and the one writer over canonical data: what the reader gives is what the
model dumps, whichever form of the wire validated the body; the writer writes the same
body for a dump with its defaults absent or present, and leaves its input as it was."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pydantic_core
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._providers.anthropic import wire
from chatcodec._providers.anthropic.tools import empty_schema
from chatcodec._registry import get_codec
from chatcodec.testing import chat_requests, chat_responses
from chatcodec.testing._laws.mutations import mutated
from conformance.generated_requests import bare_request
from providers.anthropic.anthropic_support import REQUEST_FIXTURES, RESPONSE_FIXTURES, load_json

CODEC = get_codec("anthropic")


def _session() -> dict[str, Any]:
    """A Claude agent's request: system, tools, signed thinking, calls, results, an image."""
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": [{"type": "text", "text": "be brief"}],
        "tools": [{"name": "read", "description": "Read a file", "input_schema": {"type": "object"}}],
        "tool_choice": {"type": "any", "disable_parallel_tool_use": True},
        "temperature": 1,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "look"}, image]},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hmm", "signature": "c2ln"},
                    {"type": "redacted_thinking", "data": "b3BhcXVl"},
                    {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "é/a", "n": 1.5}},
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "text", "is_error": False}],
            },
            {"role": "user", "content": "again"},
        ],
    }


def _with_first_turn(block: dict[str, Any]) -> dict[str, Any]:
    payload = _session()
    payload["messages"][0]["content"].append(block)
    return payload


COMMON: dict[str, dict[str, Any]] = {
    "a cache marker": _with_first_turn({"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}),
    "a document": _with_first_turn(
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "d"}}
    ),
    "an output config": {**_session(), "output_config": {"effort": "low"}},
    "a server tool": {**_session(), "tools": [{"type": "web_search_20250305", "name": "web_search", "max_uses": 2}]},
    "a rewritten tool id": {
        **_session(),
        "messages": [
            {"role": "assistant", "content": [{"type": "tool_use", "id": "cc-a_2eb", "name": "f", "input": {}}]}
        ],
    },
    "an empty stop list": {**_session(), "stop_sequences": []},
    "a request-wide cache marker": {**_session(), "cache_control": {"type": "ephemeral", "ttl": "1h"}},
    "an unknown field set to null": {**_session(), "service_tier": None},
}
"""Shapes the closed schema validates (each once left to a second, general reader):
read in one Rust pass."""

RARE: dict[str, dict[str, Any]] = {
    "citations": _with_first_turn({"type": "text", "text": "x", "citations": []}),
    "an empty media type": _with_first_turn(
        {"type": "image", "source": {"type": "base64", "media_type": "", "data": "AA=="}}
    ),
    "a system turn in messages": {  # a model that takes one (``rules.py``)
        "model": "claude-opus-4-8",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": "u"}, {"role": "system", "content": "s"}],
    },
    "a null field": _with_first_turn({"type": "text", "text": "x", "cache_control": None}),
    "a tool without input_schema": {**_session(), "tools": [{"name": "t"}]},
    "a server-tool block": _with_first_turn({"type": "search_result", "source": "s", "title": "t", "content": []}),
}
"""Shapes the closed schema refuses: validated by the wire ``TypedDict`` shapes, read by
the same functions."""


def _read(payload: dict[str, Any]) -> dict[str, Any]:
    return CODEC.read_request(copy.deepcopy(payload))


def _assert_dumps_as_read(data: dict[str, Any], model: type[chatcodec.ChatRequest | chatcodec.ChatResponse]) -> None:
    assert model.model_validate(data).model_dump() == data


@pytest.mark.parametrize("name", REQUEST_FIXTURES)
def test_a_recorded_request_reads_as_the_model_dumps_it(name: str) -> None:
    _assert_dumps_as_read(_read(load_json("request", name)), chatcodec.ChatRequest)


@pytest.mark.parametrize("name", RESPONSE_FIXTURES)
def test_a_recorded_response_reads_as_the_model_dumps_it(name: str) -> None:
    _assert_dumps_as_read(CODEC.read_response(load_json("response", name)), chatcodec.ChatResponse)


@pytest.mark.parametrize("shape", [*COMMON, *RARE])
def test_a_shape_reads_as_the_model_dumps_it_and_writes_back_as_it_came(shape: str) -> None:
    payload = {**COMMON, **RARE}[shape]
    data = _read(payload)
    _assert_dumps_as_read(data, chatcodec.ChatRequest)
    assert CODEC.write_request(data, LossRecorder(), options={"api_version": "2023-06-01"}) == payload


@pytest.mark.parametrize("shape", list(COMMON))
def test_the_closed_schema_validates_the_common_shapes(shape: str) -> None:
    assert wire.COMMON_REQUEST.validate(copy.deepcopy(COMMON[shape])) is not None


@pytest.mark.parametrize("shape", list(RARE))
def test_the_closed_schema_leaves_the_rare_shapes_to_the_wire_shapes(shape: str) -> None:
    assert wire.COMMON_REQUEST.validate(copy.deepcopy(RARE[shape])) is None


def test_the_reader_keeps_the_markers_of_the_spelling() -> None:
    """``is_error: false`` spelled out, a user turn after results kept apart, the API
    version a sampling setting shows (``rules.version_shown``) and a sampling number
    spelled as an integer (``temperature: 1``): each on its object."""
    messages = _read(_session())["messages"]
    assert [message["role"] for message in messages] == ["system", "user", "assistant", "tool", "user"]
    assert messages[3]["content"][0]["provider_metadata"] == {"anthropic": {"_is_error": False}}
    assert messages[4]["provider_metadata"] == {"anthropic": {"_separate": True}}
    data = _read(_session())
    assert data["provider_options"] == {"anthropic": {"_api_version": "2023-06-01", "_integers": ["temperature"]}}
    assert data["temperature"] == 1.0
    assert type(data["temperature"]) is float


def _assert_validated_alike(payload: object) -> None:
    """What the closed schema accepts, the wire shapes accept, as the same copy (keys in
    the same order: a bag keeps it)."""
    closed = wire.COMMON_REQUEST.validate(copy.deepcopy(payload))
    if closed is not None:
        assert repr(wire.validated(wire.Request, payload, "Anthropic request")) == repr(closed)


@pytest.mark.parametrize("name", REQUEST_FIXTURES)
def test_the_closed_schema_and_the_wire_shapes_validate_a_recording_alike(name: str) -> None:
    payload = load_json("request", name)
    assert wire.COMMON_REQUEST.validate(copy.deepcopy(payload)) is not None  # every recording is common
    _assert_validated_alike(payload)


MUTATED = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@MUTATED
@given(data=st.data())
def test_a_mutated_request_reads_as_the_model_dumps_it_or_is_refused(data: st.DataObject) -> None:
    payload = data.draw(st.sampled_from(REQUEST_FIXTURES).map(lambda name: load_json("request", name)).flatmap(mutated))
    if not isinstance(payload, dict):
        return
    _assert_validated_alike(payload)
    try:
        read = _read(payload)
    except chatcodec.ChatcodecError:
        return
    refusals = _refusals(read)
    if refusals is None:
        assert chatcodec.ChatRequest.model_validate(read).model_dump() == read
    else:  # only a value nested past pydantic-core's depth limit, kept in a bag as it came
        assert "recursion_depth_exceeded" in refusals  # (a union's other branch adds its own)


def _refusals(read: dict[str, Any]) -> set[str] | None:
    """The rules the canonical model refuses ``read`` by, or None when it takes it."""
    try:
        chatcodec.ChatRequest.model_validate(read)
    except pydantic_core.ValidationError as error:
        return {detail["type"] for detail in error.errors()}
    return None


# --- the writer ---------------------------------------------------------------------------


def _tags_back(full: Any, minimal: Any) -> Any:
    """``minimal`` with the tags of ``full`` (a key holding its default may be absent;
    tags are always present)."""
    if isinstance(full, dict) and isinstance(minimal, dict):
        restored = {key: _tags_back(full[key], value) for key, value in minimal.items()}
        return {**{key: full[key] for key in ("type", "role") if key in full and key not in minimal}, **restored}
    if isinstance(full, list) and isinstance(minimal, list):
        return [_tags_back(whole, part) for whole, part in zip(full, minimal, strict=True)]
    return minimal


def _flags_written(value: Any) -> Any:
    """``value`` with the flags a dump leaves out when false written out."""
    if isinstance(value, list):
        return [_flags_written(item) for item in value]
    if not isinstance(value, dict):
        return value
    written = {key: _flags_written(item) if key != "provider_metadata" else item for key, item in value.items()}
    if written.get("type") == "tool_result":
        written.setdefault("is_error", False)
    if written.get("type") == "thinking":
        written.setdefault("redacted", False)
    return written


def _written(data: dict[str, Any], options: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    recorder = LossRecorder()
    try:
        body = CODEC.write_request(data, recorder, options=options)
    except chatcodec.ChatcodecError as error:
        return f"refused: {error}", []
    return json.dumps(body), [str(loss) for loss in recorder.losses]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(request=st.one_of(chat_requests(), chat_requests().map(bare_request)))
def test_the_writer_takes_a_dump_with_defaults_absent_or_present_alike(request: chatcodec.ChatRequest) -> None:
    dump = request.model_dump()
    without = _tags_back(dump, request.model_dump(exclude_defaults=True))
    assert chatcodec.ChatRequest.model_validate(without) == request
    written = _written(copy.deepcopy(dump))
    assert _written(copy.deepcopy(without)) == written
    assert _written(_flags_written(dump)) == written


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(response=chat_responses())
def test_the_response_writer_takes_a_dump_with_defaults_absent_or_present_alike(
    response: chatcodec.ChatResponse,
) -> None:
    dump = response.model_dump()
    without = _tags_back(dump, response.model_dump(exclude_defaults=True))

    def written(data: dict[str, Any]) -> tuple[str, list[str]]:
        recorder = LossRecorder()
        body = CODEC.write_response(data, recorder)
        return json.dumps(body), [str(loss) for loss in recorder.losses]

    assert written(copy.deepcopy(without)) == written(copy.deepcopy(dump))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(request=st.one_of(chat_requests(), chat_requests().map(bare_request)))
def test_the_writer_leaves_its_input_as_it_was(request: chatcodec.ChatRequest) -> None:
    dump = request.model_dump()
    kept = copy.deepcopy(dump)
    body = CODEC.write_request(dump, LossRecorder(), options={"unsigned_thinking": "text"})
    assert dump == kept
    json.dumps(body)  # plain JSON, whatever the rules rewrote


def test_the_default_tool_schema_is_the_models() -> None:
    assert empty_schema() == chatcodec.ToolDefinition(name="t").parameters


# --- other providers' bags, and names results take from their calls -------------------------


def _call(call_id: str, name: str = "read", **bag: Any) -> dict[str, Any]:
    call = {"type": "tool_use", "id": call_id, "name": name, "arguments": '{"path":"a"}'}
    return {**call, "provider_metadata": {"gemini": bag}} if bag else call


def _named_result(call_id: str, name: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": "ok", "name": name}


def _gemini_session(*later: dict[str, Any]) -> dict[str, Any]:
    thinking = {"type": "thinking", "text": "hmm", "provider": "gemini"}
    text = {"type": "text", "text": "reading", "provider_metadata": {"gemini": {"thought": False}}}
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "tools": [{"type": "function", "name": "read", "parameters": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "go", "provider_metadata": {"gemini": {"role": "user"}}},
            {
                "role": "assistant",
                "content": [
                    text,
                    thinking,
                    _call("c1", "a.b", _unsigned=True, y=2),
                    _call("c2", thoughtSignature="c2ln"),
                ],
            },
            {
                "role": "tool",
                "content": [
                    {**_named_result("c1", "a.b"), "provider_metadata": {"gemini": {"w": 1}}},
                    _named_result("c2", "read"),
                ],
            },
            *later,
        ],
    }


def _losses(request: dict[str, Any]) -> list[tuple[str, str]]:
    recorder = LossRecorder()
    CODEC.write_request(request, recorder)
    return [(loss.path, loss.what) for loss in recorder.losses]


def test_other_providers_bags_on_parts_are_reported_in_order() -> None:
    """Bags on a message, a text, calls and a result (a thought signature too: a request to
    Claude does not carry Gemini's, ``tool_ids.py``) reported in order; a result's name that
    its call gives is no loss."""
    assert _losses(_gemini_session()) == [
        ("$.messages[0]", "gemini data ['role']"),
        ("$.messages[1].content[0]", "gemini data ['thought']"),
        ("$.messages[1].content[1]", "thinking part"),
        ("$.messages[1].content[2]", "gemini data ['y']"),
        ("$.messages[1].content[2].name", "tool name 'a.b'"),
        ("$.messages[1].content[3]", "gemini data ['thoughtSignature']"),
        ("$.messages[2].content[0]", "gemini data ['w']"),
    ]


def test_a_result_name_is_compared_with_the_last_call_of_its_id() -> None:
    """Every call id of the request maps to its last call's name: a later call reusing an
    id with another name makes the earlier result's name a loss; the same name does not."""
    same = _gemini_session({"role": "assistant", "content": [_call("c2", "read")]})
    assert ("$.messages[2].content[1].name", "tool name") not in _losses(same)
    renamed = _gemini_session({"role": "assistant", "content": [_call("c2", "other")]})
    assert ("$.messages[2].content[1].name", "tool name") in _losses(renamed)


def test_a_parts_own_bag_and_cache_marker_are_written() -> None:
    request = _gemini_session()
    request["messages"][1]["content"].append({**_call("c3"), "provider_metadata": {"anthropic": {"x": 1}}})
    request["messages"][1]["content"].append({**_call("c4"), "cache_control": {"type": "ephemeral"}})
    blocks = CODEC.write_request(request, LossRecorder())["messages"][1]["content"]
    assert blocks[-2] == {"x": 1, "type": "tool_use", "id": "c3", "name": "read", "input": {"path": "a"}}
    assert blocks[-1]["cache_control"] == {"type": "ephemeral"}


# --- first use ----------------------------------------------------------------------------

_PROBE = textwrap.dedent(
    """
    import json, sys
    import chatcodec

    body = json.loads(sys.argv[1])
    converted = chatcodec.convert_request(body, source="anthropic", target="anthropic", on_loss="ignore")
    loaded = sorted(name for name in sys.modules if name == "pydantic" or name.startswith("chatcodec"))
    print(json.dumps({"converted": converted, "loaded": loaded}))
    """
)


def test_reading_and_writing_the_common_shapes_in_a_fresh_process_loads_no_model() -> None:
    source = Path(chatcodec.__file__).parent.parent
    payload = {**_session(), "cache_control": {"type": "ephemeral"}}
    command = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(source)!r})\n{_PROBE}", json.dumps(payload)]
    found = json.loads(subprocess.run(command, capture_output=True, text=True, check=True, timeout=60).stdout)
    models = (
        "pydantic",
        "chatcodec._model.messages",
        "chatcodec._model.content",
        "chatcodec._model.request",
        "chatcodec._model.response",
    )
    assert [name for name in models if name in found["loaded"]] == []
    assert found["converted"] == payload


# --- values nested past what a canonical model takes ----------------------------------------


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = {"a": value}
    return value


DEEP_PLACES: dict[str, dict[str, Any]] = {
    "a field of the request": {**_session(), "x": _nested(300)},
    "a field of a block": _with_first_turn({"type": "text", "text": "x", "x": _nested(300)}),
    "a tool schema": {**_session(), "tools": [{"name": "t", "input_schema": _nested(300)}]},
}


@pytest.mark.parametrize("place", list(DEEP_PLACES))
def test_a_value_kept_whole_past_the_canonical_depth_is_refused_where_it_is(place: str) -> None:
    """No model is built to refuse it, so the reader does, naming the route into the input
    (a converted body would otherwise carry it to a writer that refuses it elsewhere)."""
    with pytest.raises(chatcodec.PayloadError, match="recursion_depth_exceeded") as refused:
        chatcodec.convert_request(DEEP_PLACES[place], source="anthropic", target="openai-chat", on_loss="ignore")
    assert refused.value.path.startswith("$.")


def test_tool_arguments_nested_deep_are_read_as_their_text() -> None:
    """Canonical arguments are text: a deep ``input`` is no canonical depth."""
    payload = {
        "max_tokens": 5,
        "messages": [
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {"x": _nested(300)}}],
            }
        ],
    }
    data = _read(payload)
    assert data["messages"][0]["content"][0]["arguments"].startswith('{"x":{"a":')
