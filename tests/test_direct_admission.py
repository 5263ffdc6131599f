"""The OpenAI Chat direct paths' admission walk against the closed front it stands in for.

:func:`chatcodec._direct.openai_chat_source.admitted` proves the messages as given instead of
having the closed front (``COMMON_MESSAGES``) build a validated copy: so whatever it admits,
the front must take, and the front's copy must hold the same values. A walk that admits a
value the front refuses would write a body the canonical path refuses or reads otherwise.
And since the pass writes from the caller's own messages, its output must share no object a
caller could change (a dict or a list) with them.
"""

from __future__ import annotations

import copy
import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec._direct import openai_chat_assistant_turns
from chatcodec._direct.openai_chat_source import admitted
from chatcodec._direct.table import DIRECT_PATHS
from chatcodec._providers.openai_chat.common_shapes import COMMON_MESSAGES
from chatcodec._providers.openai_chat.wire_validators import messages_adapter

_SESSION = Path(__file__).resolve().parent / "fixtures" / "perf-sessions" / "oc-anthropic-nulls-10.json.gz"

_PLAIN: dict[str, Any] = {
    "model": "m",
    "messages": [
        {"role": "system", "content": "be brief", "name": None},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "look"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo=", "detail": "low"}},
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "reasoning_content": "I will call it",
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
            "refusal": None,
            "annotations": None,
            "audio": None,
            "function_call": None,
            "name": None,
            "provider_specific_fields": None,
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "done", "name": None},
    ],
}
"""A body of every shape the walk admits (with the SDK dump's nulls, and litellm's
``"provider_specific_fields": null``)."""

