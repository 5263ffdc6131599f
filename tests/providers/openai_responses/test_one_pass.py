"""The Responses one-pass encode side (issue 25) at the rules it writes and the shapes it
declines: each canonical request dict gives the general encoder's body and losses, and
the one pass takes (or declines) it as stated, so these cases are not met by declining."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from typing import Any

import pytest

import chatcodec
from chatcodec.losses import LossRecorder
from chatcodec.providers.openai_responses import one_pass

PROVIDER = "openai-responses"
LONG_ID = "call_" + "x" * 70


def _general(canonical: dict[str, Any]) -> tuple[Any, ...]:
    losses: list[chatcodec.Loss] = []
    request = chatcodec.ChatRequest.model_validate(canonical)
    try:
        body = chatcodec.encode_request(PROVIDER, request, on_loss="ignore", losses=losses)
    except chatcodec.ChatcodecError as error:
        return ("error", type(error).__name__, str(error))
    return ("body", json.dumps(body), losses)


def _one_pass(canonical: dict[str, Any]) -> tuple[Any, ...] | None:
    recorder = LossRecorder()
    body = one_pass.encode_request(copy.deepcopy(canonical), recorder)
    if body is None:
        return None
    losses: list[chatcodec.Loss] = []
    recorder.settle("ignore", losses)
    return ("body", json.dumps(body), losses)


def _request(*messages: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"model": "gpt-5.4", "messages": list(messages), **fields}


def _call(call_id: str, name: str = "f", arguments: str = "{}", **fields: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "arguments": arguments, **fields}


def _results(call_id: str, content: Any = "ok", **fields: Any) -> dict[str, Any]:
    result = {"type": "tool_result", "tool_use_id": call_id, "content": content, **fields}
    return {"role": "tool", "content": [result]}


def _thinking(**fields: Any) -> dict[str, Any]:
    return {"type": "thinking", "text": "hmm", **fields}


USER = {"role": "user", "content": "q"}
CHAT_FIELD = {"openai-chat": {"field": "reasoning_content"}}

TAKEN: dict[str, dict[str, Any]] = {
    "a call id over 64 characters, hashed by the target rule": _request(
        USER, {"role": "assistant", "content": [_call(LONG_ID)]}, _results(LONG_ID)
    ),
    "a long call id left as it is when the rule is skipped": _request(
        USER,
        {"role": "assistant", "content": [_call(LONG_ID)]},
        _results(LONG_ID),
        provider_options={PROVIDER: {"_skip_rules": ["call_id_length"]}},
    ),
    "two texts in one turn": _request(
        USER, {"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}
    ),
    "blank arguments": _request(USER, {"role": "assistant", "content": [_call("c1", arguments=" ")]}, _results("c1")),
    "tool names to rewrite": _request(
        USER,
        {"role": "assistant", "content": [_call("c1", name="a.b")]},
        _results("c1"),
        tools=[{"name": "a.b", "parameters": {"type": "object"}}],
        tool_choice={"type": "tool", "name": "a.b"},
    ),
    "another provider's bags, repeated and with a meaningful marker": _request(
        USER,
        {
            "role": "assistant",
            "content": [
                _thinking(provider="openai-chat", provider_metadata=CHAT_FIELD),
                _call("c1"),
                _thinking(provider_metadata=CHAT_FIELD),
                _call("c2", provider_metadata={"openai-chat": {"_cache": "a"}}),
                _call("c3", provider_metadata={"openai-chat": {"_cache": "b"}}),
                _thinking(provider_metadata={"openai-chat": {"_cache": "a"}}),
                _thinking(provider_metadata={"openai-chat": {"_cache": "b"}}),
                _thinking(signature="s", provider_metadata=CHAT_FIELD),
                _call("c4"),
            ],
            "provider_metadata": {"openai-chat": {"_content": "absent", "x": 1}},
        },
        _results("c1"),
        _results("c2"),
        provider_options={"openai-chat": {"n": 2, "_max_tokens_key": "max_tokens"}},
    ),
    "signed reasoning from Claude": _request(
        USER, {"role": "assistant", "content": [_thinking(provider="anthropic", signature="s"), _call("c1")]}
    ),
    "settings Responses has no field for, and metadata that is not text": _request(
        USER,
        stop=["x"],
        seed=1,
        top_k=3,
        frequency_penalty=0,
        presence_penalty=0.5,
        metadata={"a": "b", "n": 1},
        temperature=1.0,
        max_tokens=9,
    ),
    "a named JSON schema, an effort and a summary": _request(
        USER,
        response_format={"type": "json_schema", "name": "", "json_schema": {"type": "object"}, "strict": True},
        reasoning={"effort": "high", "summary": "auto"},
        parallel_tool_calls=False,
    ),
    "images by URL and base64, a detail, results in parts": _request(
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "see"},
                {"type": "image", "source": {"type": "url", "url": "https://x/y.png"}, "detail": "low"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "aGk="}},
            ],
        },
        {"role": "assistant", "content": [_call("c1")]},
        _results("c1", [{"type": "text", "text": "r"}], name="f"),
        {"role": "developer", "content": [{"type": "text", "text": "d"}]},
    ),
    "the model option, for a request without one": {
        "messages": [USER],
        "provider_options": {PROVIDER: {"model": "gpt-5.4-mini"}},
    },
    "no model at all": {"messages": [USER]},
}


@pytest.mark.parametrize("case", list(TAKEN))
def test_the_one_pass_writes_what_the_general_encoder_writes(case: str) -> None:
    canonical = TAKEN[case]
    assert _one_pass(canonical) == _general(canonical)


def test_a_long_call_id_is_hashed_the_same_in_the_call_and_its_output() -> None:
    outcome = _one_pass(TAKEN["a call id over 64 characters, hashed by the target rule"])
    assert outcome is not None
    items = json.loads(outcome[1])["input"]
    assert items[1]["call_id"] == items[2]["call_id"] != LONG_ID
    assert len(items[1]["call_id"]) == 64
    assert [loss.kind for loss in outcome[2]] == ["rule"]


DECLINED: dict[str, dict[str, Any]] = {
    "a bag of this provider's on a message": _request({**USER, "provider_metadata": {PROVIDER: {"_typed": True}}}),
    "a cache marker on a part": _request(
        {"role": "user", "content": [{"type": "text", "text": "q", "cache_control": {"type": "ephemeral"}}]}
    ),
    "a result marked as an error": _request(
        USER, {"role": "assistant", "content": [_call("c1")]}, _results("c1", is_error=True)
    ),
    "an empty assistant turn": _request(USER, {"role": "assistant", "content": []}),
    "OpenAI's own reasoning": _request(
        USER, {"role": "assistant", "content": [_thinking(provider=PROVIDER, encrypted="e"), _call("c1")]}
    ),
    "a document": _request(
        {"role": "user", "content": [{"type": "document", "source": {"type": "url", "url": "https://x/a.pdf"}}]}
    ),
    "built-in tools": _request(USER, provider_tools=[{"type": "opaque", "provider": PROVIDER, "data": {"type": "x"}}]),
    "an option written back as a field": _request(USER, provider_options={PROVIDER: {"store": False}}),
    "an unnamed schema": _request(USER, response_format={"type": "json_schema", "json_schema": {}}),
}


@pytest.mark.parametrize("case", list(DECLINED))
def test_the_one_pass_declines_what_only_the_general_encoder_writes(case: str) -> None:
    canonical = DECLINED[case]
    chatcodec.ChatRequest.model_validate(canonical)  # a valid canonical request
    assert _one_pass(canonical) is None


def test_a_conversion_in_one_pass_loads_no_canonical_model() -> None:
    """Issue 25, first use: openai-chat -> openai-responses in one pass imports neither the
    canonical models nor the Responses codec's role modules."""
    script = """
import sys
from chatcodec import one_pass
payload = {"model": "m", "messages": [{"role": "user", "content": "q"}], "tools": []}
assert one_pass.convert_request(payload, "openai-chat", "openai-responses") is not None
loaded = [name for name in ("chatcodec.request", "chatcodec.content", "chatcodec.providers.openai_responses.items")
          if name in sys.modules]
assert not loaded, loaded
"""
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr


