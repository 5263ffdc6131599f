"""The assistant turns the OpenAI SDK's ``stream`` and ``parse`` helpers build, sent back as their
``model_dump()`` (what an agent on ``client.chat.completions.stream(...)`` or ``.parse(...)`` appends
to its history): the SDK's nulls, ``"parsed": null`` on the message, ``"parsed_arguments": null`` on
each call's function, and (streamed) each call's ``index``. Each says nothing: read as spelling,
written back by OpenAI Chat, dropped by every other format without a report (before, both nulls
were reported as lost ``openai-chat data``, and the whole request went the canonical path). The
turns are the SDK's own, built here from a stream's chunks and a completion by the SDK's helpers.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import chatcodec
from chatcodec._direct import openai_chat_source
from direct_outcomes import equal_to_canonical

openai = pytest.importorskip("openai")

from openai.lib._parsing._completions import parse_chat_completion  # noqa: E402 - after the SDK is found
from openai.lib.streaming.chat import ChatCompletionStreamState  # noqa: E402
from openai.types.chat import ChatCompletion, ChatCompletionChunk  # noqa: E402


def _chunk(delta: dict[str, Any], finish: str | None = None) -> ChatCompletionChunk:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return ChatCompletionChunk.model_validate(
        {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o", "choices": [choice]}
    )


def _calls(step: int, count: int) -> list[tuple[str, str, str]]:
    return [(f"call_{step}_{n}", "read_file", json.dumps({"path": f"src/{step}_{n}.py"})) for n in range(count)]


def streamed_turn(step: int, count: int = 2, text: str | None = None) -> dict[str, Any]:
    """The message the SDK's stream helper accumulates from a stream of ``count`` calls (each
    streamed in two chunks, as OpenAI streams arguments), dumped as an agent keeps it."""
    state = ChatCompletionStreamState()
    first: dict[str, Any] = {"role": "assistant", "content": text}
    state.handle_chunk(_chunk(first))
    for index, (call_id, name, arguments) in enumerate(_calls(step, count)):
        head = {"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}
        state.handle_chunk(_chunk({"tool_calls": [head]}))
        state.handle_chunk(_chunk({"tool_calls": [{"index": index, "function": {"arguments": arguments}}]}))
    state.handle_chunk(_chunk({}, "tool_calls"))
    dumped: dict[str, Any] = state.get_final_completion().choices[0].message.model_dump()
    return dumped


def parsed_turn(step: int, count: int = 1, text: str | None = None) -> dict[str, Any]:
    """The message the SDK's parse helper builds from a completion of ``count`` calls, dumped."""
    calls = [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
        for call_id, name, arguments in _calls(step, count)
    ]
    message = {"role": "assistant", "content": text, "tool_calls": calls}
    choice = {"index": 0, "message": message, "finish_reason": "tool_calls"}
    completion = ChatCompletion.model_validate(
        {"id": "c", "object": "chat.completion", "created": 1, "model": "gpt-4o", "choices": [choice]}
    )
    parsed = parse_chat_completion(response_format=openai.omit, input_tools=[], chat_completion=completion)
    dumped: dict[str, Any] = parsed.choices[0].message.model_dump()
    return dumped


def _session(turn: Any, steps: int = 4) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
    messages.append({"role": "user", "content": "Fix the failing test."})
    for step in range(steps):
        said = turn(step, text=None if step % 2 else f"Looking at step {step}.")
        messages.append(said)
        for call in said["tool_calls"]:
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": f"contents of {call['id']}"})
    messages.append({"role": "user", "content": "And now?"})
    tools = [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}]
    return {"model": "gpt-4o", "messages": messages, "tools": tools, "max_completion_tokens": 1024}


_TURNS = {"stream": streamed_turn, "parse": parsed_turn}


def test_the_sdk_helpers_dump_what_the_tests_say() -> None:
    """The SDK's own dumps hold the fields this file is about (so an SDK that stops writing them
    fails here, not silently passes the rest)."""
    streamed, parsed = streamed_turn(0), parsed_turn(0)
    for turn in (streamed, parsed):
        assert turn["parsed"] is None
        assert [turn["refusal"], turn["audio"], turn["function_call"]] == [None, None, None]
        assert all(call["function"]["parsed_arguments"] is None for call in turn["tool_calls"])
    assert [call["index"] for call in streamed["tool_calls"]] == [0, 1]
    assert all("index" not in call for call in parsed["tool_calls"])


@pytest.mark.parametrize("helper", sorted(_TURNS))
@pytest.mark.parametrize("target", ["anthropic", "openai-responses", "gemini", "bedrock-converse"])
def test_the_helpers_fields_say_nothing_another_format_must_carry(helper: str, target: str) -> None:
    body = _session(_TURNS[helper])
    losses: list[Any] = []
    chatcodec.convert_request(copy.deepcopy(body), source="openai-chat", target=target, losses=losses)
    assert [loss for loss in losses if "parsed" in repr(loss) or "function" in repr(loss)] == []


@pytest.mark.parametrize("helper", sorted(_TURNS))
def test_openai_chat_writes_the_helpers_dump_back_as_it_came(helper: str) -> None:
    body = _session(_TURNS[helper])
    losses: list[Any] = []
    written = chatcodec.convert_request(copy.deepcopy(body), source="openai-chat", target="openai-chat", losses=losses)
    assert losses == []
    assert written["messages"] == body["messages"]


@pytest.mark.parametrize("helper", sorted(_TURNS))
@pytest.mark.parametrize("target", ["anthropic", "openai-responses"])
def test_a_session_of_helpers_turns_goes_the_direct_path_as_the_canonical_path_writes_it(
    helper: str, target: str
) -> None:
    """Both OpenAI Chat pairs take such a session directly (a general turn, its shape proved once),
    on a first request and a later one, with the same body, losses and warnings as the canonical path."""
    body = _session(_TURNS[helper])
    assert openai_chat_source.admitted(body["messages"]) is not None
    for _ in range(2):  # a first request proves the turns' shape; the later one writes it as its parts
        equal_to_canonical(body, "openai-chat", target)


@pytest.mark.parametrize(
    "change",
    [
        lambda call: call.update(index="0"),  # an index that is not an integer
        lambda call: call["function"].update(parsed_arguments={"path": "a"}),  # arguments parsed: data
        lambda call: call["function"].update(other=None),  # a null the helpers do not leave
    ],
)
def test_what_the_helpers_do_not_leave_is_not_admitted_as_theirs(change: Any) -> None:
    body = _session(streamed_turn)
    change(body["messages"][2]["tool_calls"][0])
    assert openai_chat_source.admitted(body["messages"]) is None