_PARTS: dict[str, Any] = {
    "model": "m",
    "messages": [
        {"role": "system", "content": [{"type": "text", "text": "be brief", "cache_control": {"type": "ephemeral"}}]},
        {"role": "user", "content": [{"type": "text", "text": "look", "cache_control": {"type": "ephemeral"}}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                {"id": "call_2", "type": "function", "function": {"name": "f", "arguments": "{}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": [{"type": "text", "text": "a"}], "name": "f"},
        {"role": "tool", "tool_call_id": "call_2", "content": "b", "cache_control": {"type": "ephemeral"}},
        {"role": "user", "content": "go on", "name": None, "cache_control": {"type": "ephemeral"}},
    ],
}
"""The parts and cache markers the walk admits: a system prompt, a user message and a tool
result of text parts (with the tool's name, as litellm's clients send it), a gateway's
``{"type": "ephemeral"}`` on a part, on a user message
(the last, with an SDK dump's ``"name": null``: an agent's rolling marker) and on a tool
message."""


_REASONED: dict[str, Any] = {
    "model": "m",
    "messages": [
        {"role": "user", "content": "look"},
        {
            "role": "assistant",
            "content": "",
            "refusal": None,
            "reasoning": "I will call it",
            "reasoning_details": [
                {"type": "reasoning.text", "text": "I will call it", "signature": "c2ln", "format": "f", "index": 0}
            ],
            "tool_calls": [
                {"id": "call_1", "type": "function", "index": 0, "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "done"},
        {"role": "assistant", "content": "so", "reasoning": "done, then"},
        {"role": "user", "content": "go on"},
    ],
}
"""OpenRouter's answers sent back whole: ``reasoning`` and ``reasoning_details``, ``"content": ""``
beside the calls, a call's ``index``; a turn of text and ``reasoning`` alone."""


_PDF = "data:application/pdf;base64,JVBERi0xLjQK"

_DOCUMENTS: dict[str, Any] = {
    "model": "m",
    "messages": [
        {"role": "developer", "content": "Answer from the documents."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "read these"},
                {"type": "file", "file": {"file_data": _PDF, "filename": "spec.pdf"}},
                {"type": "file", "file": {"file_id": "file-abc"}, "cache_control": {"type": "ephemeral"}},
            ],
        },
        {
            "role": "assistant",
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "open", "arguments": "{}"}}],
            "annotations": [],
            "refusal": None,
        },
        {
            "role": "tool",
            "tool_call_id": "call_1",
            "content": [
                {"type": "text", "text": "the page and its report:"},
                {"type": "image_url", "image_url": {"url": "https://x/a.png"}, "cache_control": {"type": "ephemeral"}},
                {"type": "file", "file": {"file_data": _PDF}, "cache_control": {"type": "ephemeral", "ttl": "1h"}},
            ],
        },
        {"role": "user", "content": "go on"},
    ],
}
"""A developer prompt (OpenAI's newer models' system prompt), documents (OpenAI's ``file`` part: its
data URL or Files-API id, a file name or none) in a user message and a tool result, beside an
image, a gateway's cache marker on a document and on an image (one with Anthropic's ``ttl``), and a
turn of calls with no ``content`` at all (the SDK's type does not require it) beside the
``"annotations": []`` OpenAI answers with."""

_LITELLM: dict[str, Any] = {
    "model": "m",
    "messages": [
        {"role": "system", "content": [{"type": "text", "text": "be brief", "cache_control": {"type": "ephemeral"}}]},
        {"role": "user", "content": [{"type": "text", "text": "look"}]},
        {
            "content": None,
            "role": "assistant",
            "tool_calls": [
                {"function": {"arguments": '{"command": "ls"}', "name": "bash"}, "id": "toolu_1", "type": "function"},
                {"function": {"arguments": "{}", "name": "browse"}, "id": "toolu_2", "type": "function"},
            ],
            "function_call": None,
            "reasoning_content": "I will look, then see",
            "thinking_blocks": [
                {"type": "thinking", "thinking": "I will look", "signature": "c2ln"},
                {"type": "thinking", "thinking": ", then see", "signature": "c2lnMg"},
            ],
            "provider_specific_fields": None,
        },
        {"role": "tool", "content": [{"type": "text", "text": "a.py"}], "tool_call_id": "toolu_1", "name": "bash"},
        {
            "role": "tool",
            "content": [
                {"type": "text", "text": "the page"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
            ],
            "tool_call_id": "toolu_2",
            "name": "browse",
        },
        {
            "content": "done",
            "role": "assistant",
            "function_call": None,
            "reasoning_content": "seen",
            "thinking_blocks": [{"type": "thinking", "thinking": "seen", "signature": "c2ln"}],
            "provider_specific_fields": None,
        },
        {"role": "user", "content": [{"type": "text", "text": "go on", "cache_control": {"type": "ephemeral"}}]},
    ],
}
"""An agent on litellm's SDK sending back litellm's own ``Message.model_dump()`` (signed
``thinking_blocks`` with the ``reasoning_content`` that copies them, its ``null`` fields) and
its tool results with the tool's ``name``, one of them a screenshot tool's."""


_HELPED: dict[str, Any] = {
    "model": "m",
    "messages": [
        {"role": "user", "content": "go"},
        {
            "content": None,
            "refusal": None,
            "role": "assistant",
            "annotations": None,
            "audio": None,
            "function_call": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "function": {"arguments": "{}", "name": "f", "parsed_arguments": None},
                    "type": "function",
                    "index": 0,
                }
            ],
            "parsed": None,
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "done"},
    ],
}
"""An assistant turn as the OpenAI SDK's stream helper builds it and ``model_dump()`` writes it
(``tests/test_sdk_helpers_dump.py`` builds it with the SDK)."""


_LEFT_OUT: dict[str, Any] = {
    "model": "m",
    "messages": [
        {"role": "system", "content": "You fix bugs."},
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": None,
            "reasoning_content": "I look.",
            "thinking_blocks": [{"type": "thinking", "thinking": "I look."}],
            "tool_calls": [{"id": "call_1", "function": {"arguments": "{}", "name": "f"}}],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "done"},
        {"role": "developer", "content": "Run the tests."},
        {"role": "user", "content": "and?"},
        {"role": "assistant", "content": "It is"},
    ],
}
"""What clients leave out or add beside the usual shapes, which the walk takes: a call without its ``type``,
litellm's thinking block with no signature, a developer message mid-session, a prefilled answer."""


def _bases() -> list[dict[str, Any]]:
    with gzip.open(_SESSION, "rt") as session:
        return [_PLAIN, _PARTS, _REASONED, _DOCUMENTS, _LITELLM, _HELPED, _LEFT_OUT, json.load(session)]


_BASES = _bases()

_ODD = st.sampled_from(
    [
        "",
        " ",
        "x",
        None,
        0,
        1.5,
        True,
        [],
        {},
        ["x"],
        {"x": 1},
        "\ud800",
        "high",
        "function",
        "ephemeral",
        {"type": "ephemeral"},
        {"type": "ephemeral", "ttl": "1h"},
    ]
).map(copy.deepcopy)
"""Odd values to put anywhere, each drawn as a fresh copy: ``sampled_from`` hands out the same
object every time, and a mutation that later picks a drawn ``{}`` as its container would change
the strategy's own elements (once into a dict holding itself), so a replay drew differently and
Hypothesis raised ``FlakyStrategyDefinition``."""

