"""Claude's signed thinking carried to a Responses client in ``encrypted_content`` (the
``encrypted_reasoning`` option) and restored exactly from the client's next request."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec import PayloadError

from .responses_support import assert_response_matches_sdk, assert_stream_matches_sdk

FIXTURES = Path(__file__).parents[2] / "fixtures"
SEALING = {"encrypted_reasoning": True}


def _anthropic(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "anthropic/response" / name).read_text())
    return data


def _output(name: str, options: dict[str, Any] | None = SEALING) -> list[dict[str, Any]]:
    wire = chatcodec.convert_response(
        _anthropic(name), source="anthropic", target="openai-responses", on_loss="ignore", options=options
    )
    assert_response_matches_sdk(wire)
    output: list[dict[str, Any]] = wire["output"]
    return output


def _next_request(output: list[dict[str, Any]]) -> dict[str, Any]:
    """The client's next turn: the items it was given back unchanged, and the call's output."""
    calls = [item for item in output if item["type"] == "function_call"]
    results = [{"type": "function_call_output", "call_id": call["call_id"], "output": "ok"} for call in calls]
    user = {"role": "user", "content": "Where am I?"}
    return {"model": "claude-sonnet-4-20250514", "input": [user, *output, *results]}


def test_claudes_signed_thinking_is_sealed_into_encrypted_content_when_asked() -> None:
    output = _output("thinking_text_tool_use.json")
    reasoning = output[0]
    assert reasoning["type"] == "reasoning"
    assert reasoning["encrypted_content"].startswith("chatcodec.reasoning.v1:")
    assert reasoning["summary"][0]["text"].startswith("The user is asking")


def test_without_the_option_the_answer_is_unchanged() -> None:
    output = _output("thinking_text_tool_use.json", options=None)
    assert "encrypted_content" not in output[0]


def test_the_next_request_restores_the_signed_block_before_the_tool_use_exactly() -> None:
    original = _anthropic("thinking_text_tool_use.json")["content"]
    request = _next_request(_output("thinking_text_tool_use.json"))
    losses: list[chatcodec.Loss] = []
    sent = chatcodec.convert_request(
        request, source="openai-responses", target="anthropic", on_loss="ignore", losses=losses
    )
    assert not [loss for loss in losses if "thinking" in loss.what or "reasoning" in loss.what]
    turn = sent["messages"][1]["content"]
    assert turn[0] == {"type": "thinking", "thinking": original[0]["thinking"], "signature": original[0]["signature"]}
    assert [block["type"] for block in turn] == ["thinking", "text", "tool_use"]


def test_redacted_thinking_is_sealed_and_restored() -> None:
    original = _anthropic("redacted_thinking.json")["content"]
    output = _output("redacted_thinking.json")
    redacted = [item for item in output if item["type"] == "reasoning" and not item["summary"]]
    assert redacted, "the redacted block has an item of its own, with no text to show"
    request = _next_request(output)
    sent = chatcodec.convert_request(request, source="openai-responses", target="anthropic", on_loss="ignore")
    blocks = [block for block in sent["messages"][1]["content"] if block["type"] == "redacted_thinking"]
    assert blocks == [block for block in original if block["type"] == "redacted_thinking"]


def test_the_stream_seals_the_same_items_as_the_answer() -> None:
    converted = chatcodec.convert_stream(
        [(FIXTURES / "anthropic/stream/thinking_signature_delta.sse").read_bytes()],
        source="anthropic",
        target="openai-responses",
        on_loss="ignore",
        options=SEALING,
    )
    text = b"".join(converted).decode()
    events = [json.loads(line[len("data: ") :]) for line in text.splitlines() if line.startswith("data: ")]
    assert_stream_matches_sdk(events)
    done = [event["item"] for event in events if event["type"] == "response.output_item.done"]
    final = events[-1]["response"]["output"]
    assert done[0]["encrypted_content"].startswith("chatcodec.reasoning.v1:")
    assert final[0] == done[0]
    restored = chatcodec.decode_response("openai-responses", events[-1]["response"]).message.parts[0]
    assert isinstance(restored, chatcodec.ThinkingPart)
    assert (restored.provider, bool(restored.signature)) == ("anthropic", True)


def test_sealed_reasoning_is_never_sent_to_openai() -> None:
    request = _next_request(_output("thinking_text_tool_use.json"))
    losses: list[chatcodec.Loss] = []
    sent = chatcodec.convert_request(
        request, source="openai-responses", target="openai-responses", on_loss="ignore", losses=losses
    )
    assert all(item.get("type") != "reasoning" for item in sent["input"])
    assert "include" not in sent
    assert any("reasoning from anthropic" in loss.what for loss in losses)


def _sealed_item(payload: bytes) -> dict[str, Any]:
    content = "chatcodec.reasoning.v1:" + base64.urlsafe_b64encode(payload).decode()
    return {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": content}


@pytest.mark.parametrize(
    ("payload", "rule"),
    [
        (b"not json", "not base64 of a JSON object"),
        (b'{"type": "text", "text": "x"}', "not a thinking part"),
        (b'{"type": "thinking", "text": "x", "cache_control": {}}', "unexpected field 'cache_control'"),
        (b'{"type": "thinking", "provider": "openai-responses"}', "never sealed"),
        (b'{"type": "thinking", "signature": 1}', "signature is not a string"),
    ],
)
def test_a_malformed_seal_is_refused_at_its_path(payload: bytes, rule: str) -> None:
    request = {"model": "m", "input": [{"role": "user", "content": "hi"}, _sealed_item(payload)]}
    with pytest.raises(PayloadError, match=rule) as raised:
        chatcodec.decode_request("openai-responses", request)
    assert raised.value.path == "$.input[1].encrypted_content"


def test_a_gemini_calls_signature_is_sealed_before_the_call_and_read_back_onto_it() -> None:
    signature = base64.b64encode(b"gemini signs the call").decode()
    call = chatcodec.ToolUsePart(
        id="call_1", name="get", arguments="{}", provider_metadata={"gemini": {"thoughtSignature": signature}}
    )
    response = chatcodec.ChatResponse(  # a creation time, which Responses requires: nothing invented
        id="r", model="gemini-3-pro-preview", created=1, message=chatcodec.AssistantMessage(content=[call])
    )
    wire = chatcodec.encode_response("openai-responses", response, on_loss="error", options=SEALING)
    assert [item["type"] for item in wire["output"]] == ["reasoning", "function_call"]
    read = chatcodec.decode_response("openai-responses", wire).message.parts
    assert len(read) == 1
    assert read[0].provider_metadata is not None
    assert read[0].provider_metadata["gemini"] == {"thoughtSignature": signature}


def test_a_sealed_stream_accumulates_to_the_sealed_parts() -> None:
    converted = chatcodec.convert_stream(
        [(FIXTURES / "anthropic/stream/thinking_signature_delta.sse").read_bytes()],
        source="anthropic",
        target="openai-responses",
        on_loss="ignore",
        options=SEALING,
    )
    thinking = chatcodec.accumulate_stream("openai-responses", b"".join(converted)).message.parts[0]
    assert isinstance(thinking, chatcodec.ThinkingPart)
    assert (thinking.provider, bool(thinking.signature)) == ("anthropic", True)
