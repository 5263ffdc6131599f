"""The clients that drop ``thinking_blocks``, in a thinking + tool loop through the OpenAI
Chat front against Claude: the gateway keeps the signed thinking of the first answer and
puts it back on the next request (:mod:`chatcodec.serve._kept_thinking`), so Claude takes
the tool result instead of answering 400 "Expected `thinking` or `redacted_thinking`, but
found `tool_use`".

Each client is the real framework, installed as a test dependency (pinned in the ``dev``
extra), driving its own loop: LangChain's ``ChatOpenAI``, pydantic-ai's ``OpenAIChatModel``
(and its ``OpenAIResponsesModel`` through the Responses front), the OpenAI Agents SDK's
``OpenAIChatCompletionsModel``; plain and streamed. The Vercel AI SDK is JavaScript: its
own ``openai.chat()`` runs the same loop in node (``test_vercel_ai_sdk.py``); its request
shapes are replayed here only for the upstreams and callers of the last tests
(:func:`_replayed_loop`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from serve.harness import FakeUpstream, proxy
from serve.test_thinking_tool_loop import (
    ARGUMENTS,
    CALL_ID,
    CHECKS,
    FINAL,
    UPSTREAM_MODELS,
    _check_anthropic,
    _queue_final,
    _queue_first,
)

pytestmark = pytest.mark.usefixtures("fresh_fake")

UPSTREAM = "claude-sonnet-4-5"
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The weather in a city.",
        "parameters": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]},
    },
}


def _langchain(origin: str, *, stream: bool) -> str:
    from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage
    from langchain_openai import ChatOpenAI

    model = ChatOpenAI(model="m", base_url=f"{origin}/v1", api_key="k", streaming=stream).bind_tools([WEATHER])
    messages: list[BaseMessage] = [HumanMessage("Weather in Paris?")]
    first = model.invoke(messages)
    assert isinstance(first, BaseMessage)
    calls = getattr(first, "tool_calls", [])
    messages += [first, ToolMessage("sunny", tool_call_id=calls[0]["id"])]
    return str(model.invoke(messages).content)


def _pydantic_ai_agent(model: Any) -> Any:
    from pydantic_ai import Agent

    agent = Agent(model)

    @agent.tool_plain
    def get_weather(location: str) -> str:
        """The weather in a city."""
        return "sunny"

    return agent


def _pydantic_ai(origin: str, *, stream: bool, responses: bool = False) -> str:
    from openai import AsyncOpenAI
    from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
    from pydantic_ai.providers.openai import OpenAIProvider

    async def run() -> str:
        async with AsyncOpenAI(base_url=f"{origin}/v1", api_key="k") as client:
            provider = OpenAIProvider(openai_client=client)
            kind = OpenAIResponsesModel if responses else OpenAIChatModel
            agent = _pydantic_ai_agent(kind("m", provider=provider))
            if not stream:
                return str((await agent.run("Weather in Paris?")).output)
            async with agent.run_stream("Weather in Paris?") as result:
                return str(await result.get_output())

    return asyncio.run(run())


def _agents_sdk(origin: str, *, stream: bool) -> str:
    from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool, set_tracing_disabled
    from openai import AsyncOpenAI

    set_tracing_disabled(True)

    @function_tool
    def get_weather(location: str) -> str:
        """The weather in a city."""
        return "sunny"

    async def run() -> str:
        async with AsyncOpenAI(base_url=f"{origin}/v1", api_key="k") as client:
            model = OpenAIChatCompletionsModel(model="m", openai_client=client)
            agent = Agent(name="weather", model=model, tools=[get_weather])
            if not stream:
                return str((await Runner.run(agent, "Weather in Paris?")).final_output)
            result = Runner.run_streamed(agent, "Weather in Paris?")
            async for _ in result.stream_events():
                pass
            return str(result.final_output)

    return asyncio.run(run())


CLIENTS: dict[str, Callable[..., str]] = {
    "langchain-chat-openai": _langchain,
    "pydantic-ai-chat": _pydantic_ai,
    "openai-agents-chat-completions": _agents_sdk,
}


def _final_as_stream(fake: FakeUpstream, *, stream: bool) -> None:
    """The final answer in the form the client asked (a streaming client reads a stream)."""
    if not stream:
        _queue_final(fake, "anthropic")
        return
    import chatcodec
    from chatcodec import AssistantMessage, ChatResponse, FinishReason, TextPart
    from chatcodec.streams._framing import WireEventWriter
    from chatcodec.streams._replay import events_from_response

    answer = ChatResponse(
        id="answer_2",
        model=UPSTREAM,
        message=AssistantMessage(content=[TextPart(text=FINAL)]),
        finish_reason=FinishReason(unified="stop", raw="end_turn"),
    )
    writer = WireEventWriter("anthropic")
    events = chatcodec.encode_stream("anthropic", list(events_from_response(answer)), on_loss="ignore")
    fake.reply(b"".join(writer.write(event) for event in events) + writer.close(), content_type="text/event-stream")


def _loop(fake: FakeUpstream, client: str, *, stream: bool, front: str = "openai-chat", **settings: Any) -> str:
    _queue_first(fake, "anthropic", stream=stream)
    _final_as_stream(fake, stream=stream)
    with proxy(front, "anthropic", fake.base, model_map={"m": UPSTREAM}, **settings) as origin:
        runner = CLIENTS[client] if front == "openai-chat" else _pydantic_ai_responses
        return runner(origin, stream=stream)


def _pydantic_ai_responses(origin: str, *, stream: bool) -> str:
    return _pydantic_ai(origin, stream=stream, responses=True)


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
@pytest.mark.parametrize("client", list(CLIENTS))
def test_the_gateway_gives_back_the_thinking_a_client_dropped(fake: FakeUpstream, client: str, stream: bool) -> None:
    final = _loop(fake, client, stream=stream, store="memory")
    assert len(fake.received) == 2
    assert _check_anthropic(fake.received[1].body) is None
    assert final == FINAL


@pytest.mark.parametrize("client", list(CLIENTS))
def test_without_keeping_the_thinking_the_same_loop_reaches_claude_without_it(fake: FakeUpstream, client: str) -> None:
    _loop(fake, client, stream=False, store="memory", keep_thinking=False)
    refusal = _check_anthropic(fake.received[1].body)
    assert refusal is not None
    assert "Expected `thinking` or `redacted_thinking`" in refusal


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_pydantic_ai_through_the_responses_front(fake: FakeUpstream, stream: bool) -> None:
    final = _loop(fake, "pydantic-ai-responses", stream=stream, front="openai-responses", store="memory")
    assert _check_anthropic(fake.received[1].body) is None
    assert final == FINAL


def _replayed_loop(origin: str, keys: tuple[str, str], *, stream: bool = False) -> None:
    """The Vercel AI SDK's request shapes, the second request under ``keys[1]``."""
    user = {"role": "user", "content": "Weather in Paris?"}
    first = {"model": "m", "messages": [user], "tools": [WEATHER], "stream": stream}
    url = f"{origin}/v1/chat/completions"
    answer = httpx.post(url, json=first, headers={"authorization": f"Bearer {keys[0]}"}, timeout=30)
    assert answer.status_code == 200, answer.text
    call = {"id": CALL_ID, "type": "function", "function": {"name": "get_weather", "arguments": ARGUMENTS}}
    assistant = {"role": "assistant", "content": "", "tool_calls": [call]}
    second = {
        **first,
        "stream": False,
        "messages": [user, assistant, {"role": "tool", "tool_call_id": CALL_ID, "content": "sunny"}],
    }
    final = httpx.post(url, json=second, headers={"authorization": f"Bearer {keys[1]}"}, timeout=30)
    assert final.status_code == 200, final.text


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
@pytest.mark.parametrize("upstream", ["anthropic", "bedrock-converse", "gemini"])
def test_every_signing_upstream_gets_its_own_proof_back(fake: FakeUpstream, upstream: str, stream: bool) -> None:
    _queue_first(fake, upstream, stream=stream)
    _queue_final(fake, upstream)
    with proxy(
        "openai-chat", upstream, fake.base, model_map={"m": UPSTREAM_MODELS[upstream]}, store="memory"
    ) as origin:
        _replayed_loop(origin, ("k", "k"), stream=stream)
    assert CHECKS[upstream](fake.received[1].body) is None


