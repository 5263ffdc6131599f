"""Shapes real agent traffic carries that the bench's generator does not: each goes the direct path (a
body handed back costs the canonical path, 1.5-5x), and what it gives is what the canonical path
(the oracle) gives, losses included.

From OpenAI Chat, into Anthropic and into Responses: a document (OpenAI's ``file`` part) in a user
message or a tool result, a gateway's cache marker on an image or a document, Anthropic's ``ttl`` on
a marker, a developer prompt (OpenAI's newer models take the system prompt so), a turn of calls with
no ``content`` (recorded from the live API's clients), the final answer of a task as the OpenAI SDK
and litellm dump it (a text turn with ``"tool_calls": null`` beside the other nulls). From Responses
into OpenAI Chat: Codex's typed input messages (``"type": "message"`` on a user, system or developer
item), a user's files and images (an image without its ``detail``), images and files in a call's
output (a screenshot tool's: moved to a user message after the run of results, a loss each, as the
Chat writer moves them), custom (freeform) calls and their outputs (Codex's ``apply_patch``), an
assistant message as the Agents SDK replays it (``logprobs: []``, its ``id`` and ``status``), and an
assistant message replayed with its ``phase`` (recorded from the live API:
``tests/fixtures/openai-responses/request/assistant_message_phase_replay.json``). A shape the writer
cannot carry (a document by URL into Anthropic) is handed back, and the canonical path says why.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec._direct import (
    anthropic_to_openai_chat,
    openai_chat_to_anthropic,
    openai_chat_to_openai_responses,
    openai_responses_to_openai_chat,
    openai_responses_to_openai_chat_replayed,
)
from chatcodec._direct.openai_responses_to_openai_chat_replayed import one_text
from chatcodec._direct.table import canonical_only
from chatcodec._losses import LossRecorder
from chatcodec._registry import get_codec

_PDF = "data:application/pdf;base64,JVBERi0xLjQK"
_IMAGE = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
_MARK = {"cache_control": {"type": "ephemeral"}}
_HOUR = {"cache_control": {"type": "ephemeral", "ttl": "1h"}}
_DEVELOPER = {"role": "developer", "content": "Answer from the documents."}


def _file(**file: str) -> dict[str, Any]:
    return {"type": "file", "file": file}


def _body(first: Any = "You are terse.", user: Any = "Read it.", result: Any = "done", **top: Any) -> dict[str, Any]:
    system = first if isinstance(first, dict) else {"role": "system", "content": first}
    return {
        "model": "claude-sonnet-4-5",
        "max_completion_tokens": 1000,
        "messages": [
            copy.deepcopy(system),
            {"role": "user", "content": copy.deepcopy(user)},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "open", "arguments": "{}"}}],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": copy.deepcopy(result)},
            {"role": "user", "content": "Go on."},
        ],
        **top,
    }


SHAPES: dict[str, dict[str, Any]] = {
    "document in a user message": _body(
        user=[{"type": "text", "text": "Read:"}, _file(file_data=_PDF, filename="a.pdf")]
    ),
    "document in a tool result": _body(result=[{"type": "text", "text": "The file:"}, _file(file_data=_PDF)]),
    "document by file id": _body(user=[_file(file_id="file-abc", filename="spec.pdf")]),
    "document of text": _body(user=[_file(file_data="data:text/plain;base64,aGVsbG8=", filename="a.txt")]),
    "marked document": _body(user=[{**_file(file_data=_PDF), **_MARK}]),
    "marked image in a user message": _body(user=[{"type": "text", "text": "See:"}, {**_IMAGE, **_MARK}]),
    "marked image in a tool result": _body(result=[{**_IMAGE, **_MARK}]),
    "a ttl on a text part": _body(user=[{"type": "text", "text": "Read it.", **_HOUR}]),
    "a ttl on the system prompt's part": _body(first=[{"type": "text", "text": "You are terse.", **_HOUR}]),
    "a developer prompt": _body(first=_DEVELOPER),
    "a developer prompt of parts": _body(
        first={"role": "developer", "content": [{"type": "text", "text": "A", **_MARK}]}
    ),
    "a developer prompt, no limit": {
        key: value for key, value in _body(first=_DEVELOPER).items() if key != "max_completion_tokens"
    },
}
SHAPES["the SDK's dump of an answer (annotations [], tool_calls null)"] = _body()
SHAPES["the SDK's dump of an answer (annotations [], tool_calls null)"]["messages"][2].update(
    annotations=[], refusal=None, audio=None, function_call=None
)
_ANSWER = {"role": "assistant", "content": "It is open."}
SHAPES["the SDK's dump of a final answer (a text turn: tool_calls null)"] = _body()
SHAPES["the SDK's dump of a final answer (a text turn: tool_calls null)"]["messages"].insert(
    4, {**_ANSWER, "tool_calls": None, "annotations": [], "refusal": None, "audio": None, "function_call": None}
)
SHAPES["litellm's dump of a final answer (a text turn: tool_calls null)"] = _body()
SHAPES["litellm's dump of a final answer (a text turn: tool_calls null)"]["messages"].insert(
    4, {**_ANSWER, "tool_calls": None, "function_call": None, "provider_specific_fields": None}
)
SHAPES["a turn of calls without content"] = _body()
del SHAPES["a turn of calls without content"]["messages"][2]["content"]
SHAPES["a ttl on a tool message"] = _body()
SHAPES["a ttl on a tool message"]["messages"][3].update(_HOUR)
SHAPES["a call without its type"] = _body()
del SHAPES["a call without its type"]["messages"][2]["tool_calls"][0]["type"]
SHAPES["litellm's unsigned thinking blocks"] = _body()
SHAPES["litellm's unsigned thinking blocks"]["messages"][2].update(
    reasoning_content="I open it.", thinking_blocks=[{"type": "thinking", "thinking": "I open it."}]
)
SHAPES["litellm's unsigned thinking block beside a signed one"] = _body()
SHAPES["litellm's unsigned thinking block beside a signed one"]["messages"][2].update(
    reasoning_content="First.Then.",
    thinking_blocks=[
        {"type": "thinking", "thinking": "First.", "signature": "c2ln"},
        {"type": "thinking", "thinking": "Then."},
    ],
)
for _name, _prefill in {
    "a prefilled answer": {"role": "assistant", "content": "The file says:"},
    "a prefilled answer ending in whitespace (trimmed)": {"role": "assistant", "content": "The file says: \n"},
    "a prefilled answer of text parts": {"role": "assistant", "content": [{"type": "text", "text": "{"}]},
    "a prefilled answer after its reasoning": {"role": "assistant", "content": "{", "reasoning_content": "JSON."},
    "a prefilled answer after its reasoning, as newer vLLM spells it": {
        "role": "assistant",
        "content": "{",
        "reasoning": "JSON.",
    },
    "a prefilled answer as the SDK dumps it": {**_ANSWER, "tool_calls": None, "refusal": None, "annotations": []},
}.items():
    SHAPES[_name] = _body()
    SHAPES[_name]["messages"].append(_prefill)
SHAPES["a prefilled answer to a model that refuses one"] = {**_body(), "model": "claude-opus-4-6"}
SHAPES["a prefilled answer to a model that refuses one"]["messages"].append({"role": "assistant", "content": "{"})
_REMINDER = {"role": "developer", "content": "Run the tests."}
SHAPES["a developer message mid-session"] = _body()
SHAPES["a developer message mid-session"]["messages"].insert(4, _REMINDER)
SHAPES["a developer message of parts mid-session, marked"] = _body()
SHAPES["a developer message of parts mid-session, marked"]["messages"].insert(
    2, {"role": "developer", "content": [{"type": "text", "text": "Be brief.", **_MARK}]}
)
SHAPES["a developer prompt and a developer message after two results"] = _body(first=_DEVELOPER)
SHAPES["a developer prompt and a developer message after two results"]["messages"][2:4] = [
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": f"call_{n}", "type": "function", "function": {"name": "open", "arguments": "{}"}} for n in (1, 2)
        ],
    },
    *({"role": "tool", "tool_call_id": f"call_{n}", "content": "done"} for n in (1, 2)),
    _REMINDER,
]

# Client dialects (issue 107): shapes the closed front does not take or the walk took for no plain turn,
# read by the reader's general reading and written by the writer's own rules.
_CALLED = {
    "role": "assistant",
    "content": None,
    "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "open", "arguments": "{}"}}],
}
_SIGNED = {
    "reasoning_content": "I open it.",
    "thinking_blocks": [{"type": "thinking", "thinking": "I open it.", "signature": "c2ln"}],
}
_VLLM_NULLS = {"refusal": None, "annotations": None, "audio": None, "function_call": None, "reasoning_content": None}
"""What the OpenAI SDK's ``model_dump()`` of a vLLM server's answer holds beside its text and calls."""
_URL = "https://example.com/screen.png"
_DATA_URL = "data:image/png;base64,iVBORw0KGgo="
_GEMINI_SIGNED = {"extra_content": {"google": {"thought_signature": "Q2lRQlZ0cHA="}}}
"""What Gemini's OpenAI compatibility puts on the first call of a turn, which an agent sends back."""
_AUDIO = {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}


