"""Bedrock Converse's one reader and one writer, over canonical data: what the reader gives
is what the canonical models dump, the closed schema at its front reads as the wire
adapter behind it does (and accepts nothing the wire refuses), the writer takes model
dumps with defaults left out or written alike, and a conversion loads no canonical model.
Then the rules the common shapes meet, checked on the one path."""

from __future__ import annotations

import base64
import binascii
import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._providers.bedrock_converse import request as bedrock_request
from chatcodec._providers.bedrock_converse import wire
from chatcodec._providers.bedrock_converse.request import UNSUPPORTED
from chatcodec._providers.families.aws.blobs import is_base64
from chatcodec._providers.families.aws.blocks import IMAGE_TYPES
from chatcodec._registry import get_codec
from chatcodec.testing import chat_requests
from chatcodec.testing._laws.mutations import mutated
from conformance.generated_requests import bare_request
from conformance.providers import PROVIDER

BEDROCK = "bedrock-converse"
CODEC = get_codec(BEDROCK)
PNG = "iVBORw0KGgo="
LONG_ID = "call_" + "x" * 80
NOVA = "us.amazon.nova-pro-v1:0"
"""Not a Claude model: a system turn stays a turn (Claude's rule folds it into ``system``)."""
RECORDED = PROVIDER[BEDROCK]


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _recorded(kind: str) -> list[Any]:
    return [RECORDED.load(kind, name) for name in RECORDED.recorded[kind]]


def _mutated_requests() -> st.SearchStrategy[Any]:
    return st.sampled_from(_recorded("request")).flatmap(lambda payload: mutated(payload, deep=False))


class _Refused:
    """A closed schema that takes nothing: every body is validated by the wire adapter."""

    @staticmethod
    def validate(payload: object) -> None:
        del payload


@pytest.fixture
def without_closed_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bedrock_request, "REQUEST", _Refused)
    monkeypatch.setattr(bedrock_request, "closed_messages", lambda messages: None)


def _read(payload: Any) -> tuple[str, Any]:
    try:
        return ("data", CODEC.read_request(payload))
    except chatcodec.ChatcodecError as error:
        return ("error", str(error))


# --- the reader --------------------------------------------------------------------------


def test_every_recorded_request_reads_as_the_model_dumps_it() -> None:
    for payload in _recorded("request"):
        data = CODEC.read_request(payload)
        assert chatcodec.ChatRequest.model_validate(data).model_dump() == data
        assert chatcodec.decode_request(BEDROCK, payload).model_dump() == data
        assert wire.REQUEST.validate(payload) is not None  # each read in one Rust pass


def test_every_recorded_response_reads_as_the_model_dumps_it() -> None:
    read = 0
    for payload in _recorded("response"):
        if "output" not in payload:
            continue  # an error body
        data = CODEC.read_response(payload)
        assert chatcodec.ChatResponse.model_validate(data).model_dump() == data
        read += 1
    assert read


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(payload=_mutated_requests())
def test_mutated_requests_read_as_the_model_dumps_them(payload: Any) -> None:
    kind, data = _read(payload)
    if kind == "data":
        assert chatcodec.ChatRequest.model_validate(data).model_dump() == data


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(payload=_mutated_requests())
def test_what_the_closed_schema_accepts_the_wire_adapter_accepts(payload: Any) -> None:
    if wire.REQUEST.validate(payload) is not None:
        wire.validated(wire.adapters().request, payload, "Bedrock Converse request")


def test_the_closed_schema_and_the_wire_adapter_read_recorded_requests_alike(
    without_closed_schema: None,
) -> None:
    del without_closed_schema
    for payload in _recorded("request"):
        assert CODEC.read_request(payload) == chatcodec.decode_request(BEDROCK, payload).model_dump()


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(payload=_mutated_requests())
def test_the_closed_schema_and_the_wire_adapter_read_mutated_requests_alike(payload: Any) -> None:
    through_closed = _read(payload)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bedrock_request, "REQUEST", _Refused)
        assert _read(payload) == through_closed