def test_one_callers_kept_thinking_is_never_given_to_another(fake: FakeUpstream) -> None:
    _queue_first(fake, "anthropic", stream=False)
    _queue_final(fake, "anthropic")
    with proxy("openai-chat", "anthropic", fake.base, model_map={"m": UPSTREAM}, store="memory") as origin:
        _replayed_loop(origin, ("alice-key", "bob-key"))
    assert _check_anthropic(fake.received[1].body) is not None  # Bob's request reached Claude as he sent it


def test_nothing_is_kept_of_a_responses_request_sent_with_store_false(fake: FakeUpstream) -> None:
    _queue_first(fake, "anthropic", stream=False)
    _queue_final(fake, "anthropic")
    tool = {"type": "function", "name": "get_weather", "parameters": {"type": "object"}}
    user = {"role": "user", "content": "Weather in Paris?"}
    first = {"model": "m", "input": [user], "tools": [tool], "store": False}
    with proxy("openai-responses", "anthropic", fake.base, model_map={"m": UPSTREAM}, store="memory") as origin:
        url, headers = f"{origin}/v1/responses", {"authorization": "Bearer k"}
        answer = httpx.post(url, json=first, headers=headers, timeout=30)
        call = next(item for item in answer.json()["output"] if item["type"] == "function_call")
        result = {"type": "function_call_output", "call_id": call["call_id"], "output": "sunny"}
        dropped = {**first, "input": [user, call, result]}  # the reasoning item left out
        assert httpx.post(url, json=dropped, headers=headers, timeout=30).status_code == 200
    assert _check_anthropic(fake.received[1].body) is not None