def _dialect(change: Any, at: int = 2) -> dict[str, Any]:
    body = _body()
    change(body["messages"], body["messages"][at])
    return body


SHAPES.update(
    {
        "a user message with a name (AutoGen)": _dialect(lambda _, m: m.update(name="alice"), 1),
        "a user message with a name after results": _dialect(lambda _, m: m.update(name="alice"), 4),
        "a named user message with a marker": _dialect(lambda _, m: m.update(name="alice", **_MARK), 1),
        "a named user message of parts": _dialect(lambda _, m: m.update(name="bob", content=[_IMAGE]), 1),
        "an assistant text as text parts": _dialect(
            lambda ms, _: ms.insert(4, {"role": "assistant", "content": [{"type": "text", "text": "It is open."}]})
        ),
        "an assistant text as text parts beside calls": _dialect(
            lambda _, m: m.update(content=[{"type": "text", "text": "Opening."}, {"type": "text", "text": "Now."}])
        ),
        "tool_calls [] on a final answer": _dialect(lambda ms, _: ms.insert(4, {**_ANSWER, "tool_calls": []})),
        "vLLM's answers as the SDK dumps them (reasoning_content null, tool_calls [])": _dialect(
            lambda ms, m: m.update(_VLLM_NULLS) or ms.insert(4, {**_ANSWER, **_VLLM_NULLS, "tool_calls": []})
        ),
        "Gemini's thought signature on a call (its OpenAI compatibility)": _dialect(
            lambda _, m: m["tool_calls"][0].update(_GEMINI_SIGNED)
        ),
        "OpenRouter's answers as the SDK dumps them (reasoning null)": _dialect(
            lambda ms, m: m.update(reasoning=None, refusal=None) or ms.insert(4, {**_ANSWER, "reasoning": None})
        ),
        "tool_calls [] on a reasoned final answer": _dialect(
            lambda ms, _: ms.insert(4, {**_ANSWER, "reasoning_content": "Done.", "tool_calls": []})
        ),
        "a user message with an empty name": _dialect(lambda _, m: m.update(name=""), 1),
        "a named user message after a named one": _dialect(
            lambda ms, m: m.update(name="alice") or ms.insert(2, {"role": "user", "content": "And?", "name": "bob"}), 1
        ),
        "an empty content beside calls and signed thinking": _dialect(lambda _, m: m.update(content="", **_SIGNED)),
        "an empty content beside calls and reasoning": _dialect(
            lambda _, m: m.update(content="", reasoning_content="I open it.")
        ),
        "a marker on an assistant turn of calls": _dialect(lambda _, m: m.update(_MARK)),
        "a marker on an assistant answer": _dialect(lambda ms, _: ms.insert(4, {**_ANSWER, **_MARK})),
        "a marker on a signed turn": _dialect(lambda _, m: m.update(_SIGNED, **_MARK)),
        "litellm's redacted thinking beside a signed block": _dialect(
            lambda _, m: m.update(
                reasoning_content="I open it.",
                thinking_blocks=[*_SIGNED["thinking_blocks"], {"type": "redacted_thinking", "data": "ZW5j"}],
            )
        ),
        "litellm's redacted thinking alone": _dialect(
            lambda _, m: m.update(reasoning_content="", thinking_blocks=[{"type": "redacted_thinking", "data": "ZW5j"}])
        ),
        "a user audio part": _dialect(lambda _, m: m.update(content=[_AUDIO]), 1),
        "a user audio part beside text": _dialect(
            lambda _, m: m.update(content=[{"type": "text", "text": "Hear:"}, _AUDIO]), 1
        ),
        "a user audio part after results": _dialect(lambda _, m: m.update(content=[_AUDIO]), 4),
        "an assistant turn of calls with a name (a multi-agent client)": _dialect(lambda _, m: m.update(name="coder")),
        "a named assistant answer": _dialect(lambda ms, _: ms.insert(4, {**_ANSWER, "name": "reviewer"})),
        "a named assistant turn with signed thinking": _dialect(lambda _, m: m.update(_SIGNED, name="coder")),
        "a named assistant turn with reasoning": _dialect(
            lambda _, m: m.update(name="coder", reasoning_content="I open it.")
        ),
        "a named assistant turn with a marker": _dialect(lambda _, m: m.update(_MARK, name="coder")),
        "reasoning as newer vLLM and Groq spell it, on a turn of calls": _dialect(
            lambda _, m: m.update(reasoning="I open it.")
        ),
        "reasoning as newer vLLM spells it, on an answer as the SDK dumps it": _dialect(
            lambda ms, m: (
                m.update(_VLLM_NULLS, reasoning="I open it.")
                or ms.insert(4, {**_ANSWER, **_VLLM_NULLS, "reasoning": "Done.", "tool_calls": []})
            )
        ),
        "an empty reasoning text beside an empty content and calls": _dialect(
            lambda _, m: m.update(content="", reasoning="")
        ),
        "a reasoning text on a final answer": _dialect(lambda ms, _: ms.insert(4, {**_ANSWER, "reasoning": "Done."})),
        "named user and assistant turns": _dialect(
            lambda ms, m: m.update(name="coder") or ms[1].update(name="alice") or ms.insert(4, {**_ANSWER, "name": "x"})
        ),
    }
)