def test_a_stored_message_list_reads_alike_through_both_validations() -> None:
    for payload in _recorded("request"):
        messages = payload["messages"]
        assert wire.closed_messages(messages) is not None
        through_closed = CODEC.read_messages(messages)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(bedrock_request, "closed_messages", lambda messages: None)
            assert CODEC.read_messages(messages) == through_closed
        assert through_closed == [message.model_dump() for message in CODEC.decode_messages(messages)]


def test_a_block_of_two_members_is_kept_whole_with_its_tool_input_as_it_came() -> None:
    call = {"toolUseId": "t", "name": "f", "input": {"x": 1.5, "n": 1}}
    payload = {"messages": [{"role": "assistant", "content": [{"text": "a", "toolUse": call}]}]}
    assert wire.REQUEST.validate(payload) is not None
    (part,) = CODEC.read_request(payload)["messages"][0]["content"]
    assert part == {"type": "opaque", "provider": BEDROCK, "data": {"text": "a", "toolUse": call}}


# --- the writer ----------------------------------------------------------------------------


def _every_field(value: Any) -> Any:
    """A model as data with every field written, defaults and ``None`` included."""
    if isinstance(value, BaseModel):
        return {name: _every_field(getattr(value, name)) for name in type(value).model_fields}
    if isinstance(value, list):
        return [_every_field(item) for item in value]
    if isinstance(value, dict):
        return {key: _every_field(item) for key, item in value.items()}
    return value


def _written(data: Any, options: dict[str, Any] | None = None) -> tuple[str, Any, list[chatcodec.Loss]]:
    recorder = LossRecorder()
    try:
        body = CODEC.write_request(data, recorder, options=options)
    except chatcodec.ChatcodecError as error:
        return ("error", str(error), [])
    return ("body", json.dumps(body), recorder.losses)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(request=st.one_of(chat_requests(), chat_requests().map(bare_request)))
def test_the_writer_takes_model_dumps_with_defaults_left_out_or_written_alike(request: chatcodec.ChatRequest) -> None:
    dumped = _written(request.model_dump())
    assert _written(_every_field(request)) == dumped
    assert _encoded(request) == dumped


def _encoded(request: chatcodec.ChatRequest) -> tuple[str, Any, list[chatcodec.Loss]]:
    """What the model door (``encode_request``) writes: the model's dump, written."""
    losses: list[chatcodec.Loss] = []
    try:
        body = chatcodec.encode_request(BEDROCK, request, on_loss="ignore", losses=losses)
    except chatcodec.ChatcodecError as error:
        return ("error", str(error), [])
    return ("body", json.dumps(body), losses)


def test_options_by_argument_and_as_a_stored_request_spells_them_write_alike() -> None:
    data = chatcodec.decode_request("openai-chat", _openai(*_CALL_AND_RESULT)).model_dump()
    by_argument = _written(data, {"tool_result_status": "always"})
    stored = {**data, "provider_options": {BEDROCK: {"tool_result_status": "always"}}}
    assert _written(stored) == by_argument
    assert json.loads(by_argument[1])["messages"][2]["content"][0]["toolResult"]["status"] == "success"


# --- first use -----------------------------------------------------------------------------


