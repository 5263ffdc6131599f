"""A Gemini thought signature carried in an Anthropic tool id (``tool_ids.py``).

Gemini 3 answers 400 "Function call is missing a thought_signature in functionCall parts"
when a call comes back without the ``thoughtSignature`` it was given
(https://ai.google.dev/gemini-api/docs/thought-signatures); an Anthropic ``tool_use`` has
no field for it, but every Claude client sends the call's id back exactly (on the
``tool_use`` and on the ``tool_result`` answering it), and Anthropic ids match
``^[a-zA-Z0-9_-]+$`` (the 400 "String should match pattern"). litellm carries the signature
in OpenAI tool-call ids the same way (``__thought__``).
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from chatcodec._providers.anthropic.tool_ids import signed_tool_use_id, split_signed_id
from providers.anthropic.anthropic_support import assert_valid_request

PATTERN = re.compile(r"^[a-zA-Z0-9_-]+$")
SIGNATURE = base64.b64encode(bytes(range(256)) * 2).decode()  # '+', '/' and '=' in it
CALL = {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": SIGNATURE}
GEMINI_ANSWER = {
    "candidates": [{"content": {"role": "model", "parts": [CALL]}, "finishReason": "STOP", "index": 0}],
    "modelVersion": "gemini-3-pro-preview",
}


def _claude_client_second_turn(content: list[dict[str, Any]]) -> dict[str, Any]:
    """What a Claude client sends next: the answer's blocks as they came, a result per call."""
    results = [{"type": "tool_result", "tool_use_id": block["id"], "content": "sunny"} for block in content]
    return {
        "model": "gemini-3-pro-preview",
        "max_tokens": 1024,
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": content},
            {"role": "user", "content": results},
        ],
    }


def test_a_gemini_call_s_signature_rides_in_its_anthropic_tool_id_and_comes_back() -> None:
    losses: list[chatcodec.Loss] = []
    answer = chatcodec.convert_response(
        GEMINI_ANSWER, source="gemini", target="anthropic", on_loss="ignore", losses=losses
    )
    (call,) = answer["content"]
    assert PATTERN.match(call["id"])
    assert not [loss for loss in losses if "thoughtSignature" in loss.what]
    body = chatcodec.convert_request(
        _claude_client_second_turn(answer["content"]), source="anthropic", target="gemini", on_loss="error"
    )
    model_turn, results_turn = body["contents"][1:]
    assert model_turn["parts"][0]["thoughtSignature"] == SIGNATURE
    assert model_turn["parts"][0]["functionCall"]["id"] == results_turn["parts"][0]["functionResponse"]["id"]


def test_a_streamed_gemini_call_s_signature_rides_in_the_tool_use_start() -> None:
    events = list(chatcodec.decode_stream("gemini", [json.dumps([GEMINI_ANSWER]).encode()]))
    # the Gemini answer has no responseId and no usage: the id and counts Anthropic requires
    # are invented, reported as defaults; nothing else may be lost
    wire = list(chatcodec.encode_stream("anthropic", events, on_loss={"default": "ignore", "*": "error"}))
    start = next(event for event in wire if event["type"] == "content_block_start")
    assert PATTERN.match(start["content_block"]["id"])
    read = [event for event in chatcodec.decode_stream("anthropic", wire) if event.type == "tool_call_start"]
    assert read[0].provider_metadata == {"gemini": {"thoughtSignature": SIGNATURE}}


def test_an_anthropic_body_with_signed_ids_reads_and_writes_back_unchanged() -> None:
    signed = signed_tool_use_id("toolu_01A", SIGNATURE)
    call = {"type": "tool_use", "id": signed, "name": "get_weather", "input": {"city": "Paris"}}
    body = _claude_client_second_turn([call])
    request = chatcodec.decode_request("anthropic", body)
    assert request.messages[1].content[0].id == "toolu_01A"  # type: ignore[union-attr,index]
    assert request.messages[2].content[0].tool_use_id == "toolu_01A"  # type: ignore[union-attr,index]
    assert chatcodec.encode_request("anthropic", request, on_loss="error") == body
    assert_valid_request(body)
    orphan = {**body, "messages": [body["messages"][0], body["messages"][2]]}  # the call is not in the body
    assert chatcodec.encode_request("anthropic", chatcodec.decode_request("anthropic", orphan)) == orphan


def test_an_id_with_no_signature_is_left_alone() -> None:
    for wire_id in ("toolu_01A", "a__thought__", "__thought__x", "a__thought__x_zz"):
        assert split_signed_id(wire_id) == (wire_id, None)


@given(st.from_regex(PATTERN, fullmatch=True), st.text(min_size=1))
def test_a_signed_id_matches_anthropic_s_pattern_and_splits_back_exactly(sent: str, signature: str) -> None:
    signed = signed_tool_use_id(sent, signature)
    assert PATTERN.match(signed)
    assert split_signed_id(signed) == (sent, signature)
