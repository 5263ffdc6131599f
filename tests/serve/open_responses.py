"""The Open Responses spec's published types (``openresponses-types``) as the oracle of
the Responses front: every answer a ``ResponseResource``, every streamed event one of the
spec's streaming events, as its compliance suite checks them
(https://github.com/openresponses/openresponses, ``src/lib/compliance-tests.ts`` and
``src/lib/sse-parser.ts``: an event of a type the spec does not list fails)."""

from __future__ import annotations

import json
from typing import Any

from openresponses_types import types as spec
from pydantic import BaseModel

EVENT_TYPES: dict[str, type[BaseModel]] = {
    "response.created": spec.ResponseCreatedStreamingEvent,
    "response.queued": spec.ResponseQueuedStreamingEvent,
    "response.in_progress": spec.ResponseInProgressStreamingEvent,
    "response.completed": spec.ResponseCompletedStreamingEvent,
    "response.failed": spec.ResponseFailedStreamingEvent,
    "response.incomplete": spec.ResponseIncompleteStreamingEvent,
    "response.output_item.added": spec.ResponseOutputItemAddedStreamingEvent,
    "response.output_item.done": spec.ResponseOutputItemDoneStreamingEvent,
    "response.content_part.added": spec.ResponseContentPartAddedStreamingEvent,
    "response.content_part.done": spec.ResponseContentPartDoneStreamingEvent,
    "response.output_text.delta": spec.ResponseOutputTextDeltaStreamingEvent,
    "response.output_text.done": spec.ResponseOutputTextDoneStreamingEvent,
    "response.refusal.delta": spec.ResponseRefusalDeltaStreamingEvent,
    "response.refusal.done": spec.ResponseRefusalDoneStreamingEvent,
    "response.function_call_arguments.delta": spec.ResponseFunctionCallArgumentsDeltaStreamingEvent,
    "response.function_call_arguments.done": spec.ResponseFunctionCallArgumentsDoneStreamingEvent,
    "response.reasoning_summary_part.added": spec.ResponseReasoningSummaryPartAddedStreamingEvent,
    "response.reasoning_summary_part.done": spec.ResponseReasoningSummaryPartDoneStreamingEvent,
    "response.reasoning_summary_text.delta": spec.ResponseReasoningSummaryDeltaStreamingEvent,
    "response.reasoning_summary_text.done": spec.ResponseReasoningSummaryDoneStreamingEvent,
    "response.output_text.annotation.added": spec.ResponseOutputTextAnnotationAddedStreamingEvent,
    "error": spec.ErrorStreamingEvent,
}
"""The spec's streaming events by type."""

RENAMED = {
    "response.reasoning_text.delta": (spec.ResponseReasoningDeltaStreamingEvent, "response.reasoning.delta"),
    "response.reasoning_text.done": (spec.ResponseReasoningDoneStreamingEvent, "response.reasoning.done"),
}
"""Reasoning text events: OpenAI names them ``response.reasoning_text.*`` and so does the
spec's schema since commit cb2b1f8 (``schema/components/schemas/ResponseReasoningDelta
StreamingEvent.json``); the 2.4.0 types still carry the earlier ``response.reasoning.*``.
The event is checked against its type with that one name read as the types spell it."""


def assert_resource(answer: dict[str, Any]) -> spec.ResponseResource:
    """``answer`` is a ``ResponseResource`` with the server's own id, every field present."""
    resource = spec.ResponseResource.model_validate(answer)
    assert resource.id.startswith("resp_")
    assert set(spec.ResponseResource.model_fields) <= set(answer), "a field the spec requires is missing"
    return resource


def assert_events(events: list[dict[str, Any]]) -> spec.ResponseResource:
    """Every event is one of the spec's, numbered from 0 in order; the stream opens with
    ``response.created`` and ``response.in_progress`` (each the whole resource) and ends
    with a terminal event; returns its resource."""
    assert [event["sequence_number"] for event in events] == list(range(len(events)))
    assert [event["type"] for event in events[:2]] == ["response.created", "response.in_progress"]
    for event in events:
        kind = event["type"]
        if kind in RENAMED:
            model, spelled = RENAMED[kind]
            model.model_validate({**event, "type": spelled})
        else:
            assert kind in EVENT_TYPES, f"{kind} is not an Open Responses streaming event"
            EVENT_TYPES[kind].model_validate(event)
    for event in events[:2]:
        assert_resource(event["response"])
        assert event["response"]["status"] == "in_progress"
    assert events[-1]["type"] in ("response.completed", "response.incomplete", "response.failed")
    assert len({event["response"]["id"] for event in events if "response" in event}) == 1
    return assert_resource(events[-1]["response"])


def sse_events(body: str) -> list[dict[str, Any]]:
    """The data of each server-sent event, as the compliance suite's parser reads them."""
    events: list[dict[str, Any]] = []
    for block in body.split("\n\n"):
        data = [line[5:].strip() for line in block.splitlines() if line.startswith("data:")]
        if data and data[0] != "[DONE]":
            events.append(json.loads("\n".join(data)))
    return events
