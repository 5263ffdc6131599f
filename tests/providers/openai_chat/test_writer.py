"""The OpenAI Chat writer on canonical request data: the content form, the losses and their
order, the shapes a second, general encoder once wrote, and first use."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._registry import get_codec


def _call(call_id: str, name: str = "read", arguments: str = '{"path":"a"}') -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "arguments": arguments}


def _result(call_id: str, content: Any = "ok") -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": content}


def _request(*messages: dict[str, Any], **fields: Any) -> dict[str, Any]:
    tools = [{"name": "read", "parameters": {"type": "object"}}]
    return {"model": "gpt-4.1", "max_tokens": 100, "tools": tools, "messages": list(messages), **fields}


THINKING = {"type": "thinking", "text": "hmm", "signature": "c2ln", "provider": "anthropic"}
IMAGE = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}

TAKEN: dict[str, dict[str, Any]] = {
    "a session": _request(
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [{"type": "text", "text": "look"}, IMAGE]},
        {"role": "assistant", "content": [THINKING, {"type": "text", "text": "reading"}, _call("c1"), _call("c2")]},
        {"role": "tool", "content": [_result("c1"), _result("c2", [{"type": "text", "text": "two"}])]},
        {"role": "assistant", "content": [THINKING, {"type": "text", "text": "done"}]},
        {"role": "developer", "content": "next"},
        {"role": "user", "content": "thanks"},
    ),
    "calls alone, blank arguments": _request(
        {"role": "user", "content": "go"}, {"role": "assistant", "content": [_call("c1", arguments=" ")]}
    ),
    "a tool name to rewrite": _request(
        {"role": "user", "content": "go"}, {"role": "assistant", "content": [_call("c1", name="a.b")]}
    ),
    "another provider's bags": _request(
        {"role": "user", "content": "go", "provider_metadata": {"gemini": {"x": 1}}},
        provider_options={"anthropic": {"service_tier": "auto", "_api_version": "2023-06-01"}},
    ),
    "settings": _request(
        {"role": "user", "content": "go"},
        temperature=0.5,
        top_p=1.0,
        seed=3,
        stream=True,
        stop=["END"],
        metadata={"user": "u"},
        tool_choice={"type": "tool", "name": "read"},
        parallel_tool_calls=False,
        reasoning={"effort": "low"},
    ),
    "a gpt-5.3 model with tools and an effort": _request(
        {"role": "user", "content": "go"}, model="gpt-5.3", reasoning={"effort": "high"}
    ),
    "no model": {"messages": [{"role": "user", "content": "go"}]},
    "a gemini session's bags": _request(
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "reading", "provider_metadata": {"gemini": {"thought": False, "x": 1}}},
                THINKING,
                {**_call("c1", name="a.b"), "provider_metadata": {"gemini": {"_unsigned": True, "y": 2}}},
                {**_call("c2"), "provider_metadata": {"gemini": {"thoughtSignature": "c2ln"}, "anthropic": {"z": 3}}},
            ],
            "provider_metadata": {"gemini": {"role": "model", "_joined": True}},
        },
        {
            "role": "tool",
            "content": [
                {**_result("c1"), "name": "a.b", "provider_metadata": {"gemini": {"w": 1}}},
                {**_result("c2"), "name": "read"},
            ],
        },
        {"role": "assistant", "content": [{"type": "text", "text": "a", "provider_metadata": {"gemini": {"v": 1}}}]},
    ),
}
"""Canonical requests of the plain shapes (agent sessions' own)."""


def _written(request: dict[str, Any], options: dict[str, Any] | None = None) -> tuple[str, list[chatcodec.Loss]]:
    """The body the writer writes for canonical data, and its losses."""
    recorder = LossRecorder()
    body = get_codec("openai-chat").write_request(request, recorder, options=options)
    losses: list[chatcodec.Loss] = []
    recorder.settle("ignore", losses)
    return json.dumps(body), losses


def _through_the_model(request: dict[str, Any]) -> tuple[str, list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    typed = chatcodec.ChatRequest.model_validate(request)
    body = chatcodec.encode_request("openai-chat", typed, on_loss="ignore", losses=losses)
    return json.dumps(body), losses


@pytest.mark.parametrize("shape", list(TAKEN))
def test_the_writer_writes_data_as_it_writes_the_model(shape: str) -> None:
    assert _written(TAKEN[shape]) == _through_the_model(TAKEN[shape])


def test_the_content_form() -> None:
    """One text beside tool calls is a string; a lone text part (its thinking dropped) is
    a list, which reads back as the part it was; no text at all beside calls is null."""
    found = _written(TAKEN["a session"])
    messages = json.loads(found[0])["messages"]
    assert messages[2]["content"] == "reading"
    assert messages[5]["content"] == [{"type": "text", "text": "done"}]
    calls_only = _written(TAKEN["calls alone, blank arguments"])
    assert json.loads(calls_only[0])["messages"][1]["content"] is None
    assert json.loads(calls_only[0])["messages"][1]["tool_calls"][0]["function"]["arguments"] == "{}"


def test_dropped_thinking_is_reported_at_its_place() -> None:
    found = _written(TAKEN["a session"])
    dropped = [loss for loss in found[1] if loss.what.startswith("thinking part")]
    assert [loss.path for loss in dropped] == ["$.messages[2].content[0]", "$.messages[4].content[0]"]
    assert {loss.why for loss in dropped} == {
        "OpenAI Chat has no standard reasoning field; the option reasoning_field can name one: "
        "reasoning_content, reasoning, reasoning_details"
    }


def test_other_providers_bags_on_parts_are_reported_in_order() -> None:
    """A Gemini session: bags on texts, calls and results are reported after the dropped
    thinking, a call's before its name rewrite, a result's before its name; a thought
    signature goes in the call's ``extra_content`` for Gemini's endpoint, not in a loss."""
    body, losses = _written(TAKEN["a gemini session's bags"], {"server": "gemini"})
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.messages[1]", "gemini data ['role']"),
        ("$.messages[1].content[1]", "thinking part from anthropic"),
        ("$.messages[1].content[0]", "gemini data ['thought', 'x']"),
        ("$.messages[1].content[2]", "gemini data ['y']"),
        ("$.messages[1].content[2].name", "tool name 'a.b'"),
        ("$.messages[1].content[3]", "anthropic data ['z']"),
        ("$.messages[2].content[0]", "gemini data ['w']"),
        ("$.messages[2].content[0].name", "tool name on a result"),
        ("$.messages[2].content[1].name", "tool name on a result"),
        ("$.messages[3].content[0]", "gemini data ['v']"),
        ("$.messages[1].tool_calls[0]", "thought signature"),  # Gemini 3 wants one on the first call
    ]
    calls = json.loads(body)["messages"][1]["tool_calls"]
    assert "extra_content" not in calls[0]
    assert calls[1]["extra_content"] == {"google": {"thought_signature": "c2ln"}}


def _session(**fields: Any) -> dict[str, Any]:
    return copy.deepcopy({**TAKEN["a session"], **fields})


DECLINED: dict[str, dict[str, Any]] = {
    "a message between calls and results": _request(
        {"role": "assistant", "content": [_call("c1")]},
        {"role": "user", "content": "wait"},
        {"role": "tool", "content": [_result("c1")]},
    ),
    "an error flag": _request({"role": "tool", "content": [{**_result("c1"), "is_error": True}]}),
    "an image in a result": _request({"role": "tool", "content": [_result("c1", [IMAGE])]}),
    "text after a call": _request({"role": "assistant", "content": [_call("c1"), {"type": "text", "text": "x"}]}),
    "reasoning only": _request({"role": "user", "content": "a"}, {"role": "assistant", "content": [THINKING]}),
    "a name": _request({"role": "user", "content": "a", "name": "ann"}),
    "this provider's bag": _session(provider_options={"openai-chat": {"n": 2}}),
    "the reasoning_field option": _session(provider_options={"openai-chat": {"reasoning_field": "reasoning"}}),
    "the max_tokens_key option": _session(provider_options={"openai-chat": {"max_tokens_key": "max_tokens"}}),
    "top_k": _session(top_k=3),
    "a thinking budget": _session(reasoning={"enabled": True, "budget_tokens": 10}),
    "a metadata number": _session(metadata={"n": 1}),
    "an image detail": _request({"role": "user", "content": [{**IMAGE, "detail": "low"}]}),
    "this provider's bag on a call": _request(
        {"role": "assistant", "content": [{**_call("c1"), "provider_metadata": {"openai-chat": {"x": 1}}}]}
    ),
    "this provider's bag on a text": _request(
        {"role": "assistant", "content": [{"type": "text", "text": "a", "provider_metadata": {"openai-chat": {}}}]}
    ),
    "a cache marker on a call": _request(
        {"role": "assistant", "content": [{**_call("c1"), "cache_control": {"type": "ephemeral"}}]}
    ),
    "this provider's bag on a result": _request(
        {"role": "tool", "content": [{**_result("c1"), "provider_metadata": {"openai-chat": {"x": 1}}}]}
    ),
    "a Bedrock service tier": _session(provider_options={"bedrock-converse": {"serviceTier": {"type": "flex"}}}),
}
"""Requests a second, general encoder once wrote: one writer writes them all."""


@pytest.mark.parametrize("shape", list(DECLINED))
def test_the_writer_writes_the_rarer_shapes_as_it_writes_the_model(shape: str) -> None:
    assert _written(DECLINED[shape]) == _through_the_model(DECLINED[shape])


def test_a_message_between_calls_and_results_moves_after_the_results() -> None:
    body, losses = _written(DECLINED["a message between calls and results"])
    assert [message["role"] for message in json.loads(body)["messages"]] == ["assistant", "tool", "user"]
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.messages[1]", "message between a tool call and its result")
    ]


