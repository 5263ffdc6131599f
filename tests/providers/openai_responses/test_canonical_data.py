"""The Responses codec reads and writes canonical data, one path each way: the reader gives
what :class:`~chatcodec.ChatRequest` dumps (tags written, no ``None``), with the wire's
front schema and pydantic's adapter of the same shapes agreeing; the writer takes a
model's dump whichever defaults it spells; a conversion through it loads no model."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._narrow import is_list
from chatcodec._providers.openai_responses import wire
from chatcodec._registry import get_codec
from chatcodec.testing import chat_requests, chat_responses
from chatcodec.testing._laws.mutations import mutated

PROVIDER = "openai-responses"
CODEC = get_codec(PROVIDER)
FIXTURES = Path(__file__).parents[2] / "fixtures" / PROVIDER
RECORDED = {kind: sorted((FIXTURES / kind).glob("*.json")) for kind in ("request", "response")}
PROPERTY = settings(
    max_examples=max(60, settings.default.max_examples), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
LONG_ID = "call_" + "x" * 70


def _user(content: Any, **fields: Any) -> dict[str, Any]:
    return {"role": "user", "content": content, **fields}


IMAGE = "data:image/png;base64,aGk="

READ: dict[str, dict[str, Any]] = {
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
            {"type": "function_call", "status": "completed", "call_id": "c1", "name": "f", "arguments": "{}"},
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
            {"type": "function", "name": "h"},
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
    "a text format": {"input": "q", "text": {"format": {"type": "text"}, "verbosity": "low"}},
    "a built-in tool call and a built-in tool": {
        "input": [{"type": "web_search_call", "id": "ws_1", "status": "completed"}],
        "tools": [{"type": "web_search"}, {"type": "function", "name": "f", "parameters": {}}],
    },
    "a file, and an image in a system message": {
        "input": [
            _user([{"type": "input_file", "file_id": "f"}]),
            {"role": "system", "content": [{"type": "input_image", "image_url": IMAGE}]},
        ]
    },
    "a token limit below 1, an empty reasoning setting": {"input": "q", "max_output_tokens": 0, "reasoning": {}},
    "reasoning content, custom calls and their outputs": {
        "input": [
            {"type": "reasoning", "summary": [], "content": [{"type": "reasoning_text", "text": "r"}]},
            {"type": "custom_tool_call", "call_id": "c", "name": "sh", "input": "ls"},
            {"type": "custom_tool_call_output", "call_id": "c", "output": "a.txt"},
        ]
    },
    "nulls where fields are typed": {"input": "q", "temperature": None, "tools": None, "instructions": None},
    "an unnamed tool, and names canonical cannot hold": {
        "input": [_user([{"type": "input_image", "image_url": "a\udfffb"}])],
        "tools": [{"type": "function", "name": ""}, {"type": "function", "name": "a\udfffb"}],
    },
}
"""Payloads of every kind of shape, all read by the one reader."""


@pytest.mark.parametrize("case", list(READ))
def test_the_reader_gives_what_the_model_dumps(case: str) -> None:
    read = CODEC.read_request(copy.deepcopy(READ[case]))
    model = chatcodec.decode_request(PROVIDER, READ[case])
    assert model.model_dump() == read
    assert chatcodec.ChatRequest.model_validate(read) == model


def test_a_name_or_url_canonical_cannot_hold_is_kept_whole() -> None:
    """A lone surrogate is valid JSON that canonical's non-empty strings refuse: the
    reader keeps such a tool or part opaque, and the same provider writes it back."""
    payload = READ["an unnamed tool, and names canonical cannot hold"]
    read = CODEC.read_request(copy.deepcopy(payload))
    assert [tool["data"]["name"] for tool in read["provider_tools"]] == ["", "a\udfffb"]
    assert read["messages"][0]["content"][0]["type"] == "opaque"
    assert CODEC.write_request(read, LossRecorder())["tools"] == payload["tools"]


@pytest.mark.parametrize("kind", ["request", "response"])
def test_every_recorded_payload_reads_as_the_model_dumps_it(kind: str) -> None:
    model = chatcodec.ChatRequest if kind == "request" else chatcodec.ChatResponse
    read = CODEC.read_request if kind == "request" else CODEC.read_response
    for path in RECORDED[kind]:
        payload = json.loads(path.read_text())
        if "output" not in payload and kind == "response":
            continue  # an error body
        data = read(payload)
        assert model.model_validate(data).model_dump() == data, path.name


@PROPERTY
@given(request=chat_requests())
def test_what_the_writer_writes_reads_back_as_the_model_dumps_it(request: chatcodec.ChatRequest) -> None:
    try:
        body = chatcodec.encode_request(PROVIDER, request, on_loss="ignore")
    except chatcodec.ChatcodecError:
        return  # a request the format refuses (a blank tool name)
    data = CODEC.read_request(body)
    assert chatcodec.ChatRequest.model_validate(data).model_dump() == data


@PROPERTY
@given(data=st.data())
def test_the_front_takes_a_payload_as_the_adapter_does(data: st.DataObject) -> None:
    """The front schema and pydantic's adapter are one description compiled twice: what
    the front takes, the adapter takes the same way (key order included)."""
    kind = data.draw(st.sampled_from(["request", "response"]))
    shape = wire.REQUEST if kind == "request" else wire.RESPONSE
    payload = data.draw(mutated(json.loads(data.draw(st.sampled_from(RECORDED[kind])).read_text()), deep=False))
    fronted = shape.front(copy.deepcopy(payload))
    if fronted is not None:
        adapted = shape.adapter(payload, "payload")
        assert json.dumps(fronted) == json.dumps(adapted)


def _every_default(value: Any) -> Any:
    """A model's data with every field written, defaults and ``None`` included."""
    if isinstance(value, BaseModel):
        return {name: _every_default(getattr(value, name)) for name in type(value).model_fields}
    if is_list(value):
        return [_every_default(item) for item in value]
    return value


