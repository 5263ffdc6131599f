"""``tool_use.input`` read as argument text: byte for byte ``json.dumps`` compact with
non-ASCII kept, whether the closed request schema took the body (an input holding no float
is then written by pydantic-core, one holding a float marked and written by ``json``) or
the full wire shapes did, from a dict or from JSON text, on the common call and on a call
with a cache marker or an id Anthropic rejects."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatcodec
from chatcodec._providers.anthropic import request as anthropic_request

INPUTS: list[dict[str, Any]] = [
    {"path": "notes/a.md", "limit": 100, "ok": True, "none": None, "list": [1, "x", [False]]},
    {"text": 'caf\u00e9 \u2603 \U0001f600 "quoted" back\\slash \n\t\x00\x1f\x7f \u2028'},
    {"f": 1.5, "big": 1e16, "small": 1e-7, "tiny": 5e-5, "negative": -0.0},
    {"nested": {"deep": [{"f": 2.5}]}},
    {"big": 123456789012345678901234567890, "minus": -(2**70)},
    {"first": int("7" * 3000), "second": int("8" * 3000)},  # written past the digit limit's length
    {"lone": "\ud800"},
    {},
]

CALLS: list[dict[str, Any]] = [
    {"type": "tool_use", "id": "toolu_01", "name": "f"},
    {"type": "tool_use", "id": "toolu_01", "name": "f", "cache_control": {"type": "ephemeral"}},
    {"type": "tool_use", "id": "call.01", "name": "f"},  # an id Anthropic rejects: the general branch
]


class _Refusing:
    """A closed schema that takes nothing: every body goes to the full wire shapes."""

    def validate(self, payload: object) -> None:
        del payload


def _payload(call: dict[str, Any], tool_input: dict[str, Any]) -> dict[str, Any]:
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "text", "text": "on it"}, {**call, "input": tool_input}]},
        ],
    }


@pytest.mark.parametrize("call", CALLS, ids=["common", "cache marker", "rejected id"])
@pytest.mark.parametrize("closed", [True, False], ids=["closed schema", "full shapes"])
def test_tool_input_is_written_byte_for_byte_as_compact_json(
    closed: bool, call: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    if not closed:
        monkeypatch.setattr(anthropic_request, "COMMON_REQUEST", _Refusing())
    for tool_input in INPUTS:
        payload = _payload(call, tool_input)
        assert (anthropic_request.COMMON_REQUEST.validate(payload) is not None) is closed
        expected = json.dumps(tool_input, ensure_ascii=False, separators=(",", ":"))
        canonical = chatcodec.decode_request("anthropic", payload)
        part = canonical.messages[1].content[1]
        assert isinstance(part, chatcodec.ToolUsePart)
        assert part.arguments == expected, tool_input
        written = chatcodec.convert_request(payload, source="anthropic", target="openai-chat", on_loss="ignore")
        assert written["messages"][1]["tool_calls"][0]["function"]["arguments"] == expected


def test_the_same_from_json_text() -> None:
    for tool_input in INPUTS[:5]:  # what JSON text can spell (no lone surrogate, no overlong integer)
        body = json.dumps(_payload(CALLS[0], tool_input)).encode()
        written = chatcodec.convert_request(body, source="anthropic", target="openai-chat")
        arguments = written["messages"][1]["tool_calls"][0]["function"]["arguments"]
        assert arguments == json.dumps(tool_input, ensure_ascii=False, separators=(",", ":"))