_REMINDER = {"role": "system", "content": "Run the tests after each change."}
SHAPES.update(
    {
        "a system message after results (a harness's reminder)": _dialect(lambda ms, _: ms.insert(4, _REMINDER)),
        "a system message after results, to a model that takes system turns": {
            **_dialect(lambda ms, _: ms.insert(4, _REMINDER)),
            "model": "claude-opus-4-8",
        },
        "a system message after the task": _dialect(lambda ms, _: ms.insert(2, _REMINDER)),
        "a system message after an answer": _dialect(lambda ms, _: ms.insert(4, _ANSWER) or ms.insert(5, _REMINDER)),
        "a system message of text parts, with a marker": _dialect(
            lambda ms, _: ms.insert(4, {"role": "system", "content": [{"type": "text", "text": "Be brief."}], **_MARK})
        ),
        "a system message last": _dialect(lambda ms, _: ms.append(_REMINDER)),
        "an image URL as its text (litellm's spelling), in the task": _dialect(
            lambda _, m: m.update(content=[{"type": "text", "text": "See."}, {"type": "image_url", "image_url": _URL}]),
            1,
        ),
        "an image data URL as its text, in a tool result": _dialect(
            lambda _, m: m.update(content=[{"type": "image_url", "image_url": _DATA_URL}]), 3
        ),
        "two system messages first (LangChain's several SystemMessages)": _dialect(
            lambda ms, _: ms.insert(1, _REMINDER)
        ),
        "three system messages first, the last marked": _dialect(
            lambda ms, _: ms.insert(1, _REMINDER) or ms.insert(2, {**_REMINDER, **_MARK})
        ),
        "two system messages first, the first marked": _dialect(
            lambda ms, _: ms[0].update(_MARK) or ms.insert(1, _REMINDER)
        ),
        "two system messages first, the first of a marked part": _dialect(
            lambda ms, _: (
                ms[0].update(content=[{"type": "text", "text": "Be careful.", **_MARK}]) or ms.insert(1, _REMINDER)
            )
        ),
        "two system messages first, the second of parts": _dialect(
            lambda ms, _: ms.insert(1, {"role": "system", "content": [{"type": "text", "text": "Be brief."}]})
        ),
    }
)

