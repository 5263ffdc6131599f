"""The Anthropic one-pass sides (issue 25): the encode side as the bench uses it, and the
decode side against the general decoder."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import chatcodec
from chatcodec import one_pass
from chatcodec.losses import LossRecorder
from chatcodec.providers.anthropic import one_pass as anthropic_one_pass
from chatcodec.providers.anthropic.parts import arguments_text
from chatcodec.providers.kit import compact_json


def test_the_bench_options_take_the_one_pass() -> None:
    """The bench converts with ``api_version`` given (its anchors' version): the one pass,
    not the general path, must be what it times."""
    payload = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 5}
    assert one_pass.convert_request(payload, "openai-chat", "anthropic", {"api_version": "2023-06-01"}) is not None
    assert one_pass.convert_request(payload, "openai-chat", "anthropic", {"unsigned_thinking": "text"}) is None


# --- the decode side (anthropic -> canonical dicts) ------------------------------------


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


def _decoded(payload: object) -> dict[str, Any] | None:
    decoded: dict[str, Any] | None = anthropic_one_pass.decode_request(payload)
    return decoded


def test_the_decode_side_gives_the_general_decoders_request_in_every_input_form() -> None:
    payload = _session()
    general = chatcodec.decode_request("anthropic", payload)
    text = json.dumps(payload)
    for form in (payload, text, text.encode()):
        decoded = _decoded(json.loads(text) if form is payload else form)
        assert decoded is not None
        typed = chatcodec.ChatRequest.model_validate(decoded)
        assert typed == general
        assert typed.model_dump_json() == general.model_dump_json()


def test_the_decode_side_keeps_the_markers_the_general_decoder_sets() -> None:
    """``is_error: false`` spelled out, a user turn after results kept apart, and the API
    version a sampling setting shows (``rules.version_shown``): each on its object."""
    decoded = _decoded(_session())
    assert decoded is not None
    messages = decoded["messages"]
    assert [message["role"] for message in messages] == ["system", "user", "assistant", "tool", "user"]
    assert messages[3]["content"][0]["provider_metadata"] == {"anthropic": {"_is_error": False}}
    assert messages[4]["provider_metadata"] == {"anthropic": {"_separate": True}}
    assert decoded["provider_options"] == {"anthropic": {"_api_version": "2023-06-01"}}
    assert decoded["temperature"] == 1.0
    assert type(decoded["temperature"]) is float


def test_the_argument_text_is_the_general_decoders_spelling() -> None:
    """The decode side writes ``tool_use.input`` with the kit's ``compact_json`` so it loads
    no model; it must stay the spelling ``parts.arguments_text`` gives."""
    tool_input = {"path": "é/ü", "n": [1.5, 10**20, -0.0, True, None], "nested": {"a": "\u2028"}}
    assert compact_json(tool_input) == arguments_text(tool_input)


def _with_first_turn(block: dict[str, Any]) -> dict[str, Any]:
    payload = _session()
    payload["messages"][0]["content"].append(block)
    return payload


DECLINED: dict[str, dict[str, Any]] = {
    "a cache marker": _with_first_turn({"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}),
    "citations": _with_first_turn({"type": "text", "text": "x", "citations": []}),
    "a document": _with_first_turn(
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "d"}}
    ),
    "an empty media type": _with_first_turn(
        {"type": "image", "source": {"type": "base64", "media_type": "", "data": "AA=="}}
    ),
    "a system turn in messages": {**_session(), "messages": [{"role": "system", "content": "s"}]},
    "an output config": {**_session(), "output_config": {"effort": "low"}},
    "a null field": {**_session(), "temperature": None},
    "an unknown field set to null": {**_session(), "service_tier": None},
    "an empty tool name": {**_session(), "tools": [{"name": "", "input_schema": {}}]},
    "a tool without input_schema": {**_session(), "tools": [{"name": "t"}]},
    "a server tool": {**_session(), "tools": [{"type": "web_search_20250305", "name": "web_search"}]},
    "a rewritten tool id": {
        **_session(),
        "messages": [
            {"role": "assistant", "content": [{"type": "tool_use", "id": "cc-a_2eb", "name": "f", "input": {}}]}
        ],
    },
    "an empty stop list": {**_session(), "stop_sequences": []},
}
"""Shapes the general decoder reads with a marker, an opaque part or an error: the decode
side leaves them to it."""


@pytest.mark.parametrize("shape", list(DECLINED))
def test_the_decode_side_declines_what_only_the_general_decoder_reads(shape: str) -> None:
    assert _decoded(DECLINED[shape]) is None


# --- the encode side: other providers' bags on parts (a Gemini session) -------------------


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
        "tools": [{"name": "read", "parameters": {"type": "object"}}],
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


def _encoded(request: dict[str, Any]) -> tuple[str, list[chatcodec.Loss]] | None:
    recorder = LossRecorder()
    body = anthropic_one_pass.encode_request(copy.deepcopy(request), recorder)
    if body is None:
        return None
    losses: list[chatcodec.Loss] = []
    recorder.settle("ignore", losses)
    return json.dumps(body), losses


def _general(request: dict[str, Any]) -> tuple[str, list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    typed = chatcodec.ChatRequest.model_validate(request)
    return json.dumps(chatcodec.encode_request("anthropic", typed, on_loss="ignore", losses=losses)), losses


def test_other_providers_bags_on_parts_are_reported_as_the_general_encoder_reports_them() -> None:
    """Bags on a message, a text, calls and a result (a thought signature too: Anthropic
    has no place for it) reported in order; a result's name that its call gives is no loss."""
    request = _gemini_session()
    found = _encoded(request)
    assert found is not None
    assert found == _general(request)
    assert [(loss.path, loss.what) for loss in found[1]] == [
        ("$.messages[0]", "gemini data ['role']"),
        ("$.messages[1].content[0]", "gemini data ['thought']"),
        ("$.messages[1].content[1]", "thinking part"),
        ("$.messages[1].content[2]", "gemini data ['y']"),
        ("$.messages[1].content[2].name", "tool name 'a.b'"),
        ("$.messages[1].content[3]", "gemini data ['thoughtSignature']"),
        ("$.messages[2].content[0]", "gemini data ['w']"),
    ]


def test_a_result_name_is_compared_with_the_last_call_of_its_id() -> None:
    """``request._names`` maps every call id of the request to its last call's name: a
    later call reusing an id with another name makes the earlier result's name a loss,
    which the one pass leaves to the general encoder; the same name is taken."""
    same = _gemini_session({"role": "assistant", "content": [_call("c2", "read")]})
    assert _encoded(same) == _general(same)
    renamed = _gemini_session({"role": "assistant", "content": [_call("c2", "other")]})
    assert any(loss.what == "tool name" for loss in _general(renamed)[1])
    assert _encoded(renamed) is None


@pytest.mark.parametrize(
    "part",
    [
        {**_call("c1"), "provider_metadata": {"anthropic": {"x": 1}}},
        {**_call("c1"), "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "a", "provider_metadata": {"anthropic": {"x": 1}}},
    ],
)
def test_a_part_with_this_providers_bag_or_a_cache_marker_is_left_to_the_general_encoder(part: dict[str, Any]) -> None:
    request = _gemini_session()
    request["messages"][1]["content"].append(part)
    assert _encoded(request) is None


def test_a_result_name_no_call_gives_is_left_to_the_general_encoder() -> None:
    request = _gemini_session()
    request["messages"][2]["content"][1]["name"] = "write"
    assert _encoded(request) is None
