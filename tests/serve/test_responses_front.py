"""The Responses front is an Open Responses server: the spec's compliance scenarios
(https://github.com/openresponses/openresponses, ``src/lib/compliance-tests.ts``: basic,
streaming, system prompt, tool calling, streamed tool calling, image input, multi-turn)
against every upstream, each answer and streamed event checked against the spec's
published types; ``previous_response_id`` against the opt-in store, or refused."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import openai
import pytest

from chatcodec.serve import ServeConfig
from serve.harness import FakeUpstream, bedrock_stream, fixture_bytes, fixture_json, proxy
from serve.open_responses import assert_events, assert_resource, sse_events

RED_HEART = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAABmklEQVR42tyWAaTyUBzFew/eG4AHz+"
    "MBSAHKBiJRGFKwIgQQJKLUIioBIhCAiCAAEizAQIAECaASqFFJq84nudjnaqvuPnxzgP9xfrq5938csPn7PwHTKSoViCIEAYEAMh"
    "moKsU2mUCWEQqB5xEMIp/HaGQG2G6RSuH9HQ7H34rFrtPbdz4jl6PbwmEsl3QA1mt4vcRKk8dz9eg6IpF7tt9fzGY0gCgafFRFo5"
    "Blc5vLhf3eCOj1yNhM5GRMVK0aATxPZoz09YXjkQDmczJgquGQAPp9WwCNBgG027YACgUC6HRsAZRKBDAY2AJoNv/ZnwzA6WSczn"
    "G3p4UAymXGAEkyXrTFAh8fLAGqagQAyGaZpYsi7bHTNPz8MEj//LxuFPo+UBS8vb0KaLXubrRa7aX0RMLCykwmn0z3+XA4WACcTp"
    "Ckh9MFAZpmuVXo+mO/w+/HZvNgbblcUCxaSo/Hyck80Yu6XXDcvfVZr79cvMZjuN2U9O9vKAqjZrfbIZ0mV4TUi9Xqz6jddNy//7"
    "+e3n8Fhf/Llo2kxi8AQyGRoDkmAhAAAAAASUVORK5CYII="
)
"""The suite's image: a red heart icon on a white background."""
WEATHER_TOOL: dict[str, Any] = {
    "type": "function",
    "name": "get_weather",
    "description": "Get the current weather for a location",
    "parameters": {
        "type": "object",
        "properties": {"location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"}},
        "required": ["location"],
    },
}


def _user(content: Any) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": content}


SCENARIOS: dict[str, dict[str, Any]] = {
    "basic-response": {"input": [_user("Say hello in exactly 3 words.")]},
    "system-prompt": {
        "input": [
            {"type": "message", "role": "system", "content": "You are a pirate. Always respond in pirate speak."},
            _user("Say hello."),
        ]
    },
    "image-input": {
        "input": [
            _user(
                [
                    {"type": "input_text", "text": "What do you see in this image? Answer in one sentence."},
                    {"type": "input_image", "image_url": RED_HEART},
                ]
            )
        ]
    },
    "multi-turn": {
        "input": [
            _user("My name is Alice."),
            {
                "type": "message",
                "role": "assistant",
                "content": "Hello Alice! Nice to meet you. How can I help you today?",
            },
            _user("What is my name?"),
        ]
    },
}
"""The text scenarios' requests (``model`` and ``stream`` are added), as the suite sends them."""
TOOL_REQUEST: dict[str, Any] = {"input": [_user("What's the weather like in San Francisco?")], "tools": [WEATHER_TOOL]}
"""The tool calling scenarios' request."""
SENT: dict[str, str] = {
    "basic-response": "exactly 3 words",
    "system-prompt": "pirate speak",
    "image-input": "iVBORw0KGgo",
    "multi-turn": "Nice to meet you",
}
"""What each scenario's upstream request must carry of the caller's."""


