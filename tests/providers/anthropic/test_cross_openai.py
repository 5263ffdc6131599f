"""OpenAI Chat <-> Anthropic through the canonical model (the ``openai-chat`` codec is
registered): what a proxy between the two sends is valid for the target's SDK, follows
the target's rules, and what cannot be carried is reported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from providers.anthropic.anthropic_support import (
    REQUEST_FIXTURES,
    assert_valid_request,
    assert_valid_response,
    assert_valid_stream,
    load_json,
    normalized_arguments,
)

OPENAI = Path(__file__).resolve().parents[2] / "fixtures" / "openai-chat"
OPENAI_REQUESTS = sorted(path.name for path in (OPENAI / "request").glob("*.json"))
OPENAI_RESPONSES = sorted(path.name for path in (OPENAI / "response").glob("*.json"))
OPENAI_STREAMS = sorted(path.name for path in (OPENAI / "stream").iterdir())


def _openai(kind: str, name: str) -> Any:
    path = OPENAI / kind / name
    return path.read_text(encoding="utf-8") if kind == "stream" else json.loads(path.read_text(encoding="utf-8"))


def _convert_request(payload: Any, source: str, target: str) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    """The conversion as a proxy makes it: into Anthropic with the ``max_tokens`` it
    requires set by the caller (OpenAI requests often have none)."""
    losses: list[chatcodec.Loss] = []
    options = {"max_tokens": 1024} if target == "anthropic" else None
    body = chatcodec.convert_request(
        payload, source=source, target=target, on_loss="ignore", losses=losses, options=options
    )
    return body, losses


@pytest.mark.parametrize("name", OPENAI_REQUESTS)
def test_openai_requests_become_valid_anthropic_requests(name: str) -> None:
    body, losses = _convert_request(_openai("request", name), "openai-chat", "anthropic")
    assert_valid_request(body)
    assert all(loss.path.startswith("$.") for loss in losses)


def test_parallel_tool_results_share_one_user_turn() -> None:
    body, losses = _convert_request(_openai("request", "parallel_tool_results.json"), "openai-chat", "anthropic")
    roles = [message["role"] for message in body["messages"]]
    assert roles == ["user", "assistant", "user"]
    results = body["messages"][2]["content"]
    calls = [block["id"] for block in body["messages"][1]["content"] if block["type"] == "tool_use"]
    assert [block["tool_use_id"] for block in results] == calls
    assert losses == []


def test_what_anthropic_cannot_carry_from_openai_is_reported() -> None:
    _, audio = _convert_request(_openai("request", "input_audio_base64.json"), "openai-chat", "anthropic")
    assert "$.messages[0].content[1]" in [loss.path for loss in audio]
    _, json_mode = _convert_request(_openai("request", "response_format_json_object.json"), "openai-chat", "anthropic")
    assert [loss.path for loss in json_mode] == ["$.response_format"]


@pytest.mark.parametrize("name", REQUEST_FIXTURES)
def test_anthropic_requests_through_openai_and_back(name: str) -> None:
    """Through OpenAI and back, a request either comes back whole or the trip out reported
    what OpenAI could not carry; what comes back is always a valid Anthropic request. A
    thinking budget reported going out (OpenAI takes an effort) comes back as the effort's
    budget, reported again: the table's number, not the one sent."""
    payload = load_json("request", name)
    openai_body, lost_going = _convert_request(payload, "anthropic", "openai-chat")
    back, lost_returning = _convert_request(openai_body, "openai-chat", "anthropic")
    assert_valid_request(back)
    reasoning_lost = any(loss.path.startswith("$.reasoning") for loss in lost_going)
    assert [loss for loss in lost_returning if not (reasoning_lost and loss.path.startswith("$.reasoning"))] == []
    if not lost_going and name != "tool_result_text_image_base64.json":
        assert back == payload


def test_tool_result_images_come_back_after_the_results() -> None:
    """OpenAI tool messages take no images, so the openai-chat codec moves them to a user
    message; on the way back that message joins the results' turn, behind them."""
    payload = load_json("request", "tool_result_text_image_base64.json")
    openai_body, _ = _convert_request(payload, "anthropic", "openai-chat")
    back, _ = _convert_request(openai_body, "openai-chat", "anthropic")
    assert [block["type"] for block in back["messages"][2]["content"]] == ["tool_result", "image"]


@pytest.mark.parametrize("name", OPENAI_RESPONSES)
def test_openai_responses_become_valid_anthropic_messages(name: str) -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_response(
        _openai("response", name), source="openai-chat", target="anthropic", on_loss="ignore", losses=losses
    )
    assert_valid_response(body)
    assert "$.created" not in [loss.path for loss in losses]  # the server's clock: nothing the user sent


def test_cached_openai_usage_is_split_for_anthropic() -> None:
    payload = _openai("response", "cached_tokens_usage.json")
    body = chatcodec.convert_response(payload, source="openai-chat", target="anthropic", on_loss="ignore")
    cached = payload["usage"]["prompt_tokens_details"]["cached_tokens"]
    assert cached > 0
    assert body["usage"]["cache_read_input_tokens"] == cached
    assert body["usage"]["input_tokens"] == payload["usage"]["prompt_tokens"] - cached


@pytest.mark.parametrize("name", OPENAI_STREAMS)
def test_an_openai_stream_served_as_anthropic_sse(name: str) -> None:
    """A proxy maps the upstream's events straight to Anthropic events; accumulated, they
    give what converting the upstream's accumulated response would give."""
    events = list(chatcodec.decode_stream("openai-chat", _openai("stream", name)))
    wire = list(chatcodec.encode_stream("anthropic", events, on_loss="ignore"))
    assert_valid_stream(wire)
    streamed = chatcodec.accumulate_stream("anthropic", wire)
    upstream = chatcodec.accumulate_stream("openai-chat", _openai("stream", name))
    body = chatcodec.encode_response("anthropic", upstream, on_loss="ignore")
    non_streamed = chatcodec.decode_response("anthropic", body)
    assert normalized_arguments(streamed) == normalized_arguments(non_streamed)


@pytest.mark.parametrize("target", ["anthropic", "bedrock-converse"])
@pytest.mark.parametrize(
    ("model", "thinking"),
    [
        ("claude-opus-4-6", {"type": "adaptive"}),
        ("claude-sonnet-4-5", {"type": "enabled", "budget_tokens": 1024}),
        ("us.anthropic.claude-3-7-sonnet-20250219-v1:0", {"type": "enabled", "budget_tokens": 1024}),
    ],
)
def test_reasoning_effort_switches_claudes_thinking_on(target: str, model: str, thinking: dict[str, Any]) -> None:
    """Issue 61 (earlier peer cases): OpenAI's ``reasoning_effort`` asks for reasoning, and
    Claude reasons only with ``thinking`` on (Anthropic "Extended thinking"; adaptive
    thinking on 4.6+, where the effort goes in ``output_config.effort``, a budget before):
    an effort alone would leave Claude answering without thinking."""
    wire = {"model": model, "reasoning_effort": "low", "messages": [{"role": "user", "content": "hi"}]}
    body = chatcodec.convert_request(wire, source="openai-chat", target=target, on_loss="ignore")
    sent = body["thinking"] if target == "anthropic" else body["additionalModelRequestFields"]["thinking"]
    assert sent == thinking