# --- decode side ------------------------------------------------------------------------


def _decoded_as_general(payload: object) -> bool:
    """The decode law on one payload (the typed request built from the one pass's dict is
    the general decoder's, as models and as JSON); whether the one pass took it."""
    decoded = one_pass.decode_request(copy.deepcopy(payload))
    if decoded is None:
        return False
    general = chatcodec.decode_request(PROVIDER, payload)
    typed = chatcodec.ChatRequest.model_validate(decoded)
    assert typed == general
    assert typed.model_dump_json() == general.model_dump_json()
    return True


def _user(content: Any, **fields: Any) -> dict[str, Any]:
    return {"role": "user", "content": content, **fields}


IMAGE = "data:image/png;base64,aGk="

DECODED: dict[str, dict[str, Any]] = {
    "instructions and a string input": {"model": "m", "instructions": "be brief", "input": "hi"},
    "message items, typed or not, text and images": {
        "input": [
            _user([{"type": "input_text", "text": "a"}, {"type": "input_image", "image_url": IMAGE}]),
            _user([{"type": "input_image", "image_url": "https://x/y.png", "detail": "low"}], type="message"),
            {"role": "developer", "content": [{"type": "input_text", "text": "d"}]},
            {"role": "system", "content": "s", "type": "message"},
        ]
    },
    "a replayed turn: reasoning, a message with its fields, calls and their outputs": {
        "model": "gpt-5.5",
        "input": [
            _user("q"),
            {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "e"},
            {
                "id": "msg_1",
                "type": "message",
                "status": "completed",
                "content": [{"type": "output_text", "text": "t", "annotations": []}],
                "phase": "commentary",
                "role": "assistant",
            },
            {
                "type": "function_call",
                "status": "completed",
                "call_id": "c1",
                "name": "f",
                "arguments": "{}",
                "id": "fc_1",
            },
            {"type": "function_call", "call_id": "c2", "name": "f", "arguments": "{}", "role": "x"},
            {"type": "function_call_output", "call_id": "c1", "output": "o", "name": "f", "id": "fco_1"},
            {"type": "function_call_output", "call_id": "c2", "output": "o"},
            {"role": "assistant", "content": "a"},
            {"role": "assistant", "content": "b"},
            {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": "s1"}, {"type": "summary_text", "text": "s2"}],
            },
            {"role": "assistant", "content": "c"},
        ],
    },
    "tools, a named choice and the settings": {
        "input": "q",
        "tools": [
            {"type": "function", "name": "f", "description": None, "parameters": {"type": "object"}, "strict": True},
            {"type": "function", "name": "g", "parameters": None},
        ],
        "tool_choice": {"type": "function", "name": "g"},
        "parallel_tool_calls": False,
        "max_output_tokens": 100,
        "temperature": 1,
        "top_p": 0.5,
        "metadata": {"a": "b"},
        "stream": True,
        "reasoning": {"summary": "auto", "effort": "low"},
        "include": ["reasoning.encrypted_content"],
        "store": False,
        "previous_response_id": None,
        "_private": 1,
    },
    "no input": {"model": "m"},
}