_PLACES = (
    "message",
    "block",
    "call",
    "function",
    "image_part",
    "image_url",
    "text_part",
    "cache",
    "detail",
)


def _containers(messages: list[Any]) -> Iterator[tuple[str, dict[str, Any]]]:  # noqa: C901, PLR0912 - a place a kind
    """Every object of the messages the front closes, named by what it is."""
    for message in messages:
        if not isinstance(message, dict):
            continue
        yield "message", message
        if isinstance(message.get("cache_control"), dict):
            yield "cache", message["cache_control"]
        blocks = message.get("thinking_blocks")
        for block in blocks if isinstance(blocks, list) else ():
            if isinstance(block, dict):
                yield "block", block
        details = message.get("reasoning_details")
        for detail in details if isinstance(details, list) else ():
            if isinstance(detail, dict):
                yield "detail", detail
        calls = message.get("tool_calls")
        for call in calls if isinstance(calls, list) else ():
            if not isinstance(call, dict):
                continue
            yield "call", call
            if isinstance(call.get("function"), dict):
                yield "function", call["function"]
        content = message.get("content")
        for part in content if isinstance(content, list) else ():
            if not isinstance(part, dict):
                continue
            if part.get("type") != "image_url":
                yield "text_part", part
                if isinstance(part.get("cache_control"), dict):
                    yield "cache", part["cache_control"]
                continue
            yield "image_part", part
            if isinstance(part.get("image_url"), dict):
                yield "image_url", part["image_url"]


@st.composite
def _mutated(draw: st.DrawFn) -> list[Any]:
    messages: list[Any] = copy.deepcopy(draw(st.sampled_from(_BASES))["messages"])
    for _ in range(draw(st.integers(1, 3))):
        place = draw(st.sampled_from(_PLACES))
        found = [container for kind, container in _containers(messages) if kind == place]
        if not found:
            continue
        container = draw(st.sampled_from(found))
        keys = sorted(container)
        key = draw(
            st.sampled_from(
                [
                    *keys,
                    "x_unknown",
                    "name",
                    "detail",
                    "refusal",
                    "cache_control",
                    "ttl",
                    "provider_specific_fields",
                    "index",
                    "parsed",
                    "parsed_arguments",
                    "reasoning",
                    "thinking_blocks",
                    "signature",
                    "thinking",
                ]
            )
        )
        if draw(st.booleans()) and key in container:
            del container[key]
        else:
            container[key] = draw(_ODD)
    return messages


@settings(max_examples=400, deadline=None)
@given(messages=_mutated())
def test_what_the_walk_admits_the_front_takes_as_it_is(messages: list[Any]) -> None:
    _front_takes(messages)


@settings(max_examples=300, deadline=None)
@given(messages=_mutated())
def test_a_turn_the_walk_takes_as_general_is_a_general_one(messages: list[Any]) -> None:
    """The walk takes a turn ``plain_turn`` refused that ``openrouter_turn`` takes as a general turn
    (read by the reader's general reading) without asking ``general_turn``: so every such turn must be one."""
    turns = openai_chat_assistant_turns
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "assistant":
            try:
                plain = turns.plain_turn(message)
                general = not plain and turns.openrouter_turn(message)
            except KeyError:  # a required key missing: the walk refuses the body (its one KeyError)
                continue
            if general:
                assert turns.general_turn(message), message


