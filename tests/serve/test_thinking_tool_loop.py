"""The agent loop with thinking and tools through every OpenAI-shaped front, against every
upstream that signs its reasoning: the answer's signed reasoning reaches the client in a
form it sends back unchanged, and the next request restores it exactly, plain and
streamed, so the upstream takes the tool result.

The fake upstream checks what the real one checks on the second turn:

- Anthropic: the assistant turn replays the ``thinking`` block (text and ``signature``
  exactly as returned) before its ``tool_use``, or it answers 400 "Expected `thinking` or
  `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final
  `assistant` message must start with a thinking block";
- Bedrock Converse (Claude): the same, as ``reasoningContent.reasoningText``;
- Gemini 3: the ``functionCall`` part carries its ``thoughtSignature``, or it answers 400
  "Function call is missing a thought_signature in functionCall parts".

Each client keeps what it got as real clients do: the OpenAI Chat message appended as it
came (the OpenAI SDK's ``messages.append(message)``; a stream folded as litellm and the
OpenAI Agents SDK fold ``thinking_blocks`` fragments), the Responses output items appended
as they came with ``store: false`` and ``include: ["reasoning.encrypted_content"]`` (Codex
CLI, the Agents SDK), or only ``previous_response_id`` against a server that keeps answers.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

import chatcodec
from chatcodec import (
    AssistantMessage,
    ChatResponse,
    FinishEvent,
    FinishReason,
    ResponseStartEvent,
    TextPart,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingPart,
    ThinkingSignatureDeltaEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    ToolUsePart,
)
from chatcodec.streams._framing import WireEventWriter
from serve.harness import FakeUpstream, Received, proxy

THOUGHT = "The user wants the weather; I should call get_weather for Paris."
SIGNATURE = base64.b64encode(b"a signature only the upstream can verify " * 3).decode()
CALL_ID = "toolu_01A"
ARGUMENTS = '{"location":"Paris"}'
FINAL = "It is sunny in Paris."

UPSTREAM_MODELS = {
    "anthropic": "claude-sonnet-4-5",
    "bedrock-converse": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "gemini": "gemini-3-pro-preview",
}
STREAM_TYPES = {"bedrock-converse": "application/vnd.amazon.eventstream"}


# --- the upstream's answers ------------------------------------------------------------------


def _thinking(upstream: str) -> ThinkingPart:
    if upstream == "gemini":  # Gemini signs the call, not the thought
        return ThinkingPart(text=THOUGHT, provider=upstream)
    return ThinkingPart(text=THOUGHT, signature=SIGNATURE, provider=upstream, model=UPSTREAM_MODELS[upstream])


def _call_metadata(upstream: str) -> dict[str, Any] | None:
    return {"gemini": {"thoughtSignature": SIGNATURE}} if upstream == "gemini" else None


def _first_answer(upstream: str) -> ChatResponse:
    call = ToolUsePart(id=CALL_ID, name="get_weather", arguments=ARGUMENTS, provider_metadata=_call_metadata(upstream))
    return ChatResponse(
        id="answer_1",
        model=UPSTREAM_MODELS[upstream],
        message=AssistantMessage(content=[_thinking(upstream), call]),
        finish_reason=FinishReason(unified="tool_calls", raw="tool_use"),
    )


def _first_events(upstream: str) -> list[Any]:
    thinking = _thinking(upstream)
    events: list[Any] = [
        ResponseStartEvent(id="answer_1", model=UPSTREAM_MODELS[upstream]),
        ThinkingStartEvent(index=0, provider=thinking.provider, model=thinking.model),
        ThinkingDeltaEvent(index=0, delta=THOUGHT[:20]),
        ThinkingDeltaEvent(index=0, delta=THOUGHT[20:]),
    ]
    if thinking.signature is not None:
        events.append(ThinkingSignatureDeltaEvent(index=0, delta=SIGNATURE))
    events += [
        ThinkingEndEvent(index=0),
        ToolCallStartEvent(index=1, id=CALL_ID, name="get_weather", provider_metadata=_call_metadata(upstream)),
        ToolCallDeltaEvent(index=1, delta=ARGUMENTS),
        ToolCallEndEvent(index=1),
        FinishEvent(finish_reason=FinishReason(unified="tool_calls", raw="tool_use")),
    ]
    return events


def _queue_first(fake: FakeUpstream, upstream: str, *, stream: bool) -> None:
    if not stream:
        fake.reply(chatcodec.encode_response(upstream, _first_answer(upstream), on_loss="ignore"))
        return
    writer = WireEventWriter(upstream)
    wire = chatcodec.encode_stream(upstream, _first_events(upstream), on_loss="ignore")
    body = b"".join(writer.write(event) for event in wire) + writer.close()
    fake.reply(body, content_type=STREAM_TYPES.get(upstream, "text/event-stream"))


def _queue_final(fake: FakeUpstream, upstream: str) -> None:
    answer = ChatResponse(
        id="answer_2",
        model=UPSTREAM_MODELS[upstream],
        message=AssistantMessage(content=[TextPart(text=FINAL)]),
        finish_reason=FinishReason(unified="stop", raw="end_turn"),
    )
    fake.reply(chatcodec.encode_response(upstream, answer, on_loss="ignore"))


# --- what the upstream checks on the second turn ---------------------------------------------


def _check_anthropic(body: dict[str, Any]) -> str | None:
    turn = body["messages"][-2]["content"]
    if not turn or turn[0].get("type") not in ("thinking", "redacted_thinking"):
        found = turn[0].get("type") if turn else "nothing"
        return f"Expected `thinking` or `redacted_thinking`, but found `{found}`"
    if turn[0] != {"type": "thinking", "thinking": THOUGHT, "signature": SIGNATURE}:
        return "Invalid `signature` in `thinking` block"
    return None


def _check_bedrock(body: dict[str, Any]) -> str | None:
    turn = body["messages"][-2]["content"]
    reasoning = turn[0].get("reasoningContent") if turn else None
    if reasoning is None:
        return "messages.1.content.0: Expected reasoningContent before toolUse when thinking is enabled"
    if reasoning != {"reasoningText": {"text": THOUGHT, "signature": SIGNATURE}}:
        return "messages.1.content.0.reasoningContent: invalid signature"
    return None


def _check_gemini(body: dict[str, Any]) -> str | None:
    parts = body["contents"][-2]["parts"]
    calls = [part for part in parts if "functionCall" in part]
    if not calls or calls[0].get("thoughtSignature") != SIGNATURE:
        return "Function call is missing a thought_signature in functionCall parts"
    return None


CHECKS: dict[str, Callable[[dict[str, Any]], str | None]] = {
    "anthropic": _check_anthropic,
    "bedrock-converse": _check_bedrock,
    "gemini": _check_gemini,
}


def _checked(upstream: str, received: Received) -> None:
    refusal = CHECKS[upstream](received.body)
    assert refusal is None, f"the {upstream} upstream would answer 400: {refusal}\n{json.dumps(received.body)[:2000]}"


# --- the clients -------------------------------------------------------------------------------


def _post(origin: str, path: str, body: dict[str, Any]) -> httpx.Response:
    answer = httpx.post(f"{origin}{path}", json=body, headers={"authorization": "Bearer k"}, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer


def _data(answer: httpx.Response) -> list[dict[str, Any]]:
    lines = answer.text.splitlines()
    return [json.loads(line[6:]) for line in lines if line.startswith("data: {")]


CHAT_TOOL = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}


def _chat_message(answer: httpx.Response, *, stream: bool) -> dict[str, Any]:
    """The assistant message as the client keeps it: as it came, or folded from the chunks
    (text joined; ``thinking_blocks`` fragments folded as litellm and the Agents SDK do: text
    appended to the open block, a signature closing it; tool calls merged by index)."""
    if not stream:
        message: dict[str, Any] = answer.json()["choices"][0]["message"]
        return message
    folded: dict[str, Any] = {"role": "assistant", "content": ""}
    blocks: list[dict[str, Any]] = []
    calls: dict[int, dict[str, Any]] = {}
    for chunk in _data(answer):
        for choice in chunk["choices"]:
            delta = choice["delta"]
            folded["content"] += delta.get("content") or ""
            if delta.get("reasoning_content"):
                folded["reasoning_content"] = folded.get("reasoning_content", "") + delta["reasoning_content"]
            for block in delta.get("thinking_blocks") or []:
                _fold_block(blocks, block)
            for fragment in delta.get("tool_calls") or []:
                _fold_call(calls, fragment)
    if blocks:
        folded["thinking_blocks"] = blocks
    folded["tool_calls"] = [calls[index] for index in sorted(calls)]
    return folded


def _fold_block(blocks: list[dict[str, Any]], block: dict[str, Any]) -> None:
    if block.get("type") == "redacted_thinking":
        blocks.append(dict(block))
        return
    if not blocks or blocks[-1].get("type") != "thinking" or "signature" in blocks[-1]:
        blocks.append({"type": "thinking", "thinking": ""})
    blocks[-1]["thinking"] += block.get("thinking") or ""
    if block.get("signature"):
        blocks[-1]["signature"] = block["signature"]


def _fold_call(calls: dict[int, dict[str, Any]], fragment: dict[str, Any]) -> None:
    call = calls.setdefault(fragment["index"], {"type": "function", "function": {"name": "", "arguments": ""}})
    for key, value in fragment.items():
        if key == "function":
            call["function"]["name"] += value.get("name") or ""
            call["function"]["arguments"] += value.get("arguments") or ""
        elif key != "index":
            call[key] = value


def _chat_loop(origin: str, *, stream: bool) -> None:
    first = {"model": "m", "messages": [{"role": "user", "content": "Weather in Paris?"}], "tools": [CHAT_TOOL]}
    message = _chat_message(_post(origin, "/v1/chat/completions", {**first, "stream": stream}), stream=stream)
    result = {"role": "tool", "tool_call_id": message["tool_calls"][0]["id"], "content": "sunny"}
    second = {**first, "messages": [*first["messages"], message, result]}
    final = _post(origin, "/v1/chat/completions", second).json()
    assert final["choices"][0]["message"]["content"] == FINAL


RESPONSES_TOOL = {"type": "function", "name": "get_weather", "parameters": {"type": "object"}}


def _output(answer: httpx.Response, *, stream: bool) -> list[dict[str, Any]]:
    """The output items as the client keeps them: the answer's, or each ``output_item.done``."""
    if not stream:
        output: list[dict[str, Any]] = answer.json()["output"]
        return output
    return [event["item"] for event in _data(answer) if event["type"] == "response.output_item.done"]