def _written(request: dict[str, Any]) -> tuple[Any, ...]:
    recorder = LossRecorder()
    try:
        body = CODEC.write_request(request, recorder)
    except chatcodec.ChatcodecError as error:
        return ("error", type(error).__name__, str(error))
    losses: list[chatcodec.Loss] = []
    recorder.settle("ignore", losses)
    return ("body", json.dumps(body), losses)


@PROPERTY
@given(request=chat_requests())
def test_the_writer_takes_defaults_absent_and_present_alike(request: chatcodec.ChatRequest) -> None:
    dumped = _written(request.model_dump())
    unset = chatcodec.ChatRequest.model_validate(request.model_dump()).model_dump(exclude_unset=True)  # tags set
    assert _written(unset) == dumped
    assert _written(_every_default(request)) == dumped


@PROPERTY
@given(response=chat_responses())
def test_the_response_writer_takes_defaults_absent_and_present_alike(response: chatcodec.ChatResponse) -> None:
    def written(data: Any) -> tuple[Any, ...]:
        recorder = LossRecorder()
        body = CODEC.write_response(data, recorder)
        body.pop("created_at", None)  # stamped now when the response has none
        losses: list[chatcodec.Loss] = []
        recorder.settle("ignore", losses)
        return (json.dumps(body), losses)

    assert written(_every_default(response)) == written(response.model_dump())