def _front_takes(messages: list[Any]) -> None:
    """What the walk admits the closed front takes as it is; or, where a message is a client's
    dialect the closed front refuses (a user's ``name``, an assistant's text parts, ``"tool_calls":
    []``, an audio part), the full wire shapes take the messages as they are (what the canonical path
    reads then) and every message the closed front refuses is one the walk marked general (read by
    the reader's own general reading, never a pass's own) or an assistant turn whose text comes as
    text parts, beside ``"tool_calls": []`` or a server's null reasoning fields, which a pass writes
    as a plain turn's text, or whose call carries Gemini's signature, which a pass reads by the
    reader's call reading, or an assistant turn with a participant's ``name``, which a pass writes as a
    plain turn after the writer's report of the name, or a message with litellm's image URL text (``_image_url_text``)
    (``test_direct_unbenched_shapes.py`` holds the writings equal)."""
    found = admitted(messages)
    if found is None:
        return
    validated = COMMON_MESSAGES.validate({"messages": messages})
    if validated is not None:
        assert validated["messages"] == messages
        return
    wire = messages_adapter().validate_python(messages)
    assert [dict(message) for message in wire] == messages
    refused = {
        at
        for at, message in enumerate(messages)
        if COMMON_MESSAGES.validate({"messages": [message]}) is None
        and not (message["role"] == "assistant" and isinstance(message.get("content"), list))
        and not (message["role"] == "assistant" and message.get("tool_calls", 0) == [])
        and not (message["role"] == "assistant" and _servers_nulls(message))
        and not (
            message["role"] == "assistant" and any("extra_content" in call for call in message.get("tool_calls") or ())
        )
        and not (message["role"] == "assistant" and _untyped_calls(message))
        and not (message["role"] == "assistant" and isinstance(message.get("name"), str))
        and not _image_url_text(message)
    }
    assert refused <= found[1], (messages, found)


def _untyped_calls(message: dict[str, Any]) -> bool:
    """A turn with a call of no ``type`` (its one value, ``function``), which the reader reads as that
    call with a pure spelling marker and a pass writes as a plain turn's call."""
    calls = message.get("tool_calls")
    return isinstance(calls, list) and any(isinstance(call, dict) and "type" not in call for call in calls)


def _image_url_text(message: dict[str, Any]) -> bool:
    """A message with an image part whose ``image_url`` is the URL text itself (litellm's
    spelling), which the reader reads as the image with a pure spelling marker and a pass writes
    by the reader's ``decode_part`` and the writer's part rule."""
    content = message.get("content")
    return isinstance(content, list) and any(
        isinstance(part, dict) and isinstance(part.get("image_url"), str) for part in content
    )


def _servers_nulls(message: dict[str, Any]) -> bool:
    """A turn with a compatible server's ``"reasoning_content": null`` or ``"reasoning": null``
    (vLLM's, OpenRouter's answers as the SDK dumps them), which the reader keeps as pure spelling."""
    return any(key in message and message[key] is None for key in ("reasoning_content", "reasoning"))


