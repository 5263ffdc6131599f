"""Anthropic streams for the stream law (``test_accumulate_as_decoded.py``): a plain
stream, broken ones, one per decoder rule, and where each event field is."""

from __future__ import annotations

from typing import Any

from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.stream_law import GONE, Path, StreamCases, data_lines


def block_delta(index: int, kind: str, key: str, text: object) -> JsonObject:
    return {"type": "content_block_delta", "index": index, "delta": {"type": kind, key: text}}


def block_start(index: object, block: JsonObject) -> JsonObject:
    return {"type": "content_block_start", "index": index, "content_block": block}


def block_stop(index: int) -> JsonObject:
    return {"type": "content_block_stop", "index": index}


def message_start(**fields: Any) -> JsonObject:
    usage = {"input_tokens": 40, "cache_read_input_tokens": 3, "output_tokens": 1, "service_tier": "standard"}
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x", "content": []}
    return {"type": "message_start", "message": {**message, "stop_reason": None, "usage": usage, **fields}}


def plain_stream() -> list[JsonObject]:
    """Thinking with its signature, text, and a tool call whose input streams."""
    return [
        message_start(),
        block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        {"type": "ping"},
        block_delta(0, "thinking_delta", "thinking", "Let me "),
        block_delta(0, "thinking_delta", "thinking", "think."),
        block_delta(0, "signature_delta", "signature", "EqQB"),
        block_stop(0),
        block_start(1, {"type": "text", "text": ""}),
        block_delta(1, "text_delta", "text", "Call"),
        block_delta(1, "text_delta", "text", "ing."),
        block_stop(1),
        block_start(2, {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}, "caller": {"type": "direct"}}),
        block_delta(2, "input_json_delta", "partial_json", '{"x":'),
        block_delta(2, "input_json_delta", "partial_json", " 1}"),
        block_stop(2),
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 9},
        },
        {"type": "message_stop"},
    ]


def to_sse(events: list[JsonObject]) -> str:
    """SSE text as Anthropic sends it: ``event: <type>`` then ``data: <json>``, blank line."""
    return data_lines(events, named=True)


def _text() -> JsonObject:
    return {"type": "text", "text": ""}


def broken() -> dict[str, list[Any]]:
    return {
        "never-started": [message_start(), block_delta(0, "text_delta", "text", "a")],
        "wrong-delta-kind": [
            message_start(),
            block_start(0, _text()),
            block_delta(0, "thinking_delta", "thinking", ""),
        ],
        "number-text": [message_start(), block_start(0, {"type": "text", "text": 5})],
        "started-twice": [message_start(), block_start(0, _text()), block_start(0, _text())],
        "index-reused": [message_start(), block_start(0, _text()), block_stop(0), block_start(0, _text())],
        "negative-index": [message_start(), block_start(-1, _text())],
        "bool-index": [message_start(), block_start(True, _text())],
        "negative-usage": [message_start(usage={"input_tokens": -1})],
        "text-usage": [message_start(usage={"input_tokens": "1"})],
        "content-in-start": [message_start(content=[{"type": "text", "text": "already"}])],
        "number-stop-reason": [{"type": "message_delta", "delta": {"stop_reason": 5}}],
        "no-type": [{"no": "type"}],
        "not-a-dict": [message_start(), "not an event"],
        "empty": [],
    }


def rules() -> dict[str, list[JsonObject]]:
    """Streams that exercise one rule of the decoder each."""
    text = block_start(0, {"type": "text", "text": "Hi"})
    end = {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}}
    return {
        "text-in-start": [message_start(), text, block_delta(0, "text_delta", "text", "!"), block_stop(0)],
        "no-message-start": [text, block_stop(0), end],
        "cut-off": [message_start(), text, block_delta(0, "text_delta", "text", " there")],
        "thinking-without-signature": [
            message_start(model=""),
            block_start(0, {"type": "thinking", "thinking": "Hm"}),
            block_delta(0, "signature_delta", "signature", "sig"),
            block_stop(0),
        ],
        "escaped-tool-id": [
            message_start(),
            block_start(0, {"type": "tool_use", "id": "cc-functions_2eget_3a0", "name": "get", "input": {}}),
            block_stop(0),
        ],
        "block-extras": [
            message_start(),
            block_start(0, {"type": "text", "text": "", "x": None, "y": [1]}),
            block_stop(0),
        ],
        "message-extras": [
            message_start(container=None, context_management={"applied": []}, stop_sequence=None),
            {**end, "delta": {**end["delta"], "stop_details": None, "container": {"id": "c"}}},
            {**end, "usage": {"output_tokens": 3, "output_tokens_details": {"thinking_tokens": 1}}},
        ],
        "two-message-starts": [message_start(), message_start(id="msg_2", usage=None), text, block_stop(0)],
        "usage-only-delta": [message_start(), {"type": "message_delta", "delta": {}, "usage": {"input_tokens": 9}}],
        "ping-with-extras": [message_start(), {"type": "ping", "x": 1}, {"type": "message_stop", "metrics": {}}],
        "empty-deltas": [
            message_start(),
            block_start(0, {"type": "tool_use", "id": "t", "name": "f", "input": {}}),
            block_delta(0, "input_json_delta", "partial_json", ""),
            block_stop(0),
        ],
    }


ODD_VALUES: list[object] = [
    *(GONE, None, "", "x", "text_delta", "thinking_delta", "input_json_delta", "signature_delta", 0, 1, 2, -1),
    *(1.0, True, [], {}, {"type": "text_delta"}, {"type": "text_delta", "text": "x"}),
]
_DELTA_FIELDS = ("type", "text", "thinking", "partial_json", "signature", "citation", "x_extra")
_USAGE_FIELDS = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
_BLOCK_FIELDS = ("type", "text", "thinking", "signature", "id", "name", "input", "cache_control", "citations", "x")
_MESSAGE_FIELDS = ("id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage", "container")


def field_paths() -> dict[int, list[Path]]:
    """Where in ``plain_stream()`` each field of each event kind is."""
    start: list[Path] = [("index",), ("content_block",), *[("content_block", key) for key in _BLOCK_FIELDS]]
    deltas: list[Path] = [("index",), ("delta",), ("type",), ("x_extra",), *[("delta", key) for key in _DELTA_FIELDS]]
    return {
        0: [
            ("message",),
            *[("message", key) for key in (*_MESSAGE_FIELDS, "x_extra")],
            *[("message", "usage", key) for key in (*_USAGE_FIELDS, "output_tokens_details", "service_tier")],
        ],
        **dict.fromkeys((1, 7, 11), start),
        2: [("type",), ("x_extra",)],
        **dict.fromkeys((4, 5, 9, 13), deltas),
        6: [("index",), ("type",), ("x_extra",)],
        15: [
            ("delta",),
            ("usage",),
            ("x_extra",),
            *[("delta", key) for key in ("stop_reason", "stop_sequence", "stop_details", "x_extra")],
            *[("usage", key) for key in (*_USAGE_FIELDS, "output_tokens_details", "x_extra")],
        ],
    }


MUTATION_KEYS = [
    *("type", "index", "delta", "content_block", "message", "text", "thinking", "signature", "partial_json"),
    *("input", "id", "name", "usage", "stop_reason", "citations", "cache_control", "error", "x_extra"),
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
