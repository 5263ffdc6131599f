"""A Bedrock answer has no id and no model in its body: the caller gets the
``x-amzn-RequestId`` header's id and the model the route called, plain and streamed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anthropic
import openai
import pytest

from serve.harness import FakeUpstream, bedrock_stream, fixture_bytes, fixture_json, proxy, serving_fake

REQUEST_ID = "6a1f3c2e-8b7d-4e5f-9a0b-1c2d3e4f5a6b"
HELLO: list[Any] = [{"role": "user", "content": "Largest city?"}]
EVENT_STREAM = "application/vnd.amazon.eventstream"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


def test_a_bedrock_answer_has_its_request_id_and_model_for_an_openai_caller(fake: FakeUpstream) -> None:
    with proxy("openai-chat", "bedrock-converse", fake.base) as origin:
        client = openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0)
        fake.reply(
            fixture_json("bedrock-converse", "response", "gpt_oss_reasoning.json"),
            headers={"x-amzn-RequestId": REQUEST_ID},
        )
        completion = client.chat.completions.create(model="openai.gpt-oss-120b-1:0", messages=HELLO)
        fake.reply(
            bedrock_stream("json_schema_output.jsonl"),
            content_type=EVENT_STREAM,
            headers={"x-amzn-RequestId": REQUEST_ID},
        )
        chunks = list(client.chat.completions.create(model="amazon.nova-pro-v1:0", messages=HELLO, stream=True))
    assert (completion.id, completion.model) == (REQUEST_ID, "openai.gpt-oss-120b-1:0")
    assert {(chunk.id, chunk.model) for chunk in chunks} == {(REQUEST_ID, "amazon.nova-pro-v1:0")}


def test_a_bedrock_answer_has_its_request_id_and_model_for_an_anthropic_caller(fake: FakeUpstream) -> None:
    with (
        proxy("anthropic", "bedrock-converse", fake.base) as origin,
        anthropic.Anthropic(base_url=origin, api_key="k", max_retries=0) as client,
    ):
        fake.reply(
            fixture_json("bedrock-converse", "response", "gpt_oss_reasoning.json"),
            headers={"x-amzn-RequestId": REQUEST_ID},
        )
        message = client.messages.create(model="openai.gpt-oss-120b-1:0", max_tokens=100, messages=HELLO)
    assert (message.id, message.model) == (REQUEST_ID, "openai.gpt-oss-120b-1:0")


CLAUDE_ON_BEDROCK = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"


def _streamed_signature(name: str) -> str:
    """The signature a recorded Bedrock stream sends (its ``signature`` deltas, joined)."""
    lines = [json.loads(line) for line in fixture_bytes("bedrock-converse", "stream", name).decode().splitlines()]
    deltas = [line["contentBlockDelta"]["delta"] for line in lines if "contentBlockDelta" in line]
    return "".join(delta["reasoningContent"].get("signature", "") for delta in deltas if "reasoningContent" in delta)


def _signatures(message: Any) -> list[str]:
    return [block.signature for block in message.content if block.type == "thinking"]


def test_claude_thinking_on_bedrock_keeps_its_signature_for_an_anthropic_caller(fake: FakeUpstream) -> None:
    """Claude on Bedrock signs thinking with Anthropic's scheme, so an Anthropic caller can
    send it back; but neither a ``ConverseResponse`` nor its stream names the model that
    thought, and a signature of unknown origin is dropped. The model the route called is
    that model: plain and streamed, the caller gets the signature Bedrock sent."""
    plain = fixture_json("bedrock-converse", "response", "reasoning_cache_count_fields.json")
    signed = plain["output"]["message"]["content"][0]["reasoningContent"]["reasoningText"]["signature"]
    with (
        proxy("anthropic", "bedrock-converse", fake.base) as origin,
        anthropic.Anthropic(base_url=origin, api_key="k", max_retries=0) as client,
    ):
        fake.reply(plain, headers={"x-amzn-RequestId": REQUEST_ID})
        message = client.messages.create(model=CLAUDE_ON_BEDROCK, max_tokens=2048, messages=HELLO)
        fake.reply(
            bedrock_stream("reasoning_message_stop_additional_fields.jsonl"),
            content_type=EVENT_STREAM,
            headers={"x-amzn-RequestId": REQUEST_ID},
        )
        with client.messages.stream(model=CLAUDE_ON_BEDROCK, max_tokens=2048, messages=HELLO) as stream:
            streamed = stream.get_final_message()
    assert _signatures(message) == [signed]
    assert _signatures(streamed) == [_streamed_signature("reasoning_message_stop_additional_fields.jsonl")]
    assert streamed.model == CLAUDE_ON_BEDROCK
