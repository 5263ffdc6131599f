"""What a framework history reader lets into canonical data is what the framework itself holds
(issue 76: a fuzz of the four framework formats let ``AttributeError``, ``KeyError``,
``TypeError`` and pydantic's own errors out, from ``_frameworks/`` and from provider writers fed
a non-string tool id or name, or a negative token count, that a reader let in). Each shape below
is refused by the reader with a :class:`chatcodec.ValidationError` at a path the input has,
before it enters canonical data, so every path (decode, convert to a provider, to canonical, to
another framework format, ``validate_messages``) refuses it alike.

The oracles: langchain-core 1.7.2's ``messages_from_dict`` (its message classes), pydantic-ai-slim
2.68.0's ``ModelMessagesTypeAdapter`` and the AI SDK's ``modelMessageSchema`` (``ai`` 6.0.325,
``js/ai_sdk_check.mjs``) refuse each shape too, except where a test says the framework takes it:
a negative count (each framework types its counts as plain integers; canonical usage holds
counts of 0 or more, as every provider reports them) and LangChain's ``ToolMessage``, which
turns a number ``tool_call_id`` into text (chatcodec does not invent the id's spelling).
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from langchain_core.messages import (
    AIMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    messages_from_dict,
    messages_to_dict,
)
from pydantic_ai.messages import (
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    ThinkingPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.usage import RequestUsage

import chatcodec
from fuzz.targets import location_exists, path_in
from js_packages import node_with_packages, run_in_js

TARGETS = ["anthropic", "bedrock-converse", "openai-chat", "openai-responses", "gemini", "canonical", "ai-sdk-ui"]


def _langchain() -> list[dict[str, Any]]:
    return messages_to_dict(
        [
            HumanMessage("Weather in Paris?"),
            AIMessage(
                "",
                tool_calls=[{"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1"}],
                usage_metadata={"input_tokens": 10, "output_tokens": 5, "total_tokens": 15},
                response_metadata={"finish_reason": "tool_calls"},
            ),
            ToolMessage("sunny", tool_call_id="call_1"),
        ]
    )


def _pydantic_ai() -> list[dict[str, Any]]:
    return ModelMessagesTypeAdapter.dump_python(
        [
            ModelRequest(parts=[UserPromptPart("Weather in Paris?")]),
            ModelResponse(
                parts=[
                    ThinkingPart("Call the tool.", signature="sig", provider_name="anthropic"),
                    ToolCallPart("get_weather", {"city": "Paris"}, tool_call_id="call_1"),
                ],
                usage=RequestUsage(input_tokens=10, output_tokens=5),
            ),
            ModelRequest(parts=[ToolReturnPart("get_weather", "sunny", tool_call_id="call_1")]),
        ],
        mode="json",
    )


def _ai_sdk_model() -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": [{"type": "tool-call", "toolCallId": "call_1", "toolName": "get_weather", "input": {}}],
        },
        {
            "role": "tool",
            "content": [
                {
                    "type": "tool-result",
                    "toolCallId": "call_1",
                    "toolName": "get_weather",
                    "output": {"type": "content", "value": [{"type": "text", "text": "sunny"}]},
                }
            ],
        },
    ]


def _set(history: list[dict[str, Any]], route: tuple[int | str, ...], value: object) -> list[dict[str, Any]]:
    changed = copy.deepcopy(history)
    node: Any = changed
    for step in route[:-1]:
        node = node[step]
    node[route[-1]] = value
    return changed


class Case(NamedTuple):
    """A history as its framework writes it, with one value changed."""

    fmt: str
    what: str
    make: Callable[[], list[dict[str, Any]]]
    route: tuple[int | str, ...]
    value: object
    refused_by_framework: bool

    def history(self) -> list[dict[str, Any]]:
        return _set(self.make(), self.route, self.value)


CASES = [
    Case(*case)
    for case in [
        ("langchain", "a number tool call id", _langchain, (1, "data", "tool_calls", 0, "id"), 7, True),
        ("langchain", "a number tool name", _langchain, (1, "data", "tool_calls", 0, "name"), 7, True),
        ("langchain", "arguments that are no object", _langchain, (1, "data", "tool_calls", 0, "args"), [1], True),
        ("langchain", "a fractional token count", _langchain, (1, "data", "usage_metadata", "input_tokens"), 1.5, True),
        ("langchain", "a negative token count", _langchain, (1, "data", "usage_metadata", "output_tokens"), -1, False),
        ("langchain", "a number content block", _langchain, (0, "data", "content"), [5], True),
        ("langchain", "a list as response_metadata", _langchain, (1, "data", "response_metadata"), [], True),
        ("langchain", "an object as tool_calls", _langchain, (1, "data", "tool_calls"), {"a": 1}, True),
        ("langchain", "a number tool_call_id", _langchain, (2, "data", "tool_call_id"), 5, False),
        ("pydantic-ai", "a number tool_call_id", _pydantic_ai, (1, "parts", 1, "tool_call_id"), 13892000, True),
        ("pydantic-ai", "a number result id", _pydantic_ai, (2, "parts", 0, "tool_call_id"), 4, True),
        ("pydantic-ai", "a number signature", _pydantic_ai, (1, "parts", 0, "signature"), 1, True),
        ("pydantic-ai", "a fractional token count", _pydantic_ai, (1, "usage", "input_tokens"), 2.5, True),
        ("pydantic-ai", "a negative token count", _pydantic_ai, (1, "usage", "output_tokens"), -3, False),
        ("ai-sdk-model", "a number toolCallId", _ai_sdk_model, (1, "content", 0, "toolCallId"), 1, True),
        ("ai-sdk-model", "a number toolName", _ai_sdk_model, (1, "content", 0, "toolName"), 1, True),
        (
            "ai-sdk-model",
            "a content output item that is no object",
            _ai_sdk_model,
            (2, "content", 0, "output", "value", 0),
            "x",
            True,
        ),
        (
            "ai-sdk-model",
            "a number mediaType in a content output item (a fuzz find: AttributeError in kind_of)",
            _ai_sdk_model,
            (2, "content", 0, "output", "value", 0),
            {"type": "file-url", "url": "https://example.com/a", "mediaType": 10903000},
            True,
        ),
    ]
]
IDS = [f"{case.fmt}: {case.what}" for case in CASES]


def _refused_at_an_input_path(call: Callable[[], object], root: object) -> None:
    with pytest.raises(chatcodec.ValidationError) as raised:
        call()
    for detail in raised.value.errors(include_url=False):
        assert location_exists(root, tuple(detail["loc"]), detail["type"] == "missing"), raised.value


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_reader_refuses_what_would_reach_canonical_data_mistyped(case: Case) -> None:
    fmt = case.fmt
    assert chatcodec.decode_request(fmt, {"messages": case.make()}).messages, "the unchanged history reads"
    history = {"messages": case.history()}
    _refused_at_an_input_path(lambda: chatcodec.decode_request(fmt, copy.deepcopy(history)), history)
    for target in TARGETS:
        _refused_at_an_input_path(
            functools.partial(
                chatcodec.convert_request, copy.deepcopy(history), source=fmt, target=target, on_loss="ignore"
            ),
            history,
        )
    listed = history["messages"]
    _refused_at_an_input_path(lambda: chatcodec.validate_messages(copy.deepcopy(listed)), listed)


PYTHON_CASES = [case for case in CASES if case.fmt != "ai-sdk-model"]


@pytest.mark.parametrize("case", PYTHON_CASES, ids=[f"{case.fmt}: {case.what}" for case in PYTHON_CASES])
def test_the_framework_itself_refuses_the_shape_or_the_test_says_why_not(case: Case) -> None:
    messages = case.history()
    load = messages_from_dict if case.fmt == "langchain" else ModelMessagesTypeAdapter.validate_python
    try:
        load(messages)
    except Exception:  # each framework's own refusal (pydantic's, or LangChain's own AttributeError)
        refused = True
    else:
        refused = False
    assert refused == case.refused_by_framework, case.what


def test_the_ai_sdk_refuses_the_shapes_it_is_given_here(tmp_path: Path) -> None:
    """``modelMessageSchema`` (``ai`` 6.0.325, run by ``js/ai_sdk_check.mjs``) refuses each
    ``ModelMessage[]`` shape the reader refuses, and takes the unchanged history."""
    batch = [{"kind": "model", "messages": _ai_sdk_model()}]
    batch += [{"kind": "model", "messages": case.history()} for case in CASES if case.fmt == "ai-sdk-model"]
    batch_file = tmp_path / "batch.json"
    batch_file.write_text(json.dumps(batch))
    result = run_in_js([node_with_packages(), "ai_sdk_check.mjs", str(batch_file)])
    assert result.returncode == 0, result.stderr
    verdicts = [verdict["valid"] for verdict in json.loads(result.stdout)]
    assert verdicts == [True] + [False] * (len(batch) - 1)


RESPONSES: list[tuple[str, str, dict[str, Any], str]] = [
    (
        "langchain",
        "a refused AIMessage is named in itself ($, the text saying data.tool_calls[0].id), not at $.messages[0]",
        {"type": "ai", "data": {"content": "x", "tool_calls": [{"name": "f", "args": {}, "id": 7}]}},
        "$",
    ),
    (
        "ai-sdk-model",
        "a response without messages is refused at its top, where messages are missing",
        {"finishReason": "stop"},
        "$.messages",
    ),
    (
        "ai-sdk-model",
        "a negative count is refused at its place",
        {"messages": [{"role": "assistant", "content": "x"}], "usage": {"inputTokens": -1}},
        "$.usage.inputTokens",
    ),
    (
        "ai-sdk-ui",
        "a fractional count in the message metadata is refused at its place",
        {
            "messages": [
                {
                    "id": "a",
                    "role": "assistant",
                    "parts": [{"type": "text", "text": "x"}],
                    "metadata": {"usage": {"outputTokens": 0.5}},
                }
            ]
        },
        "$.messages[0].metadata.usage.outputTokens",
    ),
    (
        "ai-sdk-ui",
        "a user message is no answer: a ValidationError, not a bare ValueError",
        {"messages": [{"id": "a", "role": "user", "parts": [{"type": "text", "text": "x"}]}]},
        "$.messages",
    ),
]


@pytest.mark.parametrize(("fmt", "what", "response", "path"), RESPONSES, ids=[what for _, what, *_ in RESPONSES])
def test_a_stored_answer_is_refused_at_its_own_path(fmt: str, what: str, response: dict[str, Any], path: str) -> None:
    for call in (
        lambda: chatcodec.decode_response(fmt, copy.deepcopy(response)),
        lambda: chatcodec.convert_response(copy.deepcopy(response), source=fmt, target="anthropic", on_loss="ignore"),
        lambda: chatcodec.convert_response(copy.deepcopy(response), source=fmt, target="canonical", on_loss="ignore"),
    ):
        with pytest.raises(chatcodec.ValidationError) as raised:
            call()
        assert raised.value.paths[0].startswith(path), (what, raised.value)
        assert all(path_in(response, each) or each.rpartition(".")[0] in ("$", path) for each in raised.value.paths)


def test_an_unhashable_pydantic_ai_media_kind_is_kept_whole_not_a_type_error() -> None:
    """A fuzz find (``convert_request[pydantic-ai->anthropic]``): a user prompt item whose
    ``kind`` is a list was looked up in a dict (``TypeError: unhashable type``); it is an item
    the reader does not know, kept whole as an opaque part, which another format reports lost."""
    history = {"messages": _set(_pydantic_ai(), (0, "parts", 0, "content"), ["hi", {"kind": []}])}
    read = chatcodec.decode_request("pydantic-ai", copy.deepcopy(history))
    assert isinstance(read.messages[0].content, list)
    assert isinstance(read.messages[0].content[1], chatcodec.OpaquePart)
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(history, source="pydantic-ai", target="anthropic", on_loss="ignore", losses=losses)
    assert losses


def test_a_langchain_block_its_role_cannot_hold_is_kept_whole() -> None:
    """A fuzz find (``validate_messages[langchain]``): LangChain's content lists take any block
    (langchain-core's ``SystemMessage`` loads an image block; so does a ``HumanMessage`` a
    reasoning block), but a canonical system message holds text only and a user message no
    thinking: the canonical model refused them at ``$[1].content[0]``, a place the stored list
    does not have. Such a block is an opaque part of the format, written back as it came."""
    image = {"type": "image", "base64": "iVBORw0KGgo=", "mime_type": "image/png"}
    reasoning = {"type": "reasoning", "reasoning": "hm"}
    history = messages_to_dict([SystemMessage([image]), HumanMessage([reasoning, "hi"])])
    assert messages_from_dict(history)  # LangChain loads both
    read = chatcodec.validate_messages(history)
    assert [type(part) for message in read for part in message.content] == [
        chatcodec.OpaquePart,
        chatcodec.OpaquePart,
        chatcodec.TextPart,
    ]
    body = {"messages": history}
    assert chatcodec.convert_request(body, source="langchain", target="langchain") == body


def test_a_langchain_block_whose_type_is_no_string_is_kept_whole() -> None:
    """A fuzz find (``cli_convert[langchain]``, an internal error): a block whose ``type`` is a
    list was looked up in a dict (``TypeError: unhashable type``)."""
    history = messages_to_dict([HumanMessage("hi")])
    history[0]["data"]["content"] = [{"type": [[1]], "text": "x"}]
    read = chatcodec.decode_request("langchain", {"messages": history})
    assert isinstance(read.messages[0].content, list)
    assert isinstance(read.messages[0].content[0], chatcodec.OpaquePart)


def test_a_usage_detail_key_with_a_lone_surrogate_is_named_safely() -> None:
    """A fuzz find (``convert_response[langchain->ollama]``): a refused count under a key holding
    a lone surrogate put the key in the refusal's text, which pydantic-core could not write
    (``UnicodeEncodeError``); the key is escaped as JSON."""
    answer = messages_to_dict(
        [AIMessage("x", usage_metadata={"input_tokens": 1, "output_tokens": 1, "total_tokens": 2})]
    )[0]
    answer["data"]["usage_metadata"]["input_token_details"] = {"\ud800": []}
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_response("langchain", answer)
    assert '["\\ud800"]' in str(raised.value)


def test_a_ui_tool_part_whose_error_text_is_no_string_is_refused_at_the_message() -> None:
    """A fuzz find (``convert_request[ai-sdk-ui->anthropic]``): an ``output-error`` tool part's
    ``errorText`` (``UIToolInvocation``'s ``errorText: string``, ``ai`` 6.0.325) holding a list
    became a tool result's content, which the canonical model refused at a place the history
    does not have; it is refused at the message, the field named."""
    part = {"type": "tool-f", "toolCallId": "c1", "state": "output-error", "input": {}, "errorText": [1]}
    history = {"messages": [{"id": "a", "role": "assistant", "parts": [part]}]}
    _refused_at_an_input_path(lambda: chatcodec.decode_request("ai-sdk-ui", copy.deepcopy(history)), history)
    with pytest.raises(chatcodec.ValidationError, match=r"parts\[0\]\.errorText"):
        chatcodec.convert_request(copy.deepcopy(history), source="ai-sdk-ui", target="anthropic", on_loss="ignore")


def test_a_pydantic_ai_cache_point_of_no_known_lifetime_is_kept_whole() -> None:
    """A fuzz find (``convert_request[pydantic-ai->bedrock-converse]``): a ``cache-point`` whose
    ``ttl`` is no string (pydantic-ai's ``CachePoint.ttl`` is ``"5m"`` or ``"1h"``) became a
    cache marker the canonical model refused at ``cache_control.ttl``; it is an item the reader
    does not know, kept whole (and written back as it came)."""
    history = {
        "messages": _set(_pydantic_ai(), (0, "parts", 0, "content"), ["hi", {"kind": "cache-point", "ttl": [1]}])
    }
    read = chatcodec.decode_request("pydantic-ai", copy.deepcopy(history))
    content = read.messages[0].content
    assert isinstance(content, list)
    assert isinstance(content[-1], chatcodec.OpaquePart)
    assert chatcodec.convert_request(copy.deepcopy(history), source="pydantic-ai", target="pydantic-ai") == history


def test_an_ai_sdk_cache_control_of_no_known_ttl_stays_in_the_options() -> None:
    """A fuzz find (``convert_request[ai-sdk-model->pydantic-ai]``, seed 5000): an Anthropic
    ``cacheControl`` whose ``ttl`` is a number became a cache marker the canonical model refused
    at ``cache_control.ttl``, a place the history does not have. It is no marker
    (``@ai-sdk/anthropic``'s ``cacheControl.ttl`` is ``"5m"`` or ``"1h"``): it stays in the part's
    options, written back as it came."""
    options = {"anthropic": {"cacheControl": {"type": "ephemeral", "ttl": 2**80}}}
    history = {"messages": [{"role": "user", "content": [{"type": "text", "text": "hi", "providerOptions": options}]}]}
    read = chatcodec.decode_request("ai-sdk-model", copy.deepcopy(history))
    content = read.messages[0].content
    assert isinstance(content, list)
    assert content[0].cache_control is None
    assert chatcodec.convert_request(copy.deepcopy(history), source="ai-sdk-model", target="ai-sdk-model") == history


@pytest.mark.parametrize(
    "item",
    [{"type": "image-url", "url": ""}, {"type": "image-data", "data": "iVBORw0KGgo=", "mediaType": ""}],
    ids=["empty url", "empty mediaType"],
)
def test_an_ai_sdk_output_item_with_an_empty_url_is_kept_whole(item: dict[str, Any]) -> None:
    """A fuzz find (``convert_request[ai-sdk-model->canonical]``, seed 21000): a tool output's
    ``image-url`` item with ``url: ""`` became a URL source the canonical model refused (a URL has
    at least one character) at a place the history does not have; so did an empty ``mediaType``
    (seed 31000). Each is kept whole as an item the reader cannot place, written back as it came."""
    history = {"messages": _set(_ai_sdk_model(), (2, "content", 0, "output", "value", 0), item)}
    read = chatcodec.decode_request("ai-sdk-model", copy.deepcopy(history))
    result = read.messages[2].content[0]
    assert isinstance(result, chatcodec.ToolResultPart)
    assert isinstance(result.content, list)
    assert isinstance(result.content[0], chatcodec.OpaquePart)
    assert chatcodec.convert_request(copy.deepcopy(history), source="ai-sdk-model", target="ai-sdk-model") == history