@dataclass(frozen=True)
class Upstream:
    """One upstream's recorded answers for the scenarios."""

    base: str  # the path its SDK's base_url adds (OpenAI's /v1)
    text: str
    tool: str
    text_stream: str
    tool_stream: str
    stream_type: str = "text/event-stream"
    stream_body: Callable[[str, str], bytes] = lambda provider, name: fixture_bytes(provider, "stream", name)


def _bedrock_stream(provider: str, name: str) -> bytes:
    return bedrock_stream(name)


UPSTREAMS: dict[str, Upstream] = {
    "openai-chat": Upstream(
        "/v1", "text_stop.json", "single_tool_call.json", "text_with_usage_obfuscation.sse", "single_tool_call_args.sse"
    ),
    "anthropic": Upstream(
        "",
        "cache_read_and_creation_usage.json",
        "thinking_text_tool_use.json",
        "text_basic.sse",
        "tool_use_input_json_delta.sse",
    ),
    "openai-responses": Upstream(
        "/v1",
        "reasoning_summary_text.json",
        "function_call_no_reasoning.json",
        "text_output.sse",
        "deepseek_reasoning_and_function_call.sse",
    ),
    "gemini": Upstream(
        "", "text_stop.json", "function_call_thought_signature.json", "text.sse", "function_call_thought_signature.sse"
    ),
    "bedrock-converse": Upstream(
        "",
        "gpt_oss_reasoning.json",
        "tool_use_with_nova_thinking_text.json",
        "gpt_oss_empty_text_delta.jsonl",
        "parallel_tool_use_handwritten.jsonl",
        "application/vnd.amazon.eventstream",
        _bedrock_stream,
    ),
    "ollama": Upstream(
        "",
        "answer_after_tool_result.json",
        "tool_call_no_id.json",
        "text.jsonl",
        "cloud_tool_call_with_id.jsonl",
        "application/x-ndjson",
    ),
}


pytestmark = pytest.mark.usefixtures("fresh_fake")


def _post(origin: str, request: dict[str, Any], *, stream: bool) -> httpx.Response:
    body = {"model": "m", **request, "stream": stream}
    return httpx.post(f"{origin}/v1/responses", json=body, headers={"authorization": "Bearer k"}, timeout=30)


def _has_call(resource: Any) -> bool:
    return any(item.type == "function_call" for item in resource.output)


@pytest.mark.parametrize("upstream", UPSTREAMS)
def test_every_text_scenario_answers_a_spec_resource_plain_and_streamed(fake: FakeUpstream, upstream: str) -> None:
    recorded = UPSTREAMS[upstream]
    with proxy("openai-responses", upstream, fake.base + recorded.base) as origin:
        for name, request in SCENARIOS.items():
            fake.reply(fixture_json(upstream, "response", recorded.text))
            answer = _post(origin, request, stream=False)
            assert answer.status_code == 200, answer.text
            resource = assert_resource(answer.json())
            assert resource.output
            assert resource.status == "completed", name
            assert resource.completed_at is not None
            assert SENT[name] in json.dumps(fake.last.body), name

            fake.reply(recorded.stream_body(upstream, recorded.text_stream), content_type=recorded.stream_type)
            streamed = _post(origin, request, stream=True)
            assert streamed.status_code == 200, streamed.text
            final = assert_events(sse_events(streamed.text))
            assert final.status == "completed", name
            assert SENT[name] in json.dumps(fake.last.body), name


@pytest.mark.parametrize("upstream", UPSTREAMS)
def test_tool_calling_answers_a_function_call_with_status_plain_and_streamed(fake: FakeUpstream, upstream: str) -> None:
    recorded = UPSTREAMS[upstream]
    with proxy("openai-responses", upstream, fake.base + recorded.base) as origin:
        fake.reply(fixture_json(upstream, "response", recorded.tool))
        answer = _post(origin, TOOL_REQUEST, stream=False).json()
        resource = assert_resource(answer)
        assert _has_call(resource)
        assert [tool["name"] for tool in answer["tools"]] == ["get_weather"]  # the request's tools echoed

        fake.reply(recorded.stream_body(upstream, recorded.tool_stream), content_type=recorded.stream_type)
        events = sse_events(_post(origin, TOOL_REQUEST, stream=True).text)
    final = assert_events(events)
    assert _has_call(final)
    kinds = [event["type"] for event in events]
    assert "response.function_call_arguments.delta" in kinds
    assert "response.function_call_arguments.done" in kinds
    for moment in ("added", "done"):
        calls = [
            event["item"]
            for event in events
            if event["type"] == f"response.output_item.{moment}" and event["item"]["type"] == "function_call"
        ]
        assert calls
        assert {call["status"] for call in calls} == {"in_progress" if moment == "added" else "completed"}