_TURN_CALL = {"id": "call_1", "type": "function", "function": {"name": "run", "arguments": "{}"}}
_DIALECTS: dict[str, dict[str, Any]] = {
    "a user's name": {"role": "user", "content": "go", "name": "alice"},
    "a user's audio": {
        "role": "user",
        "content": [{"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}],
    },
    "a named user's audio and text": {
        "role": "user",
        "name": "bob",
        "content": [
            {"type": "text", "text": "hear"},
            {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "mp3"}},
        ],
        "cache_control": {"type": "ephemeral"},
    },
    "an assistant's text parts with a marker": {
        "role": "assistant",
        "content": [{"type": "text", "text": "done"}],
        "cache_control": {"type": "ephemeral"},
    },
    "an assistant marker": {"role": "assistant", "content": "done", "cache_control": {"type": "ephemeral"}},
    "an empty text beside calls and a marker": {
        "role": "assistant",
        "content": "",
        "reasoning_content": "thought",
        "tool_calls": [_TURN_CALL],
        "cache_control": {"type": "ephemeral"},
    },
}


@pytest.mark.parametrize("shape", sorted(_DIALECTS))
def test_a_clients_dialect_is_admitted_as_the_fronts_take_it(shape: str) -> None:
    """Each dialect the walk admits (read generally: its position marked), as the fronts take it."""
    turn = copy.deepcopy(_DIALECTS[shape])
    after = [{"role": "tool", "tool_call_id": "call_1", "content": "ok"}] if turn.get("tool_calls") else []
    messages = [{"role": "user", "content": "go"}, turn, *after, {"role": "user", "content": "and?"}]
    found = admitted(messages)
    assert found is not None
    assert 1 in found[1]
    _front_takes(messages)


def test_a_named_assistant_turn_is_a_plain_turn() -> None:
    """A participant's ``name`` (multi-agent clients name each agent's turns) on a turn that is plain
    but for it: a plain turn, which a pass writes after the writer's report of the name; an empty or
    non-text name is refused (the front's); a name beside a client's marker is a general turn."""
    after = [{"role": "tool", "tool_call_id": "call_1", "content": "ok"}, {"role": "user", "content": "and?"}]
    for turn in (
        {"role": "assistant", "content": None, "name": "coder", "tool_calls": [copy.deepcopy(_TURN_CALL)]},
        {"role": "assistant", "content": "Opening.", "name": "coder", "tool_calls": [copy.deepcopy(_TURN_CALL)]},
        {
            "role": "assistant",
            "name": "coder",
            "reasoning_content": "I look.",
            "tool_calls": [copy.deepcopy(_TURN_CALL)],
        },
    ):
        messages = [{"role": "user", "content": "go"}, turn, *after]
        assert admitted(messages) == ([0, 1, 2, 3], set()), turn
        _front_takes(messages)
    for spelled in ({}, {"tool_calls": []}, {"tool_calls": None, "refusal": None}):
        messages = [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": "Done.", "name": "coder", **spelled},
        ]
        assert admitted(messages) == ([0, 1], set()), spelled
        _front_takes(messages)
    for name in ("", 3, ["coder"]):
        assert (
            admitted([{"role": "user", "content": "go"}, {"role": "assistant", "content": "Done.", "name": name}])
            is None
        )
    marked = {"role": "assistant", "content": "Done.", "name": "coder", "cache_control": {"type": "ephemeral"}}
    assert admitted([{"role": "user", "content": "go"}, marked]) == ([0, 1], {1})


def test_an_assistant_text_as_text_parts_is_a_plain_turn() -> None:
    """Text parts of a type and a text alone (the SDK's ``ChatCompletionAssistantMessageParam``),
    beside calls or alone: a plain turn, its parts written as a plain turn's text."""
    parts = [{"type": "text", "text": "I open it."}, {"type": "text", "text": "Now."}]
    turn = {"role": "assistant", "content": parts, "tool_calls": [copy.deepcopy(_TURN_CALL)]}
    result = {"role": "tool", "tool_call_id": "call_1", "content": "ok"}
    answer = {"role": "assistant", "content": copy.deepcopy(parts[:1])}
    messages = [{"role": "user", "content": "go"}, turn, result, answer, {"role": "user", "content": "and?"}]
    assert admitted(messages) == ([0, 1, 2, 3, 4], set())
    _front_takes(messages)


def test_an_empty_list_of_calls_on_a_text_is_a_plain_turn() -> None:
    """``"tool_calls": []`` on a final answer (clients that always send the list) is spelling the
    reader keeps as a marker another format drops: a plain turn, reasoning beside it or not; on a
    turn of no text it is not one (nothing to write)."""
    for reasoning in ({}, {"reasoning_content": "thought"}):
        turn = {"role": "assistant", "content": "done", **reasoning, "tool_calls": []}
        messages = [{"role": "user", "content": "go"}, turn, {"role": "user", "content": "and?"}]
        assert admitted(messages) == ([0, 1, 2], set())
        _front_takes(messages)
    for content in (None, "", " "):
        turn = {"role": "assistant", "content": content, "tool_calls": []}
        assert admitted([{"role": "user", "content": "go"}, turn, {"role": "user", "content": "and?"}]) is None


def test_a_servers_null_reasoning_fields_are_a_plain_turns() -> None:
    """vLLM's and OpenRouter's answers as the SDK dumps them (``"reasoning_content": null``,
    ``"reasoning": null``, the SDK's four nulls, vLLM's ``"tool_calls": []`` on a text): plain turns;
    so is a text in either field when it is the turn's one reasoning field (the reader reads one
    thinking part of it); a text in both (vLLM's copy, read as one part marked) or ``reasoning``
    beside OpenRouter's ``reasoning_details`` is not."""
    nulls = {"refusal": None, "annotations": None, "audio": None, "function_call": None}
    called = {"role": "assistant", "content": None, **nulls, "tool_calls": [copy.deepcopy(_TURN_CALL)]}
    result = {"role": "tool", "tool_call_id": "call_1", "content": "ok"}
    answer = {"role": "assistant", "content": "done", **nulls, "tool_calls": []}
    for server in ({"reasoning_content": None}, {"reasoning_content": None, "reasoning": None}, {"reasoning": None}):
        messages = [{"role": "user", "content": "go"}, {**called, **server}, result, {**answer, **server}]
        messages.append({"role": "user", "content": "and?"})
        assert admitted(messages) == ([0, 1, 2, 3, 4], set()), server
        _front_takes(messages)
    for field in ("reasoning", "reasoning_content"):
        for server in ({}, {"reasoning_content": None}):
            reasoned = [{"role": "user", "content": "go"}, {**answer, **server, field: "I think."}]
            reasoned.append({"role": "user", "content": "?"})
            assert admitted(reasoned) == ([0, 1, 2], set()), (field, server)
            _front_takes(reasoned)
    detail = {"type": "reasoning.text", "text": "I think.", "format": "unknown", "index": 0}
    for both in ({"reasoning_content": "I think."}, {"reasoning_details": [detail]}):
        reasoned = [{"role": "user", "content": "go"}, {**answer, "reasoning": "I think.", **both}]
        reasoned.append({"role": "user", "content": "?"})
        assert admitted(reasoned) != ([0, 1, 2], set()), both
    assert admitted([{"role": "user", "content": "go"}, {**answer, "reasoning": ["I think."]}]) is None


def test_a_call_with_geminis_thought_signature_is_a_plain_turns() -> None:
    """Gemini's OpenAI compatibility signs a turn's first call (``extra_content.google.thought_signature``):
    a plain turn, whose signed call a pass reads by the reader's own call reading (the signature kept
    in the call's bag, for the writer to carry or report); anything else in ``extra_content``, or a
    signed call beside the SDK helpers' marks, is the canonical path's."""
    signed = {**copy.deepcopy(_TURN_CALL), "extra_content": {"google": {"thought_signature": "c2ln"}}}
    second = {**copy.deepcopy(_TURN_CALL), "id": "call_2"}
    turn = {"role": "assistant", "content": None, "tool_calls": [signed, second]}
    results = [{"role": "tool", "tool_call_id": call_id, "content": "ok"} for call_id in ("call_1", "call_2")]
    messages = [{"role": "user", "content": "go"}, turn, *results, {"role": "user", "content": "and?"}]
    assert admitted(messages) == ([0, 1, 2, 4], set())
    _front_takes(messages)
    second["index"] = 1
    assert admitted(messages) is None
    for extra in ({"google": {"thought_signature": 1}}, {"google": {"thought_signature": "c2ln", "x": 1}}, {"x": {}}):
        signed["extra_content"] = extra
        assert admitted(messages) is None, extra


def test_calls_without_their_type_are_a_plain_turns() -> None:
    """A call with no ``"type": "function"`` (clients that leave out its one value), beside typed ones or
    not: a plain turn, which the full wire shapes take (the closed front does not); a call of no type
    with anything else beside its id and function is the canonical path's."""
    untyped = {"id": "call_1", "function": {"name": "run", "arguments": "{}"}}
    second = {**copy.deepcopy(_TURN_CALL), "id": "call_2"}
    turn = {"role": "assistant", "content": None, "tool_calls": [untyped, second]}
    results = [{"role": "tool", "tool_call_id": call_id, "content": "ok"} for call_id in ("call_1", "call_2")]
    messages = [{"role": "user", "content": "go"}, turn, *results, {"role": "user", "content": "and?"}]
    assert admitted(messages) == ([0, 1, 2, 4], set())
    _front_takes(messages)
    for odd in ({"index": 0}, {"extra_content": {"google": {"thought_signature": "c2ln"}}}):
        turn["tool_calls"] = [{**untyped, **odd}]
        assert admitted([messages[0], turn, results[0], messages[-1]]) is None, odd
    turn["tool_calls"] = [{"type": "function", "function": untyped["function"]}]  # no id
    assert admitted([messages[0], turn, results[0], messages[-1]]) is None


def test_a_developer_message_mid_session_is_a_general_one() -> None:
    """A harness's developer message after the conversation started (Codex's reminders, for newer
    models) is admitted as a system message there is: general, written by the writer's rule for a
    system turn; one right after the prompt joins it (the canonical path's)."""
    reminder = {"role": "developer", "content": "Run the tests."}
    messages = [{"role": "system", "content": "Rules."}, {"role": "user", "content": "go"}, reminder]
    messages.append({"role": "user", "content": "?"})
    assert admitted(messages) == ([0, 1, 2, 3], {2})
    _front_takes(messages)
    assert admitted([messages[0], reminder, *messages[1:2], messages[3]]) is None


def test_an_image_url_given_as_its_text_is_admitted() -> None:
    """litellm's ``"image_url": "https://..."`` (a data URL too), in a task or a tool result, as
    the full wire shapes take it; an empty text is not."""
    image = {"type": "image_url", "image_url": "https://example.com/a.png"}
    messages = [{"role": "user", "content": [{"type": "text", "text": "see"}, image]}, {"role": "user", "content": "?"}]
    assert admitted(messages) == ([0, 1], set())
    _front_takes(messages)
    image["image_url"] = ""
    assert admitted(messages) is None


def test_litellms_redacted_thinking_blocks_are_a_plain_turns() -> None:
    """Claude's ``redacted_thinking`` in litellm's ``thinking_blocks`` (its ``data``, no text),
    beside signed blocks or alone: a plain turn, the reasoning text their texts joined; an empty
    ``data`` or another key is not."""
    redacted = {"type": "redacted_thinking", "data": "ZW5j"}
    signed = {"type": "thinking", "thinking": "I look.", "signature": "c2ln"}
    for blocks, text in (([signed, redacted], "I look."), ([redacted], "")):
        turn = {"role": "assistant", "content": "done", "reasoning_content": text, "thinking_blocks": blocks}
        messages = [{"role": "user", "content": "go"}, copy.deepcopy(turn), {"role": "user", "content": "?"}]
        assert admitted(messages) == ([0, 1, 2], set())
        _front_takes(messages)
    for wrong in ({"type": "redacted_thinking", "data": ""}, {"type": "redacted", "data": "ZW5j"}):
        turn = {"role": "assistant", "content": "done", "reasoning_content": "", "thinking_blocks": [wrong]}
        assert admitted([{"role": "user", "content": "go"}, turn, {"role": "user", "content": "?"}]) is None


def test_litellms_unsigned_thinking_blocks_are_a_plain_turns() -> None:
    """A ``thinking`` block of a text alone (litellm builds one with no signature), beside signed
    blocks or alone, as the closed front takes it: a plain turn, the reasoning text their texts
    joined; a text of another type, another key or another reasoning text is not."""
    unsigned = {"type": "thinking", "thinking": "I look."}
    signed = {"type": "thinking", "thinking": "First.", "signature": "c2ln"}
    for blocks, text in (([unsigned], "I look."), ([signed, unsigned], "First.I look.")):
        turn = {"role": "assistant", "content": "done", "reasoning_content": text, "thinking_blocks": blocks}
        messages = [{"role": "user", "content": "go"}, copy.deepcopy(turn), {"role": "user", "content": "?"}]
        assert admitted(messages) == ([0, 1, 2], set())
        _front_takes(messages)
    for wrong, text in (({**unsigned, "thinking": 1}, "I look."), ({"type": "thinking", "text": "I look."}, "I look.")):
        turn = {"role": "assistant", "content": "done", "reasoning_content": text, "thinking_blocks": [wrong]}
        assert admitted([{"role": "user", "content": "go"}, turn, {"role": "user", "content": "?"}]) is None
    turn = {"role": "assistant", "content": "done", "reasoning_content": "Other.", "thinking_blocks": [unsigned]}
    assert admitted([{"role": "user", "content": "go"}, turn, {"role": "user", "content": "?"}]) is None


def test_a_final_assistant_turn_is_admitted_with_no_call() -> None:
    """A final assistant turn (a prefill the model continues) of text, as the front takes it; one of
    calls with no results after them is the history rules' (the canonical path's)."""
    messages = [{"role": "user", "content": "go"}, {"role": "assistant", "content": "{"}]
    assert admitted(messages) == ([0, 1], set())
    _front_takes(messages)
    messages[1] = {"role": "assistant", "content": None, "tool_calls": [copy.deepcopy(_TURN_CALL)]}
    assert admitted(messages) is None


def test_a_prompt_of_several_system_messages_is_admitted() -> None:
    """LangChain's and AutoGen's several ``SystemMessage`` s first: each a canonical message the
    reader keeps apart, which a pair writes by its writer's system rule; a system message after a
    developer prompt is not one of them (the canonical path's)."""
    systems = [
        {"role": "system", "content": "Rules."},
        {"role": "system", "content": [{"type": "text", "text": "More."}]},
    ]
    messages = [*systems, {"role": "system", "content": "Last."}, {"role": "user", "content": "go"}]
    assert admitted(messages) == ([0, 1, 2, 3], set())
    _front_takes(messages)
    developer = [{"role": "developer", "content": "Rules."}, *messages[1:]]
    assert admitted(developer) is None


def test_an_empty_text_beside_calls_is_a_plain_turn() -> None:
    """``content: ""`` beside calls (clients that always send a string) is spelling the reader reads
    as no text (``_content: "empty"``): a plain turn, reasoning beside it or not."""
    for reasoning in ({}, {"reasoning_content": "thought"}):
        turn = {"role": "assistant", "content": "", **reasoning, "tool_calls": [copy.deepcopy(_TURN_CALL)]}
        result = {"role": "tool", "tool_call_id": "call_1", "content": "ok"}
        messages = [{"role": "user", "content": "go"}, turn, result, {"role": "user", "content": "and?"}]
        assert admitted(messages) == ([0, 1, 2, 3], set())
        _front_takes(messages)


@pytest.mark.parametrize(
    "turn",
    [
        {"role": "user", "content": "go", "name": 1},
        {"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": "x"}}]},
        {"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": "x", "format": "wav", "y": 1}}]},
        {"role": "assistant", "content": [{"type": "text", "text": " "}]},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "no"}]},
        {"role": "assistant", "content": "", "tool_calls": []},
        {"role": "assistant", "content": "", "reasoning_content": "thought"},
        {"role": "assistant", "content": "done", "cache_control": {"type": "persistent"}},
    ],
)
def test_a_dialect_beyond_the_pass_is_handed_back(turn: dict[str, Any]) -> None:
    """A blank text, a refusal part, an odd audio part or marker, an empty turn: the canonical path's."""
    assert admitted([{"role": "user", "content": "go"}, turn, {"role": "user", "content": "and?"}]) is None


