"""An AG-UI run's event stream read as the answer it carries (issue 110).

``tests/fixtures/ag_ui/stream/pydantic_ai_run_{1,2}.sse`` are a pydantic-ai agent's two AG-UI runs
as its endpoint sends them (``tests/ag_ui_run.py``: its ``AGUIAdapter.run_stream``, a
``FunctionModel``): thinking, a text and a frontend tool call, then the answer after the tool's
result. The events go through the one
stream path: ``decode_stream`` and ``accumulate_stream`` drive the shared builder, and the
accumulated answer is what the decoded events accumulate to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec

STREAMS = Path(__file__).parent / "fixtures" / "ag_ui" / "stream"


def _sse(name: str) -> str:
    return (STREAMS / name).read_text(encoding="utf-8")


def _runs() -> list[list[dict[str, Any]]]:
    """Each recorded run's events, read from its SSE ``data:`` lines."""
    return [
        [json.loads(line.removeprefix("data: ")) for line in _sse(name).splitlines() if line.startswith("data: ")]
        for name in ("pydantic_ai_run_1.sse", "pydantic_ai_run_2.sse")
    ]


def _accumulated(events: list[dict[str, Any]]) -> chatcodec.ChatResponse:
    """The answer ``decode_stream``'s events accumulate to, checked equal to ``accumulate_stream``'s."""
    accumulator = chatcodec.StreamAccumulator()
    for event in chatcodec.decode_stream("ag-ui", events):
        accumulator.add(event)
    accumulated = chatcodec.accumulate_stream("ag-ui", events)
    assert accumulator.response() == accumulated
    return accumulated


def test_a_run_that_thinks_says_and_calls_is_one_answer() -> None:
    first, _ = _runs()
    response = _accumulated(first)
    message = response.choices[0].message
    thinking, text, call = message.parts
    assert isinstance(thinking, chatcodec.ThinkingPart)
    assert thinking.text == "The user wants the weather."
    assert text.model_dump(include={"type", "text"}) == {"type": "text", "text": "Let me check."}
    assert isinstance(call, chatcodec.ToolUsePart)
    assert (call.name, call.parsed_arguments()) == ("get_weather", {"city": "Paris"})
    assert response.choices[0].finish_reason == chatcodec.FinishReason(unified="tool_calls", raw="success")
    text_start = next(event for event in first if event["type"] == "TEXT_MESSAGE_START")
    reasoning_start = next(event for event in first if event["type"] == "REASONING_MESSAGE_START")
    assert (message.provider_metadata or {})["ag-ui"]["id"] == text_start["messageId"]
    assert (thinking.provider_metadata or {})["ag-ui"]["id"] == reasoning_start["messageId"]
    run = (response.provider_metadata or {})["ag-ui"]
    assert (run["threadId"], run["runId"], run["protocolVersion"]) == ("t1", "r1", "1.0")


def test_the_run_after_the_tools_result_is_the_final_answer() -> None:
    _, second = _runs()
    response = _accumulated(second)
    assert response.choices[0].message.text == "Sunny, 22°C."
    assert response.choices[0].finish_reason == chatcodec.FinishReason(unified="stop", raw="success")


def test_a_runs_answer_is_written_as_the_messages_ag_ui_holds_for_it() -> None:
    """The accumulated answer as AG-UI messages (its reasoning, then its assistant message with
    the ids the stream gave) validates as AG-UI's own models, and converts to Anthropic."""
    core = pytest.importorskip("ag_ui.core")
    from pydantic import TypeAdapter

    first, _ = _runs()
    response = chatcodec.accumulate_stream("ag-ui", first)
    written = chatcodec.encode_response("ag-ui", response, on_loss="ignore")["messages"]
    TypeAdapter(list[core.Message]).validate_python(written)
    assert [message["role"] for message in written] == ["reasoning", "assistant"]
    starts = {event["type"]: event for event in first if event["type"].endswith("_START")}
    assert written[0]["id"] == starts["REASONING_MESSAGE_START"]["messageId"]
    assert written[1]["id"] == starts["TEXT_MESSAGE_START"]["messageId"]
    assert written[1]["toolCalls"][0]["function"]["name"] == "get_weather"
    body = chatcodec.convert_response(
        chatcodec.encode_response("ag-ui", response, on_loss="ignore"),
        source="ag-ui",
        target="anthropic",
        on_loss="ignore",
    )
    assert [block["type"] for block in body["content"]] == ["thinking", "text", "tool_use"]