def test_the_request_settings_are_echoed_with_the_servers_defaults(fake: FakeUpstream) -> None:
    """What the caller set comes back; what it left out comes back as OpenAI echoes it."""
    request = {
        **SCENARIOS["basic-response"],
        "instructions": "Be brief.",
        "temperature": 0.2,
        "top_p": 0.9,
        "metadata": {"ticket": "42"},
        "tool_choice": "none",
        "max_output_tokens": 64,
    }
    recorded = fixture_json("anthropic", "response", "cache_read_and_creation_usage.json")
    with proxy("openai-responses", "anthropic", fake.base) as origin:
        fake.reply(recorded)
        answer = _post(origin, request, stream=False).json()
    assert_resource(answer)
    echoed = {key: answer[key] for key in ("instructions", "temperature", "top_p", "metadata", "tool_choice")}
    assert echoed == {key: request[key] for key in echoed}
    assert answer["max_output_tokens"] == 64
    assert answer["truncation"] == "disabled"
    assert answer["text"] == {"format": {"type": "text"}, "verbosity": "medium"}
    assert (answer["store"], answer["background"], answer["previous_response_id"]) == (False, False, None)
    assert answer["model"] == recorded["model"]  # the model that answered


def test_the_answer_has_the_servers_own_id_and_its_items_are_named_from_it(fake: FakeUpstream) -> None:
    with proxy("openai-responses", "openai-chat", f"{fake.base}/v1") as origin:
        ids = []
        for _ in range(2):
            fake.reply(fixture_json("openai-chat", "response", "single_tool_call.json"))
            answer = _post(origin, TOOL_REQUEST, stream=False).json()
            ids.append((answer["id"], answer["output"][0]["id"]))
    assert all(answer_id.startswith("resp_") and item_id.startswith("fc_") for answer_id, item_id in ids)
    assert ids[0][0] != ids[1][0]
    assert ids[0][1] != ids[1][1]


def test_previous_response_id_without_a_store_is_refused_with_a_400(fake: FakeUpstream) -> None:
    with proxy("openai-responses", "anthropic", fake.base) as origin:
        answer = _post(origin, {**SCENARIOS["basic-response"], "previous_response_id": "resp_1"}, stream=False)
    assert answer.status_code == 400
    assert "--store memory" in answer.json()["error"]["message"]
    assert answer.json()["error"]["type"] == "invalid_request_error"
    assert fake.received == []  # never sent on with the history lost


def test_background_is_refused_with_a_400(fake: FakeUpstream) -> None:
    with proxy("openai-responses", "anthropic", fake.base) as origin:
        answer = _post(origin, {**SCENARIOS["basic-response"], "background": True}, stream=False)
    assert answer.status_code == 400
    assert "background" in answer.json()["error"]["message"]