_NAMED = {
    "an assistant's empty name": _dialect(lambda _, m: m.update(name="")),
}
"""Names the walk refuses (the canonical path reads or refuses them)."""
_TWO_MID = _dialect(lambda ms, _: ms.insert(4, _REMINDER) or ms.insert(5, _REMINDER))
_PREFILLED_BLOCKS = _body()
_PREFILLED_BLOCKS["messages"].append({"role": "assistant", "content": "{ ", "reasoning_content": "JSON."})
HANDED_BACK = {
    "anthropic": {
        "document by URL": _body(user=[_file(file_data="https://example.com/a.pdf")]),
        "a prefilled answer of blocks, its text ending in whitespace": _PREFILLED_BLOCKS,
        "two system messages mid-session": _TWO_MID,
        **_NAMED,
    },
    "openai-responses": {
        "two system messages mid-session": _TWO_MID,
        **_NAMED,
    },
}
"""Shapes the walk admits that a pass hands back: the writer writes the part as no block the pass writes."""

PATHS = {"anthropic": openai_chat_to_anthropic, "openai-responses": openai_chat_to_openai_responses}


def _converted(body: dict[str, Any], target: str, source: str = "openai-chat") -> str:
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(
        copy.deepcopy(body), source=source, target=target, on_loss="ignore", losses=losses
    )
    return json.dumps([written, [str(loss) for loss in losses]])


@pytest.mark.parametrize("target", sorted(PATHS))
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_shape_goes_the_direct_path_and_writes_what_the_canonical_path_writes(shape: str, target: str) -> None:
    body = SHAPES[shape]
    assert PATHS[target].convert(copy.deepcopy(body), LossRecorder(), get_codec(target)) is not None
    with canonical_only():
        canonical = _converted(body, target)
    assert _converted(body, target) == canonical


@pytest.mark.parametrize(("target", "shape"), [(target, shape) for target in PATHS for shape in HANDED_BACK[target]])
def test_a_part_the_pass_does_not_write_hands_the_body_back(target: str, shape: str) -> None:
    body = HANDED_BACK[target][shape]
    assert PATHS[target].convert(copy.deepcopy(body), LossRecorder(), get_codec(target)) is None
    with canonical_only():
        canonical = _converted(body, target)
    assert _converted(body, target) == canonical


def _typed(role: str, content: Any) -> dict[str, Any]:
    return {"type": "message", "role": role, "content": content}


_CALL = [
    {"type": "function_call", "call_id": "call_1", "name": "open", "arguments": "{}"},
    {"type": "function_call_output", "call_id": "call_1", "output": "done"},
]
RESPONSES: dict[str, dict[str, Any]] = {
    "typed messages": {
        "model": "gpt-5",
        "input": [
            _typed("developer", [{"type": "input_text", "text": "Be terse."}]),
            _typed("user", [{"type": "input_text", "text": "Open it."}]),
            *_CALL,
            _typed("user", "Go on."),
        ],
    },
    "typed messages beside instructions": {
        "model": "gpt-5",
        "instructions": "Be terse.",
        "input": [_typed("user", "Open it."), *_CALL],
    },
    "a user's files": {
        "model": "gpt-5",
        "input": [
            _typed(
                "user",
                [
                    {"type": "input_text", "text": "Read these."},
                    {"type": "input_file", "filename": "a.pdf", "file_data": _PDF},
                    {"type": "input_file", "file_id": "file-abc"},
                ],
            ),
            *_CALL,
        ],
    },
}


_SHOT = "data:image/png;base64,iVBORw0KGgo="


def _calls_answered(*outputs: Any) -> list[dict[str, Any]]:
    """One function call per output, then the run of their outputs (a screenshot tool's)."""
    calls = [
        {"type": "function_call", "call_id": f"call_{index}", "name": "screenshot", "arguments": "{}"}
        for index, _ in enumerate(outputs)
    ]
    results = [
        {"type": "function_call_output", "call_id": f"call_{index}", "output": copy.deepcopy(output)}
        for index, output in enumerate(outputs)
    ]
    return calls + results


RESPONSES.update(
    {
        "a screenshot in a call's output": {
            "model": "gpt-5",
            "input": [
                _typed("user", "Open the page."),
                *_calls_answered(
                    [{"type": "input_text", "text": "Shown:"}, {"type": "input_image", "image_url": _SHOT}]
                ),
                _typed("user", "Go on."),
            ],
        },
        "images and a file in a run of outputs, the run last": {
            "model": "gpt-5",
            "input": [
                _typed("user", "Open both."),
                *_calls_answered(
                    [{"type": "input_image", "image_url": _SHOT, "detail": "high"}],
                    [
                        {"type": "input_text", "text": "The log:"},
                        {"type": "input_file", "filename": "a.pdf", "file_data": _PDF},
                    ],
                ),
            ],
        },
        "a screenshot's output before a replayed turn and reasoning": {
            "model": "gpt-5",
            "input": [
                _typed("user", "Open it."),
                *_calls_answered([{"type": "input_image", "image_url": _SHOT, "detail": "auto"}]),
                {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "It opened."}]},
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": "Done.", "annotations": []}],
                },
            ],
        },
        "a user's image without its detail": {
            "model": "gpt-5",
            "input": [
                _typed("user", [{"type": "input_text", "text": "See:"}, {"type": "input_image", "image_url": _SHOT}])
            ],
        },
    }
)