def test_a_runs_event_fields_are_reported_not_written_into_its_messages() -> None:
    """A message has no timestamp: the fields of the events a part was read from (the recorded
    run's per-event timestamps) are reported where they stand, and each message written holds
    only fields AG-UI's own message and call models declare (they allow any extra field, so
    validating alone would not see one). Written back as a run, the same start and end events
    keep their timestamps."""
    core = pytest.importorskip("ag_ui.core")

    first, _ = _runs()
    assert all("timestamp" in event for event in first)
    response = chatcodec.accumulate_stream("ag-ui", first)
    losses: list[chatcodec.Loss] = []
    written = chatcodec.encode_response("ag-ui", response, on_loss="ignore", losses=losses)["messages"]
    reasoning, assistant = written
    declared = {
        name: {field.alias or key for key, field in model.model_fields.items()}
        for name, model in (("reasoning", core.ReasoningMessage), ("assistant", core.AssistantMessage))
    }
    assert set(reasoning) <= declared["reasoning"], set(reasoning) - declared["reasoning"]
    assert set(assistant) <= declared["assistant"], set(assistant) - declared["assistant"]
    call_fields = {field.alias or key for key, field in core.ToolCall.model_fields.items()}
    assert set(assistant["toolCalls"][0]) <= call_fields
    reported = {loss.path: loss.what for loss in losses if loss.what.startswith("event fields")}
    bags = "$.messages[0].content[{}].provider_metadata['ag-ui']"
    assert reported == {
        bags.format(0): "event fields ['start', 'end', 'reasoningStart', 'reasoningEnd']",
        bags.format(2): "event fields ['start', 'end']",
    }
    again = list(chatcodec.encode_stream("ag-ui", chatcodec.decode_stream("ag-ui", first), on_loss="ignore"))
    stamps = [(event["type"], event.get("timestamp")) for event in first if event["type"].endswith(("_START", "_END"))]
    assert [
        (event["type"], event.get("timestamp")) for event in again if event["type"].endswith(("_START", "_END"))
    ] == stamps


def test_a_run_streamed_as_server_sent_events_reads_the_same() -> None:
    encoder = pytest.importorskip("ag_ui.encoder")
    core = pytest.importorskip("ag_ui.core")
    from pydantic import TypeAdapter

    first, _ = _runs()
    events = TypeAdapter(list[core.Event]).validate_python(first)  # the recording is AG-UI's, event by event
    sse = "".join(encoder.EventEncoder().encode(event) for event in events)
    assert sse == _sse("pydantic_ai_run_1.sse")  # framed as AG-UI's own encoder frames it
    assert chatcodec.accumulate_stream("ag-ui", sse.encode()) == chatcodec.accumulate_stream("ag-ui", first)


def test_a_run_cut_before_it_finished_says_so() -> None:
    first, _ = _runs()
    cut = first[:-1]
    with pytest.raises(chatcodec.StreamError, match="RUN_FINISHED or RUN_ERROR"):
        chatcodec.accumulate_stream("ag-ui", cut)
    partial = chatcodec.accumulate_stream("ag-ui", cut, partial=True)
    assert partial.choices[0].finish_reason is None
    assert [part.type for part in partial.choices[0].message.parts] == ["thinking", "text", "tool_use"]