def test_a_long_call_id_is_hashed_the_same_in_the_call_and_its_output() -> None:
    call = {"type": "tool_use", "id": LONG_ID, "name": "f", "arguments": "{}"}
    result = {"type": "tool_result", "tool_use_id": LONG_ID, "content": "ok"}
    request = {
        "model": "gpt-5.4",
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [call]},
            {"role": "tool", "content": [result]},
        ],
    }
    losses: list[chatcodec.Loss] = []
    items = chatcodec.encode_request(PROVIDER, request, on_loss="ignore", losses=losses)["input"]
    assert items[1]["call_id"] == items[2]["call_id"] != LONG_ID
    assert len(items[1]["call_id"]) == 64
    assert [loss.kind for loss in losses] == ["rule"]
    kept = chatcodec.encode_request(PROVIDER, request, on_loss="ignore", options={"skip_rules": ["call_id_length"]})
    assert kept["input"][1]["call_id"] == LONG_ID


_LONG_ITEMS: dict[str, dict[str, Any]] = {
    "a call with its own fields": {
        "type": "function_call",
        "call_id": LONG_ID,
        "name": "f",
        "arguments": "{}",
        "status": "completed",
    },
    "an output with its own fields": {
        "type": "function_call_output",
        "call_id": LONG_ID,
        "output": "ok",
        "status": "completed",
    },
    "a custom call": {"type": "custom_tool_call", "call_id": LONG_ID, "name": "f", "input": "x"},
    "a call kept whole": {
        "type": "local_shell_call",
        "id": "lsc_1",
        "call_id": LONG_ID,
        "status": "completed",
        "action": {"type": "exec", "command": ["ls"], "env": {}},
    },
}


@pytest.mark.parametrize("shape", sorted(_LONG_ITEMS))
def test_a_long_call_id_is_found_wherever_the_writer_writes_it(shape: str) -> None:
    """The one pass notes a long ``call_id`` at every place it writes one (plain items, items
    with their own fields, items kept whole), so the rule rewrites it as a walk of every item would."""
    body = {"model": "gpt-5.4", "input": [{"role": "user", "content": "q"}, _LONG_ITEMS[shape]]}
    losses: list[chatcodec.Loss] = []
    items = chatcodec.convert_request(body, source=PROVIDER, target=PROVIDER, on_loss="ignore", losses=losses)["input"]
    assert len(items[1]["call_id"]) == 64
    assert items[1]["call_id"] != LONG_ID
    assert [loss.what for loss in losses if loss.kind == "rule"] == [f"call id {LONG_ID!r}"]


_PROBE = """
import json, sys
import chatcodec
chat = {"model": "m", "messages": [{"role": "user", "content": "q"}], "tools": []}
responses = {"model": "m", "input": [{"role": "user", "content": "q"},
    {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
    {"type": "function_call_output", "call_id": "c", "output": "ok"}], "text": {"format": {"type": "json_object"}}}
chatcodec.convert_request(chat, source="openai-chat", target="openai-responses", on_loss="ignore")
chatcodec.convert_request(responses, source="openai-responses", target="openai-responses", on_loss="ignore")
chatcodec.convert_response({"output": [], "status": "completed"}, source="openai-responses", target="openai-responses")
models = ("pydantic", *(f"chatcodec._model.{name}" for name in ("request", "content", "messages", "response")))
print(json.dumps([name for name in models if name in sys.modules]))
"""


def test_a_conversion_through_the_codec_loads_no_canonical_model() -> None:
    """First use: converting to and from openai-responses (requests and responses)
    imports neither pydantic nor the canonical models."""
    completed = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == []


# --- other formats' readers feeding this writer ----------------------------------------


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
USER = {"role": "user", "content": "q"}


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
def test_a_lone_surrogate_where_canonical_wants_text_is_the_sources_error(case: str) -> None:
    """Found by a differential fuzz run: a source read these texts without the length
    check that makes pydantic-core refuse them, and this writer wrote a body (a rewritten
    tool name, an image URL) where decoding the source refuses the payload."""
    source, payload = SURROGATES[case]
    with pytest.raises(chatcodec.ChatcodecError) as refused:
        chatcodec.decode_request(source, payload)
    assert _converted(payload, source) == ("error", type(refused.value).__name__, str(refused.value))