_APPLY_PATCH = {
    "type": "custom",
    "name": "apply_patch",
    "description": "Apply a patch.",
    "format": {"type": "grammar", "syntax": "lark", "definition": "start: /(.|\\n)+/"},
}
_PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch"


def _custom(call_id: str, name: str = "apply_patch", **replayed: str) -> list[dict[str, Any]]:
    """A custom call and its output (a freeform tool's, as Codex sends its ``apply_patch``)."""
    return [
        {"type": "custom_tool_call", "call_id": call_id, "name": name, "input": _PATCH, **replayed},
        {"type": "custom_tool_call_output", "call_id": call_id, "output": "Done!"},
    ]


RESPONSES.update(
    {
        "Codex's apply_patch, a custom call beside a function call": {
            "model": "gpt-5-codex",
            "tools": [_APPLY_PATCH],
            "input": [
                _typed("user", "Fix it."),
                {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAAB"},
                {"type": "function_call", "call_id": "call_1", "name": "open", "arguments": "{}"},
                *_custom("call_2")[:1],
                {"type": "function_call_output", "call_id": "call_1", "output": "x = 1"},
                *_custom("call_2")[1:],
                *_custom("call_3", id="ctc_3", status="completed"),
                _typed("user", "Go on."),
            ],
        },
    }
)
_ANSWERED = {"type": "output_text", "text": "Done.", "annotations": [], "logprobs": []}
RESPONSES["an assistant message as the Agents SDK replays it (logprobs [], id, status)"] = {
    "model": "gpt-5",
    "input": [
        _typed("user", "Fix it."),
        {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed", "content": [_ANSWERED]},
        _typed("user", "Thanks. Now the docs."),
        {"type": "message", "role": "assistant", "content": [{**_ANSWERED, "text": "On it."}]},
        *_CALL,
    ],
}
_SEARCHED = {
    "type": "web_search_call",
    "id": "ws_1",
    "status": "completed",
    "action": {"type": "search", "query": "open issues", "sources": [{"type": "url", "url": "https://a.b"}]},
}
_SHELL = {
    "type": "local_shell_call",
    "id": "lsh_1",
    "call_id": "call_9",
    "status": "completed",
    "action": {"type": "exec", "command": ["ls"], "env": {}, "working_directory": "/src"},
}
RESPONSES["a call's output as the API lists input items (its id and status)"] = {
    "model": "gpt-5",
    "input": [
        _typed("user", "Open both."),
        {"type": "function_call", "call_id": "call_1", "name": "open", "arguments": "{}", "id": "fc_1"},
        {"type": "function_call", "call_id": "call_2", "name": "open", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "done", "id": "fco_1", "status": "completed"},
        {
            "type": "function_call_output",
            "call_id": "call_2",
            "output": [{"type": "input_text", "text": "a"}],
            "id": "fco_2",
        },
        {"type": "function_call", "call_id": "call_3", "name": "open", "arguments": "{}"},
        {  # the SDK's dump of a listed item (its unset fields null)
            "type": "function_call_output",
            "call_id": "call_3",
            "output": "done",
            "id": "fco_3",
            "status": "completed",
            **dict.fromkeys(("caller", "created_by", "name", "namespace")),
        },
        _typed("user", "Go on."),
    ],
}
RESPONSES["the Agents SDK's web search history (reasoning, searches, the answer)"] = {
    "model": "gpt-5",
    "input": [
        _typed("user", "What is open?"),
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAAB"},
        _SEARCHED,
        {"type": "reasoning", "id": "rs_2", "summary": [{"type": "summary_text", "text": "More."}]},
        {**_SEARCHED, "id": "ws_2", "action": {"type": "open_page", "url": "https://a.b"}},
        {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed", "content": [_ANSWERED]},
        _typed("user", "Search again, then open it."),
        {**_SEARCHED, "id": "ws_3"},
        *_CALL,
    ],
}
_SEARCH_ANSWER = Path(__file__).resolve().parent / "fixtures" / "openai-responses" / "response"
RESPONSES["a web search answer as the API wrote it (recorded: its url citations), replayed"] = {
    "model": "gpt-5",
    "instructions": "Answer from the web.",
    "input": [
        _typed("user", "When did the Eiffel Tower open?"),
        *json.loads((_SEARCH_ANSWER / "web_search_call_url_citation.json").read_text())["output"],
        _typed("user", "And its height?"),
        {**_SEARCHED, "id": "ws_2"},
        {
            "type": "message",
            "role": "assistant",
            "content": [{**_ANSWERED, "annotations": [{"type": "file_citation", "file_id": "file-1", "index": 0}]}],
        },
        *_CALL,
    ],
}
RESPONSES["a search alone in its turn, and references to stored items"] = {
    "model": "gpt-5",
    "instructions": "Be terse.",
    "input": [
        {"type": "item_reference", "id": "msg_0"},
        {"type": "item_reference", "id": "msg_1"},
        _typed("user", "Search."),
        _SEARCHED,
        *_CALL,
        {"type": "item_reference", "id": "msg_2"},
    ],
}
RESPONSES["a local shell call and its output"] = {
    "model": "codex-mini-latest",
    "input": [
        _typed("user", "List it."),
        {"type": "reasoning", "id": "rs_1", "summary": []},
        _SHELL,
        {"type": "local_shell_call_output", "id": "call_9", "output": '{"output": "a.py"}'},
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "a.py", "annotations": []}],
        },
        _typed("user", "Go on."),
    ],
}
RESPONSES.update(
    {
        "an easy assistant message with its phase (2026), between calls": {
            "model": "gpt-5.4-codex",
            "input": [
                _typed("user", "Fix it."),
                {"role": "assistant", "content": "I look first.", "phase": "commentary"},
                *_CALL,
                {"type": "message", "role": "assistant", "content": "Fixed.", "phase": "final_answer"},
                _typed("user", "Go on."),
            ],
        },
        "a typed assistant text with its id, status and phase": {
            "model": "gpt-5.4-codex",
            "input": [
                _typed("user", "Fix it."),
                {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAAB"},
                {
                    "type": "message",
                    "id": "msg_1",
                    "status": "completed",
                    "role": "assistant",
                    "content": "On it.",
                    "phase": "commentary",
                },
                *_CALL,
                _typed("user", "Go on."),
            ],
        },
    }
)
RESPONSES_HANDED_BACK: dict[str, dict[str, Any]] = {
    "an easy assistant message with a field no answer holds": {
        "model": "gpt-5",
        "input": [
            _typed("user", "Hi."),
            {"role": "assistant", "content": "Hello.", "name": "bot"},
            _typed("user", "Go."),
        ],
    },
    "an answer's text with its tokens": {
        "model": "gpt-5",
        "input": [
            _typed("user", "Hi."),
            {
                "type": "message",
                "role": "assistant",
                "content": [
                    {
                        **_ANSWERED,
                        "text": "A",
                        "logprobs": [{"token": "A", "bytes": [65], "logprob": -0.1, "top_logprobs": []}],
                    }
                ],
            },
            _typed("user", "Go on."),
        ],
    },
    "a custom call's output whose call is not in the input": {
        "model": "gpt-5-codex",
        "previous_response_id": "resp_1",
        "input": [_custom("call_9")[1], _typed("user", "Go on.")],
    },
    "a search whose id a call output names (the history rules drop both)": {
        "model": "gpt-5",
        "input": [_typed("user", "Hi."), {**_SEARCHED, "id": "call_1"}, *_CALL],
    },
    "a local shell call answered by a function call output (the history rules drop both)": {
        "model": "codex-mini-latest",
        "input": [
            _typed("user", "List it."),
            {key: value for key, value in _SHELL.items() if key != "id"},
            {"type": "function_call_output", "call_id": "call_9", "output": "a.py"},
        ],
    },
    "a listed call output with its tool's name (the writer's loss on a tool message)": {
        "model": "gpt-5",
        "input": [_typed("user", "Hi."), *_CALL[:1], {**_CALL[1], "id": "fco_1", "name": "open"}],
    },
    "a custom call of a name Chat rewrites": {
        "model": "gpt-5-codex",
        "input": [_typed("user", "Fix it."), *_custom("call_1", name="apply patch")],
    },
}


@pytest.mark.parametrize("shape", sorted(RESPONSES_HANDED_BACK))
def test_a_responses_shape_the_pass_does_not_write_hands_the_body_back(shape: str) -> None:
    body = RESPONSES_HANDED_BACK[shape]
    assert (
        openai_responses_to_openai_chat.convert(copy.deepcopy(body), LossRecorder(), get_codec("openai-chat")) is None
    )
    with canonical_only():
        canonical = _converted(body, "openai-chat", source="openai-responses")
    assert _converted(body, "openai-chat", source="openai-responses") == canonical


_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "openai-responses" / "request"
RESPONSES["an assistant message replayed with its phase"] = json.loads(
    (_FIXTURES / "assistant_message_phase_replay.json").read_text()
)


def test_an_answer_the_agents_sdk_replays_is_written_by_the_pass_as_one_text() -> None:
    """Its ``logprobs: []`` is the reader's spelling marker (nothing reported), so the turn is one
    text the pass writes itself (``replayed_text``), not a canonical message read and written."""
    assert one_text([_ANSWERED])
    assert not one_text([{**_ANSWERED, "annotations": [{"type": "url_citation"}]}, _ANSWERED])


@pytest.mark.parametrize("shape", sorted(RESPONSES))
def test_a_responses_shape_goes_the_direct_path_and_writes_what_the_canonical_path_writes(shape: str) -> None:
    body = RESPONSES[shape]
    path = openai_responses_to_openai_chat.convert(copy.deepcopy(body), LossRecorder(), get_codec("openai-chat"))
    assert path is not None
    with canonical_only():
        canonical = _converted(body, "openai-chat", source="openai-responses")
    assert _converted(body, "openai-chat", source="openai-responses") == canonical


_ANTHROPIC_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "anthropic" / "response"
_CITED = {
    "type": "char_location",
    "cited_text": "x = 1",
    "document_index": 0,
    "document_title": None,
    "start_char_index": 0,
    "end_char_index": 5,
}
_SEARCH = {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "open issues"}}
_FOUND = {
    "type": "web_search_tool_result",
    "tool_use_id": "srvtoolu_01",
    "content": [
        {"type": "web_search_result", "url": "https://a.b", "title": "A", "encrypted_content": "E", "page_age": None}
    ],
}
_READ = {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.py"}}
_READ_RESULT = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "x = 1"}


