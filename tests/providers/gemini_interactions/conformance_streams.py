"""Interactions streams for the stream law (``test_accumulate_as_decoded.py``): a plain stream,
broken ones, one per decoder rule, and where each event's field is. The API streams SSE
events named by their ``event_type`` (https://ai.google.dev/gemini-api/docs/interactions/streaming;
google-genai 3.6.1 ``InteractionSSEEvent``)."""

from __future__ import annotations

import json
from typing import Any

from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.stream_law import GONE, Path, StreamCases

MODEL = "gemini-3-flash-preview"


def created() -> JsonObject:
    return {
        "event_type": "interaction.created",
        "interaction": {"id": "v1_p", "status": "in_progress", "object": "interaction", "model": MODEL},
    }


def completed(status: str = "requires_action", **usage: Any) -> JsonObject:
    counts = usage or {"total_input_tokens": 9, "total_output_tokens": 7, "total_thought_tokens": 2}
    return {
        "event_type": "interaction.completed",
        "interaction": {"id": "v1_p", "status": status, "object": "interaction", "model": MODEL, "usage": counts},
    }


def start(index: int, step: JsonObject) -> JsonObject:
    return {"event_type": "step.start", "index": index, "step": step}


def delta(index: int, **fields: Any) -> JsonObject:
    return {"event_type": "step.delta", "index": index, "delta": fields}


def stop(index: int) -> JsonObject:
    return {"event_type": "step.stop", "index": index}


def plain_stream() -> list[JsonObject]:
    """A thought (summary and signature), text in two deltas, a call whose arguments stream."""
    return [
        created(),
        start(0, {"type": "thought"}),
        delta(0, type="thought_summary", content={"type": "text", "text": "Counting."}),
        delta(0, type="thought_signature", signature="c2ln"),
        stop(0),
        start(1, {"type": "model_output"}),
        delta(1, type="text", text="1, 2, "),
        delta(1, type="text", text="3."),
        stop(1),
        start(2, {"type": "function_call", "id": "call_3", "name": "count", "arguments": {}}),
        delta(2, type="arguments_delta", arguments='{"to":'),
        delta(2, type="arguments_delta", arguments="25}"),
        stop(2),
        completed(),
    ]


def to_sse(events: list[JsonObject]) -> str:
    """SSE as the API sends it: ``event:`` named by ``event_type``, then the ``data:`` line."""
    return "".join(f"event: {event['event_type']}\ndata: {json.dumps(event)}\n\n" for event in events)


def broken() -> dict[str, list[Any]]:
    return {
        "delta-before-start": [created(), delta(0, type="text", text="a"), completed()],
        "index-not-a-number": [
            created(),
            start(0, {"type": "model_output"}),
            {"event_type": "step.delta", "index": "0", "delta": {"type": "text", "text": "a"}},
        ],
        "text-not-text": [created(), start(0, {"type": "model_output"}), delta(0, type="text", text=5)],
        "step-without-type": [created(), start(0, {})],
        "negative-count": [created(), completed(status="completed", total_input_tokens=-1)],
        "status-not-text": [created(), {**completed(), "interaction": {"id": "v1_p", "status": 5}}],
        "error-event": [
            created(),
            {"event_type": "error", "error": {"code": "RESOURCE_EXHAUSTED", "message": "quota"}},
        ],
        "not-an-object": [created(), "not an event"],
        "unknown-event": [created(), {"event_type": "interaction.rewound"}],
        "empty": [],
    }


def rules() -> dict[str, list[JsonObject]]:
    """Streams that exercise one rule of the decoder each."""
    text = [start(0, {"type": "model_output"}), delta(0, type="text", text="a"), stop(0)]
    return {
        "text-only": [created(), *text, completed(status="completed")],
        "status-update-before-completed": [
            created(),
            *text,
            {"event_type": "interaction.status_update", "interaction_id": "v1_p", "status": "completed"},
            completed(status="completed"),
        ],
        "incomplete": [created(), *text, completed(status="incomplete")],
        "two-text-steps": [
            created(),
            *text,
            start(1, {"type": "model_output"}),
            delta(1, type="text", text="b"),
            stop(1),
            completed(status="completed"),
        ],
        "whole-call-in-its-start": [
            created(),
            start(0, {"type": "function_call", "id": "c", "name": "f", "arguments": {"x": 1}}),
            stop(0),
            completed(),
        ],
        "built-in-tool-step": [
            created(),
            start(0, {"type": "google_search_call", "id": "gs", "arguments": {"queries": ["q"]}}),
            stop(0),
            *[{**event, "index": 1} if "index" in event else event for event in text],
            completed(status="completed"),
        ],
        "completed-without-usage": [
            created(),
            *text,
            {"event_type": "interaction.completed", "interaction": {"id": "v1_p", "status": "completed"}},
        ],
    }


ODD_VALUES: list[object] = [
    *(GONE, None, "", "x", "completed", 0, 1, -1, 1.0, True, False, [], {}),
    *({"type": "text", "text": "t"}, {"type": "model_output"}, [{"type": "text", "text": "t"}]),
]
_EVENT = ("event_type", "x_extra")


def field_paths() -> dict[int, list[Path]]:
    """Where in ``plain_stream()`` each field of each event is."""
    lifecycle: list[Path] = [
        *[(key,) for key in (*_EVENT, "interaction")],
        *[("interaction", key) for key in ("id", "status", "object", "model", "x_extra")],
    ]
    step: list[Path] = [*[(key,) for key in (*_EVENT, "index", "step")], ("step", "type")]
    in_delta: list[Path] = [*[(key,) for key in (*_EVENT, "index", "delta")], ("delta", "type")]
    end = [*lifecycle, ("interaction", "usage"), ("interaction", "usage", "total_input_tokens")]
    call_start = [*step, *[("step", key) for key in ("id", "name", "arguments")]]
    return {
        0: lifecycle,
        1: step,
        2: [*in_delta, ("delta", "content"), ("delta", "content", "text")],
        3: [*in_delta, ("delta", "signature")],
        4: [(key,) for key in (*_EVENT, "index")],
        6: [*in_delta, ("delta", "text")],
        9: call_start,
        10: [*in_delta, ("delta", "arguments")],
        13: end,
    }


MUTATION_KEYS = [
    *("event_type", "interaction", "status", "usage", "index", "step", "delta", "type", "text", "content"),
    *("signature", "arguments", "id", "name", "error", "total_output_tokens"),
    "x_extra",
]

CASES = StreamCases(
    plain=plain_stream,
    plain_parts=("thinking", "text", "tool_use"),
    text_fragment="3.",
    to_sse=to_sse,
    broken=broken,
    rules=rules,
    field_paths=field_paths,
    odd_values=ODD_VALUES,
    mutation_keys=MUTATION_KEYS,
    mutation_values=ODD_VALUES[1:],
)