_CALL = {"id": "call_1", "type": "function", "function": {"name": "run", "arguments": "{}"}}


@pytest.mark.parametrize("content", [None, "done"])
@pytest.mark.parametrize("calls", [True, False])
@pytest.mark.parametrize("field", ["refusal", "annotations", "audio", "function_call", "name"])
def test_the_walk_admits_sdk_fields_only_null(content: str | None, calls: bool, field: str) -> None:
    """The SDK dump's fields of an assistant turn, proved ``null`` by counting the turn's
    ``null`` values: every one ``null`` admitted, any one of them set refused (the front
    takes those fields as ``null`` only), a ``null`` content or a text one alike."""
    turn: dict[str, Any] = {"role": "assistant", "content": content, "reasoning_content": "thought"}
    if calls:
        turn["tool_calls"] = [copy.deepcopy(_CALL)]
    turn.update(dict.fromkeys(("refusal", "annotations", "audio", "function_call", "name")))
    after = [{"role": "tool", "tool_call_id": "call_1", "content": "ok"}] if calls else []
    messages = [{"role": "user", "content": "go"}, turn, *after, {"role": "user", "content": "and?"}]
    assert (admitted(messages) is not None) is (calls or content is not None)
    turn[field] = ""
    assert admitted(messages) is None
    assert COMMON_MESSAGES.validate({"messages": messages}) is None  # the closed front refuses it too


