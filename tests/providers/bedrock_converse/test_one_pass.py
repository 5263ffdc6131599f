"""Bedrock Converse's side of the one-pass path (issue 25): the shapes it reads and writes
in the pass (so the bench times the pass, not the general path), each giving what the
general path gives, and the shapes it leaves to the general path."""

from __future__ import annotations

import base64
import binascii
import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec import one_pass
from chatcodec.losses import LossRecorder
from chatcodec.providers.bedrock_converse import one_pass as bedrock_one_pass
from chatcodec.providers.bedrock_converse import one_pass_decode
from chatcodec.providers.bedrock_converse.parts import IMAGE_TYPES
from chatcodec.providers.bedrock_converse.request import UNSUPPORTED
from chatcodec.providers.bedrock_converse.thinking import is_base64
from conformance.providers import PROVIDER

BEDROCK = "bedrock-converse"
PNG = "iVBORw0KGgo="
LONG_ID = "call_" + "x" * 80


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _general(payload: Any, source: str, target: str, options: dict[str, Any] | None) -> tuple[str, list[Any]]:
    losses: list[chatcodec.Loss] = []
    request = chatcodec.decode_request(source, payload)
    body = chatcodec.encode_request(target, request, on_loss="ignore", losses=losses, options=options)
    return json.dumps(body), losses


def _in_one_pass(
    payload: dict[str, Any], source: str, target: str, options: dict[str, Any] | None = None
) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    """The one pass's body and losses, checked equal to the general path's."""
    converted = one_pass.convert_request(payload, source, target, options)
    assert converted is not None, "declined: the general path converted it"
    body, recorder = converted
    losses: list[chatcodec.Loss] = []
    recorder.settle("ignore", losses)
    assert (json.dumps(body), losses) == _general(payload, source, target, options)
    return body, losses