def test_converting_through_bedrock_loads_no_canonical_model() -> None:
    """First use: a request converted into and out of Converse, a body of rarer shapes read
    and written (a cache point, a document, reasoning settings), and the codec itself load
    neither pydantic nor the canonical models."""
    script = """
import sys, chatcodec
from chatcodec._registry import get_codec
get_codec("bedrock-converse")
image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
session = {"model": "m", "messages": [
    {"role": "system", "content": "be brief"},
    {"role": "user", "content": [{"type": "text", "text": "hi"}, image]},
    {"role": "assistant", "content": None, "reasoning_content": "r",
     "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "c", "content": "ok"}],
    "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]}
body = chatcodec.convert_request(session, source="openai-chat", target="bedrock-converse", on_loss="ignore")
chatcodec.convert_request(body, source="bedrock-converse", target="anthropic", on_loss="ignore")
document = {"document": {"format": "txt", "name": "notes", "source": {"text": "a"}}}
body["messages"][0]["content"] += [document, {"cachePoint": {"type": "default"}}]
body["outputConfig"] = {"effort": "high"}
body["additionalModelRequestFields"] = {"thinking": {"type": "enabled", "budget_tokens": 1024}}
codec = get_codec("bedrock-converse")
from chatcodec._losses import LossRecorder
codec.write_request(codec.read_request(body), LossRecorder())
models = {"pydantic", *(f"chatcodec._model.{name}" for name in ("content", "messages", "request", "response"))}
print(sorted(name for name in sys.modules if name in models))
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


# --- the rules, on the common shapes -----------------------------------------------------


def _openai(*messages: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"model": "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "messages": list(messages), **fields}


def _call(call_id: str, name: str = "get_weather", arguments: str = '{"city":"Paris"}') -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


_CALL_AND_RESULT = (
    {"role": "user", "content": "weather?"},
    {"role": "assistant", "content": None, "tool_calls": [_call("c1")]},
    {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
)


def _converted(
    payload: dict[str, Any], options: dict[str, Any] | None = None
) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        payload, source="openai-chat", target=BEDROCK, on_loss="ignore", losses=losses, options=options
    )
    return body, losses


def test_images_by_url_are_reported_and_left_out() -> None:
    image = {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
    payload = _openai({"role": "user", "content": [{"type": "text", "text": "what is it?"}, image]})
    body, losses = _converted(payload)
    assert body["messages"][0]["content"] == [{"text": "what is it?"}]
    assert [loss.what for loss in losses] == ["image by URL"]


@pytest.mark.parametrize("media_type", [*IMAGE_TYPES.values(), "image/jpg", "image/JPEG", "image/bmp"])
def test_base64_images_go_as_bytes_in_the_formats_bedrock_names(media_type: str) -> None:
    image = {"type": "image_url", "image_url": {"url": f"data:{media_type};base64,{PNG}"}}
    bad = {"type": "image_url", "image_url": {"url": f"data:{media_type};base64,not base64!"}}
    text = {"type": "text", "text": "what is it?"}
    body, losses = _converted(_openai({"role": "user", "content": [image, bad, text]}))
    expected_format = {"image/jpg": "jpeg", "image/JPEG": "jpeg"}.get(media_type, media_type.removeprefix("image/"))
    blocks = body["messages"][0]["content"]
    # OpenAI Chat carries a bad data URL's text as given; Bedrock, whose blobs are bytes, proves it
    bad_data = ("$.messages[0].content[1].source.data", "image data")
    if media_type == "image/bmp":
        assert blocks == [{"text": "what is it?"}]
        bmp = ("$.messages[0].content[0].source.media_type", "image of type 'image/bmp'")
        assert [(loss.path, loss.what) for loss in losses] == [bmp, bad_data]
    else:
        assert blocks == [{"image": {"format": expected_format, "source": {"bytes": PNG}}}, {"text": "what is it?"}]
        assert [(loss.path, loss.what) for loss in losses] == [bad_data]


@pytest.mark.parametrize("options", [None, {"unsigned_thinking": "text"}])
def test_openai_reasoning_is_dropped_or_sent_as_text(options: dict[str, Any] | None) -> None:
    payload = _openai(
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello", "reasoning_content": "they greet me"},
        {"role": "user", "content": "again"},
    )
    body, losses = _converted(payload, options)
    assert [loss.what for loss in losses] == ["thinking part"]
    sent_as_text = options is not None
    assert ({"text": "they greet me"} in body["messages"][1]["content"]) is sent_as_text


def test_rewritten_ids_and_names_are_reported_on_every_request() -> None:
    """The writer remembers ids sent unchanged (a set look-up instead of the rewrite's
    call); a rewritten one is never remembered, so each request rewrites and reports it."""
    payload = _openai(
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": None, "tool_calls": [_call(LONG_ID, "get.weather"), _call("call_ok")]},
        {"role": "tool", "tool_call_id": LONG_ID, "content": "sunny"},
        {"role": "tool", "tool_call_id": "call_ok", "content": "rain"},
    )
    for _ in range(2):
        body, losses = _converted(payload)
        assert [loss.what for loss in losses] == ["tool call id", "tool name 'get.weather'", "tool call id"]
        calls = [block["toolUse"] for block in body["messages"][1]["content"]]
        assert [call["toolUseId"] == LONG_ID for call in calls] == [False, False]
        assert [call["name"] for call in calls][1] == "get_weather"
        assert calls[0]["name"] != "get.weather"


@pytest.mark.parametrize("status", [None, "always", "never"])
def test_tool_result_status_follows_the_option(status: str | None) -> None:
    options = None if status is None else {"tool_result_status": status}
    body, _ = _converted(_openai(*_CALL_AND_RESULT), options)
    assert ("status" in body["messages"][2]["content"][0]["toolResult"]) is (status == "always")


@pytest.mark.parametrize("setting", UNSUPPORTED)
def test_settings_converse_has_no_field_for_are_reported(setting: str) -> None:
    values = {"top_k": 5, "metadata": {"user": "u"}, "stream": True, "verbosity": "low"}
    value = {**values, "prompt_cache_key": "session-7", "safety_identifier": "h1"}.get(setting, 1)
    request = chatcodec.ChatRequest.model_validate({"messages": [{"role": "user", "content": "hi"}], setting: value})
    _, data, losses = _written(request.model_dump())
    assert data == json.dumps({"messages": [{"role": "user", "content": [{"text": "hi"}]}]})
    assert [loss.path for loss in losses] == [f"$.{setting}"]


@pytest.mark.parametrize(
    ("messages", "sent", "what"),
    [
        (
            [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}],
            [{"role": "user", "content": [{"text": "a"}, {"text": "b"}]}],
            "consecutive user message",
        ),
        (
            [{"role": "user", "content": " "}, {"role": "assistant", "content": "b"}],
            [{"role": "assistant", "content": [{"text": "b"}]}],
            "blank text block",
        ),
        (
            [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b "}],
            [{"role": "user", "content": [{"text": "a"}]}, {"role": "assistant", "content": [{"text": "b"}]}],
            "trailing whitespace of the final assistant turn",
        ),
        (
            [{"role": "user", "content": "a"}, {"role": "developer", "content": "b"}],
            [{"role": "user", "content": [{"text": "a"}]}, {"role": "system", "content": [{"text": "b"}]}],
            "developer role",
        ),
    ],
    ids=["two user turns", "blank text", "prefill ending in whitespace", "developer"],
)
def test_turn_rules_are_applied_with_their_losses(
    messages: list[dict[str, Any]], sent: list[dict[str, Any]], what: str
) -> None:
    losses: list[chatcodec.Loss] = []
    payload = {"messages": messages} if what != "developer role" else {"model": NOVA, "messages": messages}
    body = chatcodec.convert_request(
        payload,
        source="openai-chat",
        target=BEDROCK,
        on_loss="ignore",
        losses=losses,
    )
    assert body["messages"] == sent
    assert what in [loss.what for loss in losses]


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="AZaz09+/=-_ \n\u00e9", max_size=24) | st.binary(max_size=24).map(_b64))
def test_base64_is_recognised_without_decoding_exactly_as_decoding_decides(text: str) -> None:
    """``thinking.is_base64`` (Bedrock bytes) skips the decode for the usual spelling; it
    must answer what ``base64.b64decode(validate=True)`` answers, on any text."""
    try:
        decoded = bool(text) and len(base64.b64decode(text, validate=True)) > 0
    except (binascii.Error, ValueError):
        decoded = False
    assert is_base64(text) is decoded


@pytest.mark.parametrize(
    "value",
    [
        {"limit": 100, "query": "SELECT 1", "flag": True, "none": None, "list": [1, "é", "\u2028", "\x00\x1f\x7f"]},
        {"big": 10**30, "negative": -(2**64)},
        {"floats": [1e16, 1e-7, 0.1, -0.0, 123456789.125, 5e-324]},
        {"nested": [{"deep": [{"x": 2.5}]}]},
        {"text": "\ud800"},
        1.5,
        "text",
    ],
    ids=["no float", "big integers", "floats", "nested float", "lone surrogate", "bare float", "bare string"],
)
def test_tool_input_and_json_block_text_is_compact_json_either_way(value: object) -> None:
    """Past the closed schema, input without floats is written by pydantic-core's writer;
    it must be byte for byte ``json.dumps``'s compact text, as the wire adapter's reading
    writes it (``1e+16``, ``1e-07`` where pydantic-core writes ``1e16``, ``1e-7``; a lone
    surrogate, which pydantic-core refuses, as it is)."""
    call = {"toolUse": {"toolUseId": "t1", "name": "f", "input": value}}
    result = {"toolResult": {"toolUseId": "t1", "content": [{"json": value}]}}
    turns = [{"role": "assistant", "content": [call]}, {"role": "user", "content": [result]}]
    payload: dict[str, Any] = {"messages": [{"role": "user", "content": [{"text": "a"}]}, *turns]}
    assert wire.REQUEST.validate(payload) is not None
    data = CODEC.read_request(payload)
    written = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert data["messages"][1]["content"][0]["arguments"] == written
    assert data["messages"][2]["content"][0]["content"][0]["text"] == written
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bedrock_request, "REQUEST", _Refused)
        assert CODEC.read_request(payload) == data


def test_an_integer_longer_than_the_interpreter_writes_is_refused_either_way() -> None:
    """``json.dumps`` refuses an integer past ``sys.get_int_max_str_digits()`` (pydantic-core's
    writer would write it): the closed schema's reading must not succeed where the wire
    adapter's fails."""
    call = {"toolUse": {"toolUseId": "t", "name": "f", "input": {"n": 10**5000}}}
    payload = {"messages": [{"role": "assistant", "content": [call]}]}
    with pytest.raises(ValueError, match="digits"):
        CODEC.read_request(payload)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bedrock_request, "REQUEST", _Refused)
        with pytest.raises(ValueError, match="digits"):
            CODEC.read_request(payload)