def _responses_loop(origin: str, *, stream: bool, chained: bool) -> None:
    user = {"role": "user", "content": "Weather in Paris?"}
    first: dict[str, Any] = {"model": "m", "input": [user], "tools": [RESPONSES_TOOL]}
    if not chained:
        first.update(store=False, include=["reasoning.encrypted_content"])
    answer = _post(origin, "/v1/responses", {**first, "stream": stream})
    output = _output(answer, stream=stream)
    call = next(item for item in output if item["type"] == "function_call")
    result = {"type": "function_call_output", "call_id": call["call_id"], "output": "sunny"}
    if chained:
        answer_id = answer.json()["id"] if not stream else _data(answer)[-1]["response"]["id"]
        second = {"model": "m", "previous_response_id": answer_id, "input": [result], "tools": [RESPONSES_TOOL]}
    else:
        second = {**first, "input": [user, *output, result]}
    final = _post(origin, "/v1/responses", second).json()
    assert final["output"][-1]["content"][0]["text"] == FINAL


ANTHROPIC_TOOL = {"name": "get_weather", "input_schema": {"type": "object"}}


def _anthropic_loop(origin: str, *, stream: bool) -> None:
    user = {"role": "user", "content": "Weather in Paris?"}
    first = {"model": "m", "max_tokens": 2048, "messages": [user], "tools": [ANTHROPIC_TOOL]}
    answer = _post(origin, "/v1/messages", {**first, "stream": stream})
    if stream:
        blocks = chatcodec.accumulate_stream("anthropic", answer.text)
        content = chatcodec.encode_response("anthropic", blocks, on_loss="ignore")["content"]
    else:
        content = answer.json()["content"]
    call = next(block for block in content if block["type"] == "tool_use")
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call["id"], "content": "sunny"}]}
    second = {**first, "messages": [user, {"role": "assistant", "content": content}, result]}
    final = _post(origin, "/v1/messages", second).json()
    assert final["content"][-1]["text"] == FINAL