@pytest.mark.parametrize("case", list(DECODED))
def test_the_one_pass_reads_what_the_general_decoder_reads(case: str) -> None:
    text = json.dumps(DECODED[case])
    for form in (DECODED[case], text, text.encode()):
        assert _decoded_as_general(form), "declined"


NOT_DECODED: dict[str, dict[str, Any]] = {
    "a text format": {"input": "q", "text": {"format": {"type": "text"}}},
    "a built-in tool call": {"input": [{"type": "web_search_call", "id": "ws_1", "status": "completed"}]},
    "a built-in tool": {"input": "q", "tools": [{"type": "web_search"}]},
    "a file": {"input": [_user([{"type": "input_file", "file_id": "f"}])]},
    "an image in a system message": {
        "input": [{"role": "system", "content": [{"type": "input_image", "image_url": IMAGE}]}]
    },
    "a token limit below 1": {"input": "q", "max_output_tokens": 0},
    "an empty reasoning setting": {"input": "q", "reasoning": {}},
    "reasoning content": {"input": [{"type": "reasoning", "summary": [], "content": []}]},
    "a null where a field is typed": {"input": "q", "temperature": None},
    "an unnamed tool": {"input": "q", "tools": [{"type": "function", "name": ""}]},
    "an assistant message of a null type": {"input": [{"role": "assistant", "content": "a", "type": None}]},
    "an untyped assistant message with fields": {"input": [{"role": "assistant", "content": "a", "id": "msg_1"}]},
}