def _openai(*messages: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"model": "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "messages": list(messages), **fields}


def _call(call_id: str, name: str = "get_weather", arguments: str = '{"city":"Paris"}') -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def test_every_recorded_request_read_in_one_pass_is_the_general_decoders() -> None:
    provider = PROVIDER[BEDROCK]
    taken: list[str] = []
    for name in provider.recorded["request"]:
        payload = provider.load("request", name)
        decoded = one_pass_decode.decode_request(payload)
        if decoded is not None:
            taken.append(name)
            assert chatcodec.ChatRequest.model_validate(decoded) == chatcodec.decode_request(BEDROCK, payload)
    assert {"user_image_bytes.json", "tool_choice_any_multi_turn.json", "redacted_reasoning_replay.json"} <= set(taken)


@pytest.mark.parametrize("shape", ["cache point", "document", "empty call id", "output config", "s3 image"])
def test_unusual_converse_shapes_are_left_to_the_general_decoder(shape: str) -> None:
    blocks = {
        "cache point": [{"text": "a"}, {"cachePoint": {"type": "default"}}],
        "document": [{"document": {"format": "txt", "name": "a", "source": {"bytes": PNG}}}],
        "empty call id": [{"text": "a"}],
        "output config": [{"text": "a"}],
        "s3 image": [{"image": {"format": "png", "source": {"s3Location": {"uri": "s3://b/k"}}}}],
    }[shape]
    payload: dict[str, Any] = {"messages": [{"role": "user", "content": blocks}]}
    if shape == "empty call id":
        call: dict[str, Any] = {"toolUse": {"toolUseId": "", "name": "f", "input": {}}}
        payload["messages"].append({"role": "assistant", "content": [call]})
    if shape == "output config":
        payload["outputConfig"] = {"effort": "high"}
    assert one_pass_decode.decode_request(payload) is None
    chatcodec.decode_request(BEDROCK, payload)  # the general decoder reads it


@pytest.mark.parametrize("turns", [3, 10])
def test_the_bench_sessions_convert_in_one_pass_both_ways(turns: int) -> None:
    from bench import section_wires, workloads

    session = workloads.openai_session(turns)
    _in_one_pass(session, "openai-chat", BEDROCK)
    written = section_wires.DIRECTIONS[3].workload(turns)
    _in_one_pass(written, BEDROCK, "anthropic")


def test_images_by_url_are_reported_and_left_out_in_one_pass() -> None:
    image = {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
    payload = _openai({"role": "user", "content": [{"type": "text", "text": "what is it?"}, image]})
    body, losses = _in_one_pass(payload, "openai-chat", BEDROCK)
    assert body["messages"][0]["content"] == [{"text": "what is it?"}]
    assert [loss.what for loss in losses] == ["image by URL"]


@pytest.mark.parametrize("media_type", [*IMAGE_TYPES.values(), "image/jpg", "image/JPEG", "image/bmp"])
def test_base64_images_of_every_format_read_as_the_general_encoder_reads_them(media_type: str) -> None:
    image = {"type": "image_url", "image_url": {"url": f"data:{media_type};base64,{PNG}"}}
    bad = {"type": "image_url", "image_url": {"url": f"data:{media_type};base64,not base64!"}}
    text = {"type": "text", "text": "what is it?"}
    _in_one_pass(_openai({"role": "user", "content": [image, bad, text]}), "openai-chat", BEDROCK)


@pytest.mark.parametrize("options", [None, {"unsigned_thinking": "text"}])
def test_openai_reasoning_is_dropped_or_sent_as_text_as_the_general_encoder_does(
    options: dict[str, Any] | None,
) -> None:
    payload = _openai(
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello", "reasoning_content": "they greet me"},
        {"role": "user", "content": "again"},
    )
    body, losses = _in_one_pass(payload, "openai-chat", BEDROCK, options)
    assert [loss.what for loss in losses] == ["thinking part"]
    sent_as_text = options is not None
    assert ({"text": "they greet me"} in body["messages"][1]["content"]) is sent_as_text


def test_ids_and_names_bedrock_refuses_are_rewritten_by_the_general_functions() -> None:
    payload = _openai(
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": None, "tool_calls": [_call(LONG_ID, "get.weather"), _call("a b")]},
        {"role": "tool", "tool_call_id": LONG_ID, "content": "sunny"},
        {"role": "tool", "tool_call_id": "a b", "content": ""},
    )
    _, losses = _in_one_pass(payload, "openai-chat", BEDROCK)
    assert {loss.what for loss in losses} == {"tool call id", "tool name 'get.weather'"}


def test_rewritten_ids_and_names_are_reported_on_every_request() -> None:
    """The encoder remembers ids and names sent unchanged (a set look-up instead of the
    rules' calls); a rewritten one is never remembered, so each request rewrites and
    reports it again."""
    payload = _openai(
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": None, "tool_calls": [_call(LONG_ID, "get.weather"), _call("call_ok")]},
        {"role": "tool", "tool_call_id": LONG_ID, "content": "sunny"},
        {"role": "tool", "tool_call_id": "call_ok", "content": "rain"},
    )
    for _ in range(2):
        body, losses = _in_one_pass(payload, "openai-chat", BEDROCK)
        assert [loss.what for loss in losses] == ["tool call id", "tool name 'get.weather'", "tool call id"]
        calls = [block["toolUse"] for block in body["messages"][1]["content"]]
        assert [call["toolUseId"] == LONG_ID for call in calls] == [False, False]
        assert [call["name"] == name for call, name in zip(calls, ["get.weather", "get_weather"], strict=True)] == [
            False,
            True,
        ]


@pytest.mark.parametrize("status", [None, "always", "never"])
def test_tool_result_status_follows_the_option(status: str | None) -> None:
    payload = _openai(
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": None, "tool_calls": [_call("c1")]},
        {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
    )
    options = None if status is None else {"tool_result_status": status}
    body, _ = _in_one_pass(payload, "openai-chat", BEDROCK, options)
    assert ("status" in body["messages"][2]["content"][0]["toolResult"]) is (status == "always")


@pytest.mark.parametrize("setting", UNSUPPORTED)
def test_settings_converse_has_no_field_for_are_reported_in_one_pass(setting: str) -> None:
    value = {"top_k": 5, "metadata": {"user": "u"}, "stream": True}.get(setting, 1)
    request = chatcodec.ChatRequest.model_validate({"messages": [{"role": "user", "content": "hi"}], setting: value})
    recorder = LossRecorder()
    body = bedrock_one_pass.encode_request(request.model_dump(exclude_unset=True), recorder)
    losses: list[chatcodec.Loss] = []
    recorder.settle("ignore", losses)
    general: list[chatcodec.Loss] = []
    assert (body, losses) == (chatcodec.encode_request(BEDROCK, request, on_loss="ignore", losses=general), general)
    assert [loss.path for loss in losses] == [f"$.{setting}"]


@pytest.mark.parametrize(
    "messages",
    [
        [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}],
        [{"role": "user", "content": " "}],
        [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b "}],
        [{"role": "user", "content": "a"}, {"role": "system", "content": "b"}],
        [{"role": "developer", "content": "a"}, {"role": "user", "content": "b"}],
    ],
    ids=["two user turns", "blank text", "prefill ending in whitespace", "a later system message", "developer"],
)
def test_turn_rules_are_left_to_the_general_encoder(messages: list[dict[str, Any]]) -> None:
    assert one_pass.convert_request(_openai(*messages), "openai-chat", BEDROCK) is None


def test_the_one_pass_loads_no_canonical_model() -> None:
    """First use (issue 25): the common shapes convert without pydantic or the models."""
    script = """
import sys, chatcodec
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
print(sorted(name for name in sys.modules if name in ("pydantic", "chatcodec.content", "chatcodec.messages")))
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


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
        1.5,
        "text",
    ],
    ids=["no float", "big integers", "floats", "nested float", "bare float", "bare string"],
)
@pytest.mark.parametrize("as_json", [False, True], ids=["dict", "json bytes"])
def test_tool_input_and_json_block_text_is_the_general_decoders(value: object, as_json: bool) -> None:
    """The input written by pydantic-core's writer when it holds no float, by json.dumps
    when it does (``1e+16``, ``1e-07``: pydantic-core writes ``1e16``, ``1e-7``)."""
    call = {"toolUse": {"toolUseId": "t1", "name": "f", "input": value}}
    result = {"toolResult": {"toolUseId": "t1", "content": [{"json": value}]}}
    turns = [{"role": "assistant", "content": [call]}, {"role": "user", "content": [result]}]
    payload: dict[str, Any] = {"messages": [{"role": "user", "content": [{"text": "a"}]}, *turns]}
    source: object = json.dumps(payload).encode() if as_json else payload
    decoded = one_pass_decode.decode_request(source)
    assert decoded is not None
    general = chatcodec.decode_request(BEDROCK, payload)
    assert chatcodec.ChatRequest.model_validate(decoded) == general
    assert decoded["messages"][1]["content"][0]["arguments"] == json.dumps(
        value, ensure_ascii=False, separators=(",", ":")
    )


def test_a_tool_input_with_a_lone_surrogate_is_written_as_the_general_decoder_writes_it() -> None:
    """pydantic-core's writer refuses a lone surrogate; json.dumps writes it as it is."""
    value = {"text": "\ud800"}
    payload = {
        "messages": [{"role": "assistant", "content": [{"toolUse": {"toolUseId": "t", "name": "f", "input": value}}]}]
    }
    decoded = one_pass_decode.decode_request(payload)
    assert decoded is not None
    assert decoded["messages"][0]["content"][0]["arguments"] == '{"text":"\ud800"}'


def test_an_integer_longer_than_the_interpreter_writes_is_left_to_the_general_path() -> None:
    """json.dumps refuses an integer past ``sys.get_int_max_str_digits()`` (pydantic-core's
    writer would write it): the one pass must not succeed where the general path fails."""
    payload = {
        "messages": [
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t", "name": "f", "input": {"n": 10**5000}}}]}
        ]
    }
    with pytest.raises(ValueError, match="digits"):
        one_pass_decode.decode_request(payload)
