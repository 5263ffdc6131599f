"""Nova InvokeModelWithResponseStream streams for the stream law (``test_accumulate_as_decoded.py``):
a plain stream, broken ones, one per decoder rule, and where each event field is. Each event
is the JSON inside one ``chunk``."""

from __future__ import annotations

import base64
import json
from typing import Any

from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.stream_law import GONE, Path, StreamCases

METRICS = {"inputTokenCount": 40, "outputTokenCount": 9, "invocationLatency": 900, "firstByteLatency": 300}


def delta(index: object, value: JsonObject, **extra: Any) -> JsonObject:
    return {"contentBlockDelta": {"delta": value, "contentBlockIndex": index, **extra}}


def stop(index: object) -> JsonObject:
    return {"contentBlockStop": {"contentBlockIndex": index}}


def tool_start(index: object, tool_id: str = "tooluse_1", name: str = "f") -> JsonObject:
    return {
        "contentBlockStart": {"start": {"toolUse": {"toolUseId": tool_id, "name": name}}, "contentBlockIndex": index}
    }


def message_start(**extra: Any) -> JsonObject:
    return {"messageStart": {"role": "assistant", **extra}}


def message_stop(reason: object = "tool_use", **extra: Any) -> JsonObject:
    return {"messageStop": {"stopReason": reason, **extra}}


def metadata(**usage: Any) -> JsonObject:
    counts = {"inputTokens": 40, "outputTokens": 9, **usage}
    return {"metadata": {"usage": counts, "metrics": {}, "trace": {}}, "amazon-bedrock-invocationMetrics": METRICS}


def plain_stream() -> list[JsonObject]:
    """Reasoning, text, and a tool call whose input streams."""
    return [
        message_start(),
        delta(0, {"reasoningContent": {"text": "[REDACTED"}}),
        delta(0, {"reasoningContent": {"text": "]"}}),
        stop(0),
        delta(1, {"text": "Call"}),
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
    """JSON Lines, one event object per line (the text form of the chunks' events)."""
    return "".join(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n" for event in events)


def chunk(event: object) -> JsonObject:
    """An event as the event stream carries it: the base64 of its JSON in a ``chunk``."""
    return {"chunk": {"bytes": base64.b64encode(json.dumps(event).encode()).decode()}}


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
        "chunk-not-base64": [message_start(), {"chunk": {"bytes": "not base64!"}}],
        "chunk-not-json": [message_start(), {"chunk": {"bytes": base64.b64encode(b"{").decode()}}],
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
        "chunks": [
            chunk(message_start()),
            chunk(delta(0, {"text": "Hi"})),
            chunk(stop(0)),
            chunk(message_stop("end_turn")),
        ],
        "escaped-tool-id": [message_start(), tool_start(0, "cc-functions_7cget"), stop(0)],
        "exception": [message_start(), {"throttlingException": {"message": "slow down"}}],
        "unknown-event": [message_start(), {"somethingNew": {"x": 1}}, message_stop("end_turn")],
        "extras": [message_start(x=1), message_stop("end_turn", x={"a": None})],
    }


ODD_VALUES: list[object] = [
    *(GONE, None, "", "x", "end_turn", 0, 1, 2, -1, 1.0, True, [], {}),
    *({"text": "x"}, {"toolUse": {"input": "{}"}}, {"reasoningContent": {"text": "x"}}),
]
_USAGE_FIELDS = ("inputTokens", "outputTokens", "totalTokens", "cacheReadInputTokenCount", "x_extra")


def field_paths() -> dict[int, list[Path]]:
    """Where in ``plain_stream()`` each field of each event kind is."""
    deltas: list[Path] = [
        ("contentBlockDelta",),
        ("contentBlockDelta", "contentBlockIndex"),
        ("contentBlockDelta", "delta"),
        ("contentBlockDelta", "x_extra"),
        *[("contentBlockDelta", "delta", key) for key in ("text", "toolUse", "reasoningContent")],
    ]
    return {
        0: [("messageStart",), ("messageStart", "role"), ("x_extra",)],
        **dict.fromkeys((1, 2, 4, 5, 8, 9), deltas),
        3: [("contentBlockStop",), ("contentBlockStop", "contentBlockIndex")],
        7: [
            ("contentBlockStart", "contentBlockIndex"),
            ("contentBlockStart", "start"),
            *[("contentBlockStart", "start", "toolUse", key) for key in ("toolUseId", "name", "x")],
        ],
        11: [("messageStop", "stopReason"), ("messageStop", "x")],
        12: [
            ("metadata", "usage"),
            ("metadata", "metrics"),
            ("amazon-bedrock-invocationMetrics",),
            *[("metadata", "usage", key) for key in _USAGE_FIELDS],
        ],
    }


MUTATION_KEYS = [
    *("messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"),
    *("contentBlockIndex", "delta", "start", "text", "toolUse", "reasoningContent", "input", "usage", "chunk"),
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