# --- the matrix --------------------------------------------------------------------------------


pytestmark = pytest.mark.usefixtures("fresh_fake")


def _serving(front: str, upstream: str, fake: FakeUpstream, **settings: Any) -> Any:
    return proxy(front, upstream, fake.base, model_map={"m": UPSTREAM_MODELS[upstream]}, **settings)


FRONT_LOOPS: dict[str, Callable[..., None]] = {
    "openai-chat": _chat_loop,
    "openai-responses": lambda origin, *, stream: _responses_loop(origin, stream=stream, chained=False),
    "anthropic": _anthropic_loop,
}


PAIRS = [
    *((front, upstream) for front in ("openai-chat", "openai-responses") for upstream in CHECKS),
    ("anthropic", "anthropic"),
    ("anthropic", "gemini"),
]
"""The OpenAI-shaped fronts against every upstream that signs, Anthropic's own API as the
reference (a Claude client replays the blocks it got), and the Anthropic front before
Gemini: with no store, the call's signature rides in its ``tool_use`` id, which every
Claude client sends back (``_providers/anthropic/tool_ids.py``)."""


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
@pytest.mark.parametrize(("front", "upstream"), PAIRS)
def test_the_signed_reasoning_survives_a_tool_loop(fake: FakeUpstream, front: str, upstream: str, stream: bool) -> None:
    _queue_first(fake, upstream, stream=stream)
    _queue_final(fake, upstream)
    with _serving(front, upstream, fake) as origin:
        FRONT_LOOPS[front](origin, stream=stream)
    _checked(upstream, fake.received[1])


