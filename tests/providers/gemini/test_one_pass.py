"""Gemini's side of the one-pass path (issue 25): the shapes it takes, held to the
general path on each (the conformance laws check every pair and side on recordings and
generated requests; these name the Gemini rules the pass writes itself)."""

from __future__ import annotations

import copy
import json
from typing import Any

import chatcodec
from chatcodec.losses import LossRecorder
from chatcodec.providers.gemini import one_pass
from conformance.providers import PROVIDER

GEMINI = PROVIDER["gemini"]


def _general_encode(request: dict[str, Any], options: dict[str, Any] | None = None) -> tuple[str, list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    typed = chatcodec.ChatRequest.model_validate(request)
    body = chatcodec.encode_request("gemini", typed, on_loss="ignore", losses=losses, options=options)
    return json.dumps(body), losses


def _one_pass_encode(request: dict[str, Any]) -> tuple[str, list[chatcodec.Loss]]:
    recorder = LossRecorder()
    body = one_pass.encode_request(copy.deepcopy(request), recorder)
    assert body is not None, "the one pass declined"
    return json.dumps(body), recorder.losses


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


def test_one_pass_reports_the_unsigned_first_call_of_the_current_turn_for_gemini_3() -> None:
    request = _session("gemini-3-pro-preview")
    body, losses = _one_pass_encode(request)
    assert (body, losses) == _general_encode(request)
    signature = [loss.path for loss in losses if loss.what == "thought signature"]
    assert signature == ["$.messages[2].content[1]"]


def test_one_pass_leaves_gemini_2_calls_unsigned_and_unreported() -> None:
    request = _session("gemini-2.5-flash")
    body, losses = _one_pass_encode(request)
    assert (body, losses) == _general_encode(request)
    assert not any(loss.what == "thought signature" for loss in losses)


def test_one_pass_sends_the_sentinel_when_missing_signature_is_skip() -> None:
    request = _session("gemini-3-pro-preview")
    request["provider_options"] = {"gemini": {"missing_signature": "skip"}}
    body, losses = _one_pass_encode(request)
    assert (body, losses) == _general_encode(request)
    assert '"thoughtSignature": "skip_thought_signature_validator"' in body


def test_one_pass_guesses_and_reports_the_media_type_of_a_url_image() -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}
    request = {"messages": [{"role": "user", "content": [image]}]}
    body, losses = _one_pass_encode(request)
    assert (body, losses) == _general_encode(request)
    assert '"mimeType": "image/png"' in body
    assert losses[0].what == "media type"


def test_one_pass_declines_a_developer_message() -> None:
    request = {"messages": [{"role": "developer", "content": "x"}, {"role": "user", "content": "y"}]}
    assert one_pass.encode_request(request, LossRecorder()) is None


def test_one_pass_reads_an_sdk_dump_spelled_in_snake_case_with_its_marker() -> None:
    payload = GEMINI.load("request", "file_data_uri.json")
    decoded = one_pass.decode_request(copy.deepcopy(payload))
    assert decoded is not None
    assert decoded["provider_options"]["gemini"]["_snake"]
    assert chatcodec.ChatRequest.model_validate(decoded) == chatcodec.decode_request("gemini", payload)


def test_one_pass_makes_up_call_ids_and_pairs_results_by_position_as_the_general_decoder() -> None:
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
    decoded = one_pass.decode_request(payload)
    assert decoded is not None
    general = chatcodec.decode_request("gemini", payload)
    assert chatcodec.ChatRequest.model_validate(decoded) == general
    assert [result["tool_use_id"] for result in decoded["messages"][2]["content"]] == [
        "gemini_call_1_0",
        "gemini_call_1_1",
    ]
    assert decoded["messages"][3]["provider_metadata"] == {"gemini": {"_joined": True}}


ARGUMENT_TEXTS = [
    '{"path":"a","n":1,"ok":true,"none":null}',
    '{"big":123456789012345678901234567890}',
    '{"f":1.5}',
    '{"f":1e400}',
    '{"deep":{"f":-1e999}}',
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


def test_arguments_read_in_one_step_are_what_parsed_object_reads() -> None:
    """The encode side reads flat argument objects without the general reader's
    infinity check (issue 25); every text must read as ``results.parsed_object`` reads it."""
    from chatcodec.providers.gemini.one_pass_encode import _arguments  # pyright: ignore[reportPrivateUsage]
    from chatcodec.providers.gemini.results import parsed_object

    for text in ARGUMENT_TEXTS:
        assert _arguments(text) == parsed_object(text), text
    assert _arguments('{"f":1e400}') is None


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


def test_call_args_are_written_as_the_general_decoder_writes_them() -> None:
    """Issue 25: ``args`` with no float are written by pydantic-core's ``to_json``; a float
    (``1e+16``), a lone surrogate or a long text goes to ``kit.compact_json``: the text
    is byte for byte the general decoder's either way."""
    for args in CALL_ARGS:
        payload = {
            "contents": [
                {"role": "user", "parts": [{"text": "go"}]},
                {"role": "model", "parts": [{"functionCall": {"name": "f", "args": args, "id": "c1"}}]},
            ]
        }
        decoded = one_pass.decode_request(payload)
        assert decoded is not None, args
        arguments = decoded["messages"][1]["content"][0]["arguments"]
        assert arguments == json.dumps(args, ensure_ascii=False, separators=(",", ":")), args
        assert chatcodec.ChatRequest.model_validate(decoded) == chatcodec.decode_request("gemini", payload)