@pytest.mark.parametrize("stream", [False, True])
def test_previous_response_id_continues_a_stored_answer_with_the_openai_sdk(fake: FakeUpstream, stream: bool) -> None:
    """The tool loop of the OpenAI SDK with ``previous_response_id``: the second request
    reaches the upstream with the first request's input, the call and its result."""
    recorded = UPSTREAMS["anthropic"]
    with (
        proxy("openai-responses", "anthropic", fake.base, store="memory:2") as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        if stream:
            fake.reply(fixture_bytes("anthropic", "stream", recorded.tool_stream), content_type=recorded.stream_type)
            with client.responses.stream(model="m", input="Weather in SF?", tools=[WEATHER_TOOL]) as events:
                first = events.get_final_response()
        else:
            fake.reply(fixture_json("anthropic", "response", recorded.tool))
            first = client.responses.create(model="m", input="Weather in SF?", tools=[WEATHER_TOOL])
        assert first.store is True
        call = next(item for item in first.output if item.type == "function_call")
        fake.reply(fixture_json("anthropic", "response", recorded.text))
        second = client.responses.create(
            model="m",
            previous_response_id=first.id,
            input=[{"type": "function_call_output", "call_id": call.call_id, "output": "sunny"}],
        )
    assert second.previous_response_id == first.id
    messages = fake.last.body["messages"]
    assert messages[0] == {"role": "user", "content": "Weather in SF?"}
    assert [block["type"] for block in messages[1]["content"]][-1] == "tool_use"
    assert messages[2]["content"][0] == {"type": "tool_result", "tool_use_id": call.call_id, "content": "sunny"}


def test_the_store_keeps_the_last_n_answers_and_refuses_a_forgotten_one(fake: FakeUpstream) -> None:
    with proxy("openai-responses", "openai-chat", f"{fake.base}/v1", store="memory:1") as origin:
        ids = []
        for _ in range(2):
            fake.reply(fixture_json("openai-chat", "response", "text_stop.json"))
            ids.append(_post(origin, SCENARIOS["basic-response"], stream=False).json()["id"])
        forgotten = _post(origin, {**SCENARIOS["basic-response"], "previous_response_id": ids[0]}, stream=False)
        fake.reply(fixture_json("openai-chat", "response", "text_stop.json"))
        kept = _post(origin, {**SCENARIOS["basic-response"], "previous_response_id": ids[1]}, stream=False)
    assert forgotten.status_code == 400
    assert "keeps the last 1" in forgotten.json()["error"]["message"]
    assert kept.status_code == 200
    assert [message["role"] for message in fake.last.body["messages"]] == ["user", "assistant", "user"]


def test_an_answer_the_caller_asked_not_to_store_is_not_kept(fake: FakeUpstream) -> None:
    with proxy("openai-responses", "openai-chat", f"{fake.base}/v1", store="memory") as origin:
        fake.reply(fixture_json("openai-chat", "response", "text_stop.json"))
        answer = _post(origin, {**SCENARIOS["basic-response"], "store": False}, stream=False).json()
        continued = _post(origin, {**SCENARIOS["basic-response"], "previous_response_id": answer["id"]}, stream=False)
    assert answer["store"] is False
    assert continued.status_code == 400


def test_a_stream_that_fails_mid_way_ends_failed_with_its_error(fake: FakeUpstream) -> None:
    """Anthropic's overloaded error after the answer began: the spec's ``error`` event,
    then ``response.failed`` whose resource holds the error."""
    recorded = fixture_bytes("anthropic", "stream", "text_basic.sse").split(b"event: content_block_delta")[0]
    overloaded = b'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'
    with proxy("openai-responses", "anthropic", fake.base) as origin:
        fake.reply(recorded + overloaded, content_type="text/event-stream")
        events = sse_events(_post(origin, SCENARIOS["basic-response"], stream=True).text)
    final = assert_events(events)
    assert [event["error"]["message"] for event in events if event["type"] == "error"] == ["Overloaded"]
    assert events[-1]["type"] == "response.failed"
    assert final.status == "failed"
    assert final.error is not None
    assert final.error.message == "Overloaded"


@pytest.mark.parametrize(
    "spelling",
    ["disk", "memory:", "memory:0", "memory:-1", "memory:ten", "sqlite:", "memory?max_bytes=lots", "memory?color=red"],
)
def test_a_store_spelling_the_server_does_not_know_is_refused_at_start(spelling: str) -> None:
    with pytest.raises(ValueError, match=r"--store takes memory, memory:N|at least one"):
        ServeConfig(api="openai-responses", upstream="anthropic", upstream_url="http://x", store=spelling)