@pytest.mark.parametrize("body", _BASES, ids=lambda body: str(len(body["messages"])))
def test_the_walk_admits_its_bases(body: dict[str, Any]) -> None:
    assert admitted(body["messages"]) is not None


def _objects(value: Any) -> Iterator[int]:
    if isinstance(value, dict | list):
        yield id(value)
        for item in value.values() if isinstance(value, dict) else value:
            yield from _objects(item)


@pytest.mark.parametrize("target", sorted(target for source, target in DIRECT_PATHS if source == "openai-chat"))
@pytest.mark.parametrize("body", _BASES, ids=lambda body: str(len(body["messages"])))
def test_written_shares_no_object_with_the_messages(body: dict[str, Any], target: str) -> None:
    given_body = copy.deepcopy(body)
    written = chatcodec.convert_request(given_body, source="openai-chat", target=target, on_loss="ignore")
    assert set(_objects(written)).isdisjoint(_objects(given_body["messages"]))
    assert given_body == body  # and the caller's body is as it was


def test_litellm_nulls_asked_inline_are_spelled_nulls() -> None:
    """The walk asks litellm's two ``null`` fields of an assistant turn inline before the rest of
    the SDK dump's: both must be fields whose ``null`` the reader reads as spelling, and either
    set to a value is refused, as the front refuses it."""
    from chatcodec._providers.openai_chat.null_spelling import SPELLED_NULLS

    litellm = ("function_call", "provider_specific_fields")
    assert set(litellm) <= SPELLED_NULLS
    for field in litellm:
        turn = {"role": "assistant", "content": "done", "reasoning_content": "r", **dict.fromkeys(litellm)}
        messages = [{"role": "user", "content": "go"}, turn, {"role": "user", "content": "and?"}]
        assert admitted(messages) is not None
        turn[field] = {"name": "f"}
        assert admitted(messages) is None
        assert COMMON_MESSAGES.validate({"messages": messages}) is None
