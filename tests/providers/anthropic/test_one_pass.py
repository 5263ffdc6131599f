"""The Anthropic one-pass sides (issue 25): the encode side as the bench uses it, and the
decode side against the general decoder."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatcodec
from chatcodec import one_pass
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