@pytest.mark.parametrize("case", list(NOT_DECODED))
def test_the_one_pass_leaves_other_shapes_to_the_general_decoder(case: str) -> None:
    payload = NOT_DECODED[case]
    assert one_pass.decode_request(copy.deepcopy(payload)) is None
    assert not _decoded_as_general(payload)


# --- the pair openai-chat -> openai-responses ------------------------------------------------


def _converted(payload: dict[str, Any], source: str) -> tuple[Any, ...]:
    losses: list[chatcodec.Loss] = []
    try:
        body = chatcodec.convert_request(payload, source=source, target=PROVIDER, on_loss="ignore", losses=losses)
    except chatcodec.ChatcodecError as error:
        return ("error", type(error).__name__, str(error))
    return ("body", json.dumps(body), losses)


SURROGATE = "a\udfffb"
"""A lone surrogate: pydantic-core refuses it in a text with a length constraint (the
wire's non-empty tool names and image URLs), and accepts it in one without."""


def _anthropic(content: Any, **fields: Any) -> dict[str, Any]:
    return {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": content}], **fields}


SURROGATES: dict[str, tuple[str, dict[str, Any]]] = {
    "openai-chat tool name": (
        "openai-chat",
        {"messages": [USER], "tools": [{"type": "function", "function": {"name": SURROGATE, "parameters": {}}}]},
    ),
    "openai-chat image URL": (
        "openai-chat",
        {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": SURROGATE}}]}]},
    ),
    "anthropic tool name": ("anthropic", _anthropic("q", tools=[{"name": SURROGATE, "input_schema": {}}])),
    "anthropic image URL": ("anthropic", _anthropic([{"type": "image", "source": {"type": "url", "url": SURROGATE}}])),
    "bedrock-converse tool name": (
        "bedrock-converse",
        {
            "messages": [{"role": "user", "content": [{"text": "q"}]}],
            "toolConfig": {"tools": [{"toolSpec": {"name": SURROGATE, "inputSchema": {"json": {}}}}]},
        },
    ),
    "anthropic media type": (
        "anthropic",
        _anthropic([{"type": "image", "source": {"type": "base64", "media_type": SURROGATE, "data": "aGk="}}]),
    ),
}


@pytest.mark.parametrize("case", list(SURROGATES))
def test_a_lone_surrogate_where_canonical_wants_text_is_the_general_paths_error(case: str) -> None:
    """Found by a differential fuzz run: the openai-chat, anthropic and bedrock one passes read these
    texts without the length check that makes pydantic-core refuse them, so the Responses
    pass wrote a body (a rewritten tool name, an image URL) where the general path refuses
    the payload (``providers.one_pass.non_empty``)."""
    source, payload = SURROGATES[case]
    with pytest.raises(chatcodec.ChatcodecError) as refused:
        chatcodec.decode_request(source, payload)
    assert _converted(payload, source) == ("error", type(refused.value).__name__, str(refused.value))