@pytest.mark.parametrize("store", ["memory", "sqlite"])
@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
@pytest.mark.parametrize("upstream", list(CHECKS))
def test_previous_response_id_replays_the_kept_signed_reasoning(
    fake: FakeUpstream, upstream: str, stream: bool, store: str, tmp_path: Any
) -> None:
    _queue_first(fake, upstream, stream=stream)
    _queue_final(fake, upstream)
    spelling = "memory" if store == "memory" else f"sqlite:{tmp_path / 'answers.db'}"
    with _serving("openai-responses", upstream, fake, store=spelling) as origin:
        _responses_loop(origin, stream=stream, chained=True)
    _checked(upstream, fake.received[1])


# --- with the official openai SDK as the client ---------------------------------------------------


def test_the_openai_sdk_sends_the_chat_message_it_got_back_with_its_thinking_blocks(fake: FakeUpstream) -> None:
    import openai

    _queue_first(fake, "anthropic", stream=False)
    _queue_final(fake, "anthropic")
    with _serving("openai-chat", "anthropic", fake) as origin:
        client = openai.OpenAI(base_url=f"{origin}/v1", api_key="k")
        messages: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
        first = client.chat.completions.create(model="m", messages=messages, tools=[CHAT_TOOL])
        message = first.choices[0].message
        messages += [message, {"role": "tool", "tool_call_id": message.tool_calls[0].id, "content": "sunny"}]
        final = client.chat.completions.create(model="m", messages=messages, tools=[CHAT_TOOL])
    assert final.choices[0].message.content == FINAL
    _checked("anthropic", fake.received[1])


def test_the_openai_sdk_replays_the_reasoning_item_it_got_with_store_off(fake: FakeUpstream) -> None:
    import openai

    _queue_first(fake, "anthropic", stream=False)
    _queue_final(fake, "anthropic")
    with _serving("openai-responses", "anthropic", fake) as origin:
        client = openai.OpenAI(base_url=f"{origin}/v1", api_key="k")
        kept: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
        options: dict[str, Any] = {"store": False, "include": ["reasoning.encrypted_content"]}
        first = client.responses.create(model="m", input=kept, tools=[RESPONSES_TOOL], **options)
        kept += [item.model_dump(exclude_unset=True) for item in first.output]  # as the Agents SDK keeps them
        call = next(item for item in first.output if item.type == "function_call")
        kept.append({"type": "function_call_output", "call_id": call.call_id, "output": "sunny"})
        final = client.responses.create(model="m", input=kept, tools=[RESPONSES_TOOL], **options)
    assert final.output_text == FINAL
    _checked("anthropic", fake.received[1])