_PROBE = textwrap.dedent(
    """
    import json, sys
    import chatcodec

    body = json.loads(sys.argv[1])
    converted = chatcodec.convert_request(body, source="anthropic", target="openai-chat", on_loss="ignore")
    loaded = sorted(name for name in sys.modules if name == "pydantic" or name.startswith("chatcodec"))
    print(json.dumps({"converted": converted, "loaded": loaded}))
    """
)
_BODY = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 100,
    "system": "be brief",
    "tools": [{"name": "weather", "input_schema": {"type": "object"}}],
    "messages": [
        {"role": "user", "content": "weather in Paris?"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"}]},
    ],
}


def test_an_anthropic_to_openai_conversion_in_a_fresh_process_loads_no_canonical_model() -> None:
    source = Path(chatcodec.__file__).parent.parent
    script = f"import sys; sys.path.insert(0, {str(source)!r})\n{_PROBE}"
    result = subprocess.run(
        [sys.executable, "-c", script, json.dumps(_BODY)], capture_output=True, text=True, check=True, timeout=60
    )
    found = json.loads(result.stdout)
    models = ("chatcodec._model.messages", "chatcodec._model.content", "chatcodec._model.request", "pydantic")
    assert [name for name in models if name in found["loaded"]] == []
    expected = chatcodec.convert_request(_BODY, source="anthropic", target="openai-chat", on_loss="ignore", strict=True)
    assert found["converted"] == expected
