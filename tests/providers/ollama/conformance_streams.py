"""Ollama streams for the stream law (``test_accumulate_as_decoded.py``): a plain stream,
broken ones, one per decoder rule, and where each line's field is. Ollama streams JSON
lines (``application/x-ndjson``), each a partial chat response."""

from __future__ import annotations

import json
from typing import Any

from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.stream_law import GONE, Path, StreamCases

HEAD = {"model": "qwen3", "created_at": "2025-07-07T20:22:19.184789Z"}


def line(done: bool = False, **message: Any) -> JsonObject:
    """One stream line; ``message`` holds its message fields (``content`` defaults to ``""``)."""
    return {**HEAD, "message": {"role": "assistant", "content": "", **message}, "done": done}


def last(reason: str | None = "stop", **counts: Any) -> JsonObject:
    """The ``done`` line, with the counts and timings the server sends on it."""
    body = line(done=True)
    if reason is not None:
        body["done_reason"] = reason
    body.update({"prompt_eval_count": 40, "eval_count": 9, "total_duration": 120, "eval_duration": 80, **counts})
    return body


CALL = {"id": "call_x2k9", "function": {"index": 0, "name": "get_weather", "arguments": {"city": "Tokyo"}}}


def plain_stream() -> list[JsonObject]:
    """Thinking in two lines, text in two, a whole call, then the ``done`` line."""
    return [
        line(thinking="Let me "),
        line(thinking="think."),
        line(content="Call"),
        line(content="ing."),
        line(tool_calls=[CALL]),
        last(),
    ]


def to_sse(events: list[JsonObject]) -> str:
    """JSON lines as Ollama sends them: one compact object a line (the server's ``json.Encoder``)."""
    return "".join(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n" for event in events)


def broken() -> dict[str, list[Any]]:
    return {
        "number-content": [line(content=5)],
        "thinking-not-text": [line(thinking=["a"])],
        "negative-count": [last(prompt_eval_count=-1)],
        "text-count": [last(eval_count="9")],
        "bad-think-role": [{**HEAD, "message": {"role": "robot", "content": "a"}, "done": False}],
        "number-done-reason": [{**last(), "done_reason": 5}],
        "arguments-not-an-object": [line(tool_calls=[{"function": {"name": "f", "arguments": [1]}}])],
        "call-without-name": [line(tool_calls=[{"function": {"arguments": {}}}])],
        "images-not-a-list": [line(images="iVBO")],
        "error-line": [line(content="a"), {"error": "an error was encountered while running the model"}],
        "not-a-dict": [line(content="a"), "not a line"],
        "empty": [],
    }


def rules() -> dict[str, list[JsonObject]]:
    """Streams that exercise one rule of the decoder each."""
    no_id = {"function": {"name": "get_weather", "arguments": {"city": "Tokyo"}}}
    return {
        "thinking-and-text-in-one-line": [line(thinking="hm", content="answer"), last()],
        "thinking-after-text": [line(content="a"), line(thinking="b"), line(content="c"), last()],
        "calls-without-ids": [line(tool_calls=[no_id]), line(tool_calls=[no_id, no_id]), last()],
        "calls-counted-over-lines": [
            line(tool_calls=[CALL]),
            line(tool_calls=[{"id": "call_b", "function": {"index": 1, "name": "f", "arguments": {}}}]),
            last(),
        ],
        "done-without-reason": [line(content="a"), last(reason=None)],
        "done-line-without-message": [
            line(content="The"),
            {**HEAD, "done": True, "prompt_eval_count": 61, "eval_count": 468, "total_duration": 8113331500},
        ],
        "load": [last(reason="load", prompt_eval_count=None, eval_count=None)],
        "length": [line(content="cut"), last(reason="length")],
        "unknown-done-reason": [line(content="a"), last(reason="cancelled")],
        "images-null": [line(content="a", images=None), last()],
        "image": [line(images=["iVBORw0KGgo="]), last()],
        "logprobs-over-lines": [
            {**line(content="a"), "logprobs": [{"token": "a", "logprob": -0.1}]},
            {**line(content="b"), "logprobs": [{"token": "b", "logprob": -0.2}]},
            last(),
        ],
        "cloud-fields": [{**line(content="a"), "remote_model": "gpt-oss:120b", "remote_host": "https://ollama.com"}],
        "usage-before-done": [{**line(content="a"), "prompt_eval_count": 3}, last()],
        "no-head": [{"message": {"role": "assistant", "content": "ok"}, "done": True}],
    }


ODD_VALUES: list[object] = [
    *(GONE, None, "", "x", "stop", 0, 1, -1, 1.0, True, False, [], {}),
    *({"role": "assistant"}, [{"function": {"name": "f"}}], {"name": "f", "arguments": {}}),
]
_MESSAGE_FIELDS = ("role", "content", "thinking", "images", "tool_calls", "x_extra")
_LINE_FIELDS = ("model", "created_at", "message", "done", "x_extra")
_LAST_FIELDS = ("done_reason", "prompt_eval_count", "eval_count", "total_duration", "eval_duration", "logprobs")


def field_paths() -> dict[int, list[Path]]:
    """Where in ``plain_stream()`` each field of each line is."""
    message: list[Path] = [*[(key,) for key in _LINE_FIELDS], *[("message", key) for key in _MESSAGE_FIELDS]]
    call: list[Path] = [
        ("message", "tool_calls", 0),
        *[("message", "tool_calls", 0, key) for key in ("id", "type", "function")],
        *[("message", "tool_calls", 0, "function", key) for key in ("index", "name", "arguments")],
        ("message", "tool_calls", 0, "function", "arguments", "city"),
    ]
    end: list[Path] = [*message, *[(key,) for key in _LAST_FIELDS]]
    return {0: message, 1: message, 2: message, 3: message, 4: [*message, *call], 5: end}


MUTATION_KEYS = [
    *("model", "created_at", "message", "role", "content", "thinking", "images", "tool_calls", "function"),
    *("name", "arguments", "index", "id", "done", "done_reason", "eval_count", "prompt_eval_count", "error"),
    "x_extra",
]

CASES = StreamCases(
    plain=plain_stream,
    plain_parts=("thinking", "text", "tool_use"),
    text_fragment="ing.",
    to_sse=to_sse,
    broken=broken,
    rules=rules,
    field_paths=field_paths,
    odd_values=ODD_VALUES,
    mutation_keys=MUTATION_KEYS,
    mutation_values=ODD_VALUES[1:],
)