@pytest.mark.parametrize("turns", [3, 10])
def test_the_bench_sessions_read_in_one_rust_pass_and_convert_both_ways(turns: int) -> None:
    from bench import section_wires, workloads

    body = chatcodec.convert_request(
        workloads.openai_session(turns), source="openai-chat", target=BEDROCK, on_loss="ignore"
    )
    written = section_wires.DIRECTIONS[3].workload(turns)
    assert wire.REQUEST.validate(written) is not None
    assert wire.REQUEST.validate(body) is not None
    anthropic = chatcodec.convert_request(written, source=BEDROCK, target="anthropic", on_loss="ignore")
    assert len(anthropic["messages"]) == len(written["messages"])


def test_a_tool_name_with_a_lone_surrogate_is_refused_at_its_wire_path() -> None:
    """Valid JSON, not Unicode: canonical tool names refuse it, so the reader does, naming
    the place in the body (the general decoder named the canonical place)."""
    spec = {"name": "get\ud800", "inputSchema": {"json": {}}}
    payload = {
        "messages": [{"role": "user", "content": [{"text": "q"}]}],
        "toolConfig": {"tools": [{"toolSpec": spec}]},
    }
    with pytest.raises(chatcodec.ValidationError, match=r"toolConfig\.tools\[0\]\.toolSpec\.name.*string_unicode"):
        CODEC.read_request(payload)


def test_an_s3_location_with_a_lone_surrogate_is_kept_whole_in_its_block() -> None:
    image = {"image": {"format": "png", "source": {"s3Location": {"uri": "s3://bucket/a\ud800"}}}}
    payload = {"messages": [{"role": "user", "content": [image]}]}
    (part,) = CODEC.read_request(payload)["messages"][0]["content"]
    assert part == {"type": "opaque", "provider": BEDROCK, "data": image}