def _claude(*turns: dict[str, Any]) -> dict[str, Any]:
    """A Claude agent's request: its tools (a client tool and the server's web search) and ``turns``."""
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1000,
        "system": "Be terse.",
        "tools": [
            {"name": "read", "description": "Read a file.", "input_schema": {"type": "object", "properties": {}}},
            {"type": "web_search_20250305", "name": "web_search", "max_uses": 5},
        ],
        "messages": [{"role": "user", "content": "What is new?"}, *turns, *_GO_ON[turns[-1]["role"] == "user" :]],
    }


_GO_ON = [{"role": "user", "content": "Go on."}]
"""The task after an assistant's turn (after a user turn of results, it would be the same turn's)."""


def _answer(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": list(blocks)}


ANTHROPIC: dict[str, dict[str, Any]] = {
    "an answer's citations (documents with citations enabled), beside a call": _claude(
        _answer({"type": "text", "text": "It sets x.", "citations": [_CITED]}, _READ),
        {"role": "user", "content": [_READ_RESULT]},
        _answer({"type": "text", "text": "Done.", "citations": []}),
    ),
    "a text block as the SDK dumps it (citations null)": _claude(
        _answer({"type": "text", "text": "Reading.", "citations": None}, _READ),
        {"role": "user", "content": [_READ_RESULT]},
    ),
    "the server's web search, then a call": _claude(
        _answer({"type": "thinking", "thinking": "Search.", "signature": "EpIE"}, _SEARCH, _FOUND, _READ),
        {"role": "user", "content": [_READ_RESULT]},
        _answer(_SEARCH | {"id": "srvtoolu_02"}, _FOUND | {"tool_use_id": "srvtoolu_02"}),
    ),
    "calls as the API answers them since 2026 (their caller)": _claude(
        _answer({"type": "text", "text": "Reading."}, _READ | {"caller": {"type": "direct"}}),
        {"role": "user", "content": [_READ_RESULT]},
        _answer(
            {"type": "thinking", "thinking": "Again.", "signature": "EpIE"},
            _READ | {"id": "toolu_2", "caller": {"type": "code_execution_20250825", "tool_id": "srvtoolu_9"}},
        ),
        {"role": "user", "content": [_READ_RESULT | {"tool_use_id": "toolu_2"}]},
    ),
    "a web search answer as Claude wrote it (recorded)": _claude(
        _answer(*json.loads((_ANTHROPIC_FIXTURES / "web_search_citations_thinking.json").read_text())["content"])
    ),
    "a paused web search (recorded)": _claude(
        _answer(*json.loads((_ANTHROPIC_FIXTURES / "pause_turn_web_search.json").read_text())["content"])
    ),
}
ANTHROPIC_HANDED_BACK: dict[str, dict[str, Any]] = {
    "a server call whose id a result names (the history rules drop both)": _claude(
        _answer(_SEARCH | {"id": "toolu_1"}), {"role": "user", "content": [_READ_RESULT]}
    ),
    "a server call repeating a call's id (the history rules drop it)": _claude(
        _answer(_SEARCH | {"id": "toolu_1"}, _READ), {"role": "user", "content": [_READ_RESULT]}
    ),
    "a user's text with citations (the API version that takes them)": _claude(
        _answer({"type": "text", "text": "Read."}),
        {"role": "user", "content": [{"type": "text", "text": "As it says.", "citations": [_CITED]}]},
    ),
}
ANTHROPIC_HANDED_BACK["a call's caller of no object"] = _claude(
    _answer(_READ | {"caller": "direct"}), {"role": "user", "content": [_READ_RESULT]}
)
ANTHROPIC_REFUSED = _claude(_answer({"type": "text", "text": "x", "citations": [_CITED | {"score": float("nan")}]}))
"""A citation of a value JSON has not: handed back, and refused by the canonical path."""


@pytest.mark.parametrize("shape", sorted(ANTHROPIC))
def test_an_anthropic_shape_goes_the_direct_path_and_writes_what_the_canonical_path_writes(shape: str) -> None:
    body = ANTHROPIC[shape]
    assert anthropic_to_openai_chat.convert(copy.deepcopy(body), LossRecorder(), get_codec("openai-chat")) is not None
    with canonical_only():
        canonical = _converted(body, "openai-chat", source="anthropic")
    assert _converted(body, "openai-chat", source="anthropic") == canonical


@pytest.mark.parametrize("shape", sorted(ANTHROPIC_HANDED_BACK))
def test_an_anthropic_shape_the_pass_does_not_write_hands_the_body_back(shape: str) -> None:
    body = ANTHROPIC_HANDED_BACK[shape]
    assert anthropic_to_openai_chat.convert(copy.deepcopy(body), LossRecorder(), get_codec("openai-chat")) is None
    with canonical_only():
        canonical = _converted(body, "openai-chat", source="anthropic")
    assert _converted(body, "openai-chat", source="anthropic") == canonical


def test_an_anthropic_citation_json_has_not_is_handed_back_and_refused() -> None:
    body = ANTHROPIC_REFUSED
    assert anthropic_to_openai_chat.convert(copy.deepcopy(body), LossRecorder(), get_codec("openai-chat")) is None
    with pytest.raises(chatcodec.PayloadError, match="NaN is not JSON"):
        _converted(body, "openai-chat", source="anthropic")


def _general_turns(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The turns the Anthropic -> OpenAI Chat pass writes by the writer's general function."""
    general: list[object] = []
    writing = anthropic_to_openai_chat.encode_assistant_message

    def counted(*arguments: Any) -> None:
        general.append(arguments[0])
        writing(*arguments)

    monkeypatch.setattr(anthropic_to_openai_chat, "encode_assistant_message", counted)
    return general


def test_texts_as_the_sdk_dumps_them_are_written_as_a_plain_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    # ``citations: null`` on every text (a Python agent replaying ``model_dump()``): the reader's
    # spelling, which the writer drops, so the turn is the writer's plain turn
    general = _general_turns(monkeypatch)
    body = ANTHROPIC["a text block as the SDK dumps it (citations null)"]
    assert anthropic_to_openai_chat.convert(copy.deepcopy(body), LossRecorder(), get_codec("openai-chat")) is not None
    assert general == []
    cited = ANTHROPIC["an answer's citations (documents with citations enabled), beside a call"]
    assert anthropic_to_openai_chat.convert(copy.deepcopy(cited), LossRecorder(), get_codec("openai-chat")) is not None
    assert len(general) == 2  # texts with their citations (``[]`` too, kept as data): the general function's


def test_calls_with_their_caller_are_written_as_a_plain_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    # the API's caller on every call (2026): the turn is the writer's plain turn, the caller
    # read by the reader and reported by the writer, no turn written by the general function
    general = _general_turns(monkeypatch)
    body = ANTHROPIC["calls as the API answers them since 2026 (their caller)"]
    recorder = LossRecorder()
    written = anthropic_to_openai_chat.convert(copy.deepcopy(body), recorder, get_codec("openai-chat"))
    assert written is not None
    assert general == []
    assert [(loss.path, loss.what) for loss in recorder.losses if "caller" in loss.what] == [
        ("$.messages[1].content[1]", "anthropic data ['caller']"),
        ("$.messages[3].content[1]", "anthropic data ['caller']"),
    ]


def test_easy_assistant_messages_with_their_phase_are_written_by_the_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    # a text with its phase (the SDK's easy input message, 2026) on every step: the pass writes it as
    # a replayed one-text turn, its bag's report asked once a shape, equal to the canonical path's
    # on the first request and on later ones
    monkeypatch.setattr(openai_responses_to_openai_chat_replayed, "_TEXTS", {})
    steps: list[dict[str, Any]] = []
    for step in range(3):
        steps.append({"role": "assistant", "content": f"Step {step}.", "phase": "commentary"})
        steps += [{**item, "call_id": f"call_{step}"} for item in _CALL]
    steps.append({"role": "assistant", "content": "Done.", "phase": "final_answer"})
    body = {"model": "gpt-5.4-codex", "input": [_typed("user", "Fix it."), *steps, _typed("user", "Go on.")]}
    with canonical_only():
        canonical = _converted(body, "openai-chat", source="openai-responses")
    for _ in range(2):
        admission = openai_responses_to_openai_chat.admitted(body["input"])
        assert admission is not None
        assert admission.read == {}  # no turn read from its canonical message
        assert _converted(body, "openai-chat", source="openai-responses") == canonical
    assert len(openai_responses_to_openai_chat_replayed._TEXTS) == 1


@pytest.mark.parametrize("target", sorted(PATHS))
def test_an_assistants_name_of_a_number_is_handed_back_and_refused(target: str) -> None:
    body = _dialect(lambda _, m: m.update(name=7))
    assert PATHS[target].convert(copy.deepcopy(body), LossRecorder(), get_codec(target)) is None
    with pytest.raises(chatcodec.ValidationError, match=r"messages\[2\]\.name"):
        _converted(body, target)


@pytest.mark.parametrize("target", sorted(PATHS))
def test_a_named_users_text_and_an_answers_empty_calls_are_written_by_the_pass(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # AutoGen's named task and a client's ``"tool_calls": []`` on the final answer: the name
    # reported by the writer's own rule (``report_name``), the texts written as a plain user's and
    # a plain turn's, neither message read by the reader's general reading (each cost a turn's
    # general reading and writing, first in the generator's client-dialects shape)
    body = _dialect(lambda ms, m: m.update(name="alice") or ms.insert(4, {**_ANSWER, "tool_calls": []}), 1)
    with canonical_only():
        canonical = _converted(body, target)
    module = PATHS[target]
    read: list[object] = []
    for name in ("read_user", "decode_assistant"):
        monkeypatch.setattr(module, name, lambda *arguments, **_: read.append(arguments))
    recorder = LossRecorder()
    assert module.convert(copy.deepcopy(body), recorder, get_codec(target)) is not None
    assert read == []
    assert [(loss.path, loss.what) for loss in recorder.losses] == [("$.messages[1].name", "participant name")]
    monkeypatch.undo()
    assert _converted(body, target) == canonical
