"""Bedrock ConverseStream streams for the stream law (``test_accumulate_as_decoded.py``): a
plain stream, broken ones, one per decoder rule, and where each event field is."""

from __future__ import annotations

import json
from typing import Any

from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.stream_law import GONE, Path, StreamCases


def delta(index: object, value: JsonObject, **extra: Any) -> JsonObject:
    return {"contentBlockDelta": {"contentBlockIndex": index, "delta": value, **extra}}


def stop(index: object) -> JsonObject:
    return {"contentBlockStop": {"contentBlockIndex": index}}


def tool_start(index: object, tool_id: str = "tooluse_1", name: str = "f", **extra: Any) -> JsonObject:
    return {
        "contentBlockStart": {
            "contentBlockIndex": index,
            "start": {"toolUse": {"toolUseId": tool_id, "name": name, **extra}},
        }
    }


def message_start(**extra: Any) -> JsonObject:
    return {"messageStart": {"role": "assistant", **extra}}


def message_stop(reason: object = "tool_use", **extra: Any) -> JsonObject:
    return {"messageStop": {"stopReason": reason, **extra}}


def metadata(**usage: Any) -> JsonObject:
    counts = {"inputTokens": 40, "outputTokens": 9, "totalTokens": 49, **usage}
    return {"metadata": {"usage": counts, "metrics": {"latencyMs": 120}, "p": "abc"}}


def plain_stream() -> list[JsonObject]:
    """Reasoning with its signature, text, and a tool call whose input streams."""
    return [
        message_start(p="abcd"),
        delta(0, {"reasoningContent": {"text": "Let me "}}),
        delta(0, {"reasoningContent": {"text": "think."}}),
        delta(0, {"reasoningContent": {"signature": "EqQB"}}),
        stop(0),
        delta(1, {"text": "Call"}, p="ab"),
        delta(1, {"text": "ing."}),
        stop(1),
        tool_start(2),
        delta(2, {"toolUse": {"input": '{"x":'}}),
        delta(2, {"toolUse": {"input": " 1}"}}),
        stop(2),
        message_stop(),
        metadata(),
    ]


def to_sse(events: list[JsonObject]) -> str:
    """JSON Lines, one event object per line (the text form of a ConverseStream)."""
    return "".join(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n" for event in events)


def broken() -> dict[str, list[Any]]:
    return {
        "tool-delta-never-started": [message_start(), delta(0, {"toolUse": {"input": "{}"}})],
        "wrong-delta-kind": [message_start(), delta(0, {"text": "a"}), delta(0, {"reasoningContent": {"text": "b"}})],
        "number-text": [message_start(), delta(0, {"text": 5})],
        "started-twice": [message_start(), tool_start(0), tool_start(0)],
        "stopped-never-started": [message_start(), stop(3)],
        "negative-index": [message_start(), delta(-1, {"text": "a"})],
        "bool-index": [message_start(), delta(True, {"text": "a"})],
        "negative-usage": [message_start(), metadata(inputTokens=-1)],
        "text-usage": [message_start(), metadata(inputTokens="1")],
        "two-members": [{"messageStart": {"role": "assistant"}, "messageStop": {"stopReason": "end_turn"}}],
        "two-delta-members": [message_start(), delta(0, {"text": "a", "toolUse": {"input": ""}})],
        "number-stop-reason": [message_start(), message_stop(5)],
        "bad-tool-json": [
            message_start(),
            {
                "contentBlockStart": {
                    "contentBlockIndex": 0,
                    "start": {"toolUse": {"toolUseId": "t", "name": "f", "type": "server_tool_use"}},
                }
            },
            delta(0, {"toolUse": {"input": "{"}}),
            stop(0),
        ],
        "not-a-dict": [message_start(), "not an event"],
        "empty": [],
    }


def rules() -> dict[str, list[JsonObject]]:
    """Streams that exercise one rule of the decoder each."""
    return {
        "no-message-start": [delta(0, {"text": "Hi"}), stop(0), message_stop("end_turn")],
        "cut-off": [message_start(), delta(0, {"text": "Hi"})],
        "metadata-before-stop": [
            message_start(),
            delta(0, {"text": "Hi"}),
            stop(0),
            metadata(),
            message_stop("end_turn"),
        ],
        "stop-without-metadata": [message_start(), message_stop("end_turn")],
        "empty-text-block": [message_start(), delta(0, {"text": ""}), stop(0), message_stop("end_turn")],
        "redacted": [message_start(), delta(0, {"reasoningContent": {"redactedContent": "RXU4"}}), stop(0)],
        "redacted-in-pieces": [
            message_start(),
            delta(0, {"reasoningContent": {"redactedContent": "RXU4"}}),
            delta(0, {"reasoningContent": {"redactedContent": "RXU4"}}),
            stop(0),
        ],
        "escaped-tool-id": [message_start(), tool_start(0, "cc-functions_7cget"), stop(0)],
        "server-tool": [
            message_start(),
            tool_start(0, type="server_tool_use"),
            delta(0, {"toolUse": {"input": '{"snippet": "1+1"}'}}),
            stop(0),
        ],
        "citations": [message_start(), delta(0, {"text": "a"}), delta(0, {"citation": {"title": "t"}}), stop(0)],
        "exception": [message_start(), {"throttlingException": {"message": "slow down"}}],
        "unknown-event": [message_start(), {"somethingNew": {"x": 1}}, message_stop("end_turn")],
        "extras": [message_start(x=1), message_stop("end_turn", additionalModelResponseFields={"a": None})],
    }


ODD_VALUES: list[object] = [
    *(GONE, None, "", "x", "end_turn", 0, 1, 2, -1, 1.0, True, [], {}),
    *({"text": "x"}, {"toolUse": {"input": "{}"}}, {"reasoningContent": {"text": "x"}}),
]
_USAGE_FIELDS = ("inputTokens", "outputTokens", "totalTokens", "cacheReadInputTokens", "x_extra")


def field_paths() -> dict[int, list[Path]]:
    """Where in ``plain_stream()`` each field of each event kind is."""
    deltas: list[Path] = [
        ("contentBlockDelta",),
        ("contentBlockDelta", "contentBlockIndex"),
        ("contentBlockDelta", "delta"),
        ("contentBlockDelta", "x_extra"),
        *[("contentBlockDelta", "delta", key) for key in ("text", "toolUse", "reasoningContent", "citation")],
    ]
    return {
        0: [("messageStart",), ("messageStart", "role"), ("messageStart", "p"), ("x_extra",)],
        **dict.fromkeys((1, 3, 5, 6, 9, 10), deltas),
        4: [("contentBlockStop",), ("contentBlockStop", "contentBlockIndex")],
        8: [
            ("contentBlockStart", "contentBlockIndex"),
            ("contentBlockStart", "start"),
            *[("contentBlockStart", "start", "toolUse", key) for key in ("toolUseId", "name", "type", "x")],
        ],
        12: [("messageStop", "stopReason"), ("messageStop", "additionalModelResponseFields")],
        13: [
            ("metadata", "usage"),
            ("metadata", "metrics"),
            *[("metadata", "usage", key) for key in _USAGE_FIELDS],
        ],
    }


MUTATION_KEYS = [
    *("messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"),
    *("contentBlockIndex", "delta", "start", "text", "toolUse", "reasoningContent", "input", "usage", "p", "x_extra"),
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