def test_a_run_error_is_an_error_event() -> None:
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Partial"},
        {"type": "RUN_ERROR", "message": "model overloaded", "code": "overloaded"},
    ]
    decoded = list(chatcodec.decode_stream("ag-ui", events))
    error = decoded[-1]
    assert isinstance(error, chatcodec.ErrorEvent)
    assert (error.message, error.error_type) == ("model overloaded", "overloaded")


def test_chunk_events_build_the_same_parts_as_start_content_end() -> None:
    chunks = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "role": "assistant", "delta": "Hel"},
        {"type": "TEXT_MESSAGE_CHUNK", "delta": "lo"},
        {"type": "TOOL_CALL_CHUNK", "toolCallId": "c", "toolCallName": "f", "parentMessageId": "m", "delta": "{}"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    response = _accumulated(chunks)
    text, call = response.choices[0].message.parts
    assert text.model_dump(include={"type", "text"}) == {"type": "text", "text": "Hello"}
    assert isinstance(call, chatcodec.ToolUsePart)
    assert (call.id, call.name, call.arguments) == ("c", "f", "{}")


def test_events_that_build_no_part_are_kept_and_reported_elsewhere() -> None:
    """A backend tool's result and a state snapshot are no part of the answer: kept whole, in
    order, in the message's bag, and reported by a format with no place for them."""
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "search", "parentMessageId": "m"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"q": "x"}'},
        {"type": "TOOL_CALL_END", "toolCallId": "c"},
        {"type": "TOOL_CALL_RESULT", "messageId": "t1", "toolCallId": "c", "content": "found"},
        {"type": "STATE_SNAPSHOT", "snapshot": {"step": 2}},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    response = _accumulated(events)
    kept = (response.choices[0].message.provider_metadata or {})["ag-ui"]["events"]
    assert kept == events[4:6]
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_response("openai-chat", response, on_loss="ignore", losses=losses)
    assert any("events" in loss.what for loss in losses)
    losses = []
    chatcodec.encode_response("ag-ui", response, on_loss="ignore", losses=losses)
    assert "run events" in [loss.what for loss in losses]


@pytest.mark.parametrize(
    ("event", "path"),
    [
        ({"type": "TEXT_MESSAGE_CONTENT", "messageId": "nope", "delta": "x"}, "$.messageId"),
        ({"type": "TOOL_CALL_START", "toolCallId": "c"}, "$.toolCallName"),
        ({"type": "TEXT_MESSAGE_START", "messageId": 3}, "$.messageId"),
        ({"kind": "TEXT_MESSAGE_START"}, "$.type"),
    ],
)
def test_an_event_ag_ui_would_refuse_is_a_stream_error_at_its_place(event: dict[str, Any], path: str) -> None:
    events = [{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}, event]
    with pytest.raises(chatcodec.StreamError) as caught:
        chatcodec.accumulate_stream("ag-ui", events)
    assert (caught.value.path, caught.value.event_index) == (path, 1)


def test_a_live_pydantic_ai_run_reads_as_the_recorded_one() -> None:
    pytest.importorskip("pydantic_ai.ui.ag_ui")
    from ag_ui_run import run_events

    live = [chatcodec.accumulate_stream("ag-ui", run) for run in run_events()]
    recorded = [chatcodec.accumulate_stream("ag-ui", run) for run in _runs()]
    assert [response.choices[0].message.text for response in live] == ["Let me check.", "Sunny, 22°C."]
    for mine, theirs in zip(live, recorded, strict=True):
        assert [part.type for part in mine.choices[0].message.parts] == [
            part.type for part in theirs.choices[0].message.parts
        ]
        assert mine.choices[0].finish_reason == theirs.choices[0].finish_reason


def test_a_message_id_that_is_no_string_is_a_stream_error_not_a_type_error() -> None:
    """Found by the fuzz harness: an unhashable ``messageId`` on a text event."""
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": [1]},
    ]
    with pytest.raises(chatcodec.StreamError) as caught:
        chatcodec.accumulate_stream("ag-ui", events)
    assert (caught.value.path, caught.value.event_index) == ("$.messageId", 1)
