"""An A2A stream (``SendStreamingMessage``, ``SubscribeToTask``) read as the agent's answer it
carries (issue 110), through the one stream path (``decode_stream``, ``accumulate_stream``).

``tests/fixtures/a2a/stream/`` holds the specification's 6.2 stream (``PROVENANCE.md``); the SDK's
helpers (``a2a-sdk`` 1.3.0) build the streams a Python agent sends (artifact chunks with
``append`` / ``lastChunk``, a status message asking for input), each event checked as
``a2a.proto``'s ``StreamResponse`` with unknown fields refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from a2a.helpers import proto_helpers as sdk
from a2a.types import a2a_pb2
from google.protobuf import json_format

import chatcodec

STREAMS = Path(__file__).parent / "fixtures" / "a2a" / "stream"


def _events(name: str) -> list[dict[str, Any]]:
    lines = (STREAMS / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line.removeprefix("data: ")) for line in lines if line.startswith("data: ")]


def _checked(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` when each is a ``StreamResponse`` (or a JSON-RPC response holding one) ``a2a.proto`` reads."""
    for event in events:
        result = event["result"] if "jsonrpc" in event else event
        json_format.ParseDict(result, a2a_pb2.StreamResponse(), ignore_unknown_fields=False)
    return events


def _accumulated(events: Any) -> chatcodec.ChatResponse:
    """The answer ``decode_stream``'s events accumulate to, checked equal to ``accumulate_stream``'s."""
    accumulator = chatcodec.StreamAccumulator()
    for event in chatcodec.decode_stream("a2a", events):
        accumulator.add(event)
    accumulated = chatcodec.accumulate_stream("a2a", events)
    assert accumulator.response() == accumulated
    return accumulated


@pytest.mark.parametrize("name", ["spec_streaming_task.sse", "spec_streaming_task_jsonrpc.sse"])
def test_the_specs_streaming_task_is_its_reports_text(name: str) -> None:
    events = _checked(_events(name))
    answer = _accumulated(events)
    assert answer.choices[0].message.text == "# Climate Change Report\n\n"
    assert answer.choices[0].finish_reason == chatcodec.FinishReason(unified="stop", raw="TASK_STATE_COMPLETED")
    run = (answer.provider_metadata or {})["a2a"]
    assert answer.id == "task-uuid"  # the task's id is the answer's, as a message's messageId is
    assert run["task"] == {"contextId": "context-uuid"}  # a working start is what a writer writes: no data
    assert ("rpc" in run) == name.endswith("jsonrpc.sse")
    assert _accumulated((STREAMS / name).read_bytes()) == answer  # as SSE bytes, the same


def _dumped(*responses: a2a_pb2.StreamResponse) -> list[dict[str, Any]]:
    return _checked([json_format.MessageToDict(response) for response in responses])


def _sdk_stream() -> list[dict[str, Any]]:
    """What an agent on ``a2a-sdk`` sends: a task, an artifact in three chunks, a status message
    asking for input (an interrupted state: the stream ends there)."""
    task = sdk.new_task("t1", "c1", a2a_pb2.TaskState.TASK_STATE_WORKING)
    chunks = [
        sdk.new_text_artifact_update_event("t1", "c1", "report", "Otters ", artifact_id="a1"),
        sdk.new_text_artifact_update_event("t1", "c1", "report", "hold ", append=True, artifact_id="a1"),
        sdk.new_text_artifact_update_event(
            "t1", "c1", "report", "hands.", append=True, last_chunk=True, artifact_id="a1"
        ),
    ]
    asking = sdk.new_text_status_update_event("t1", "c1", a2a_pb2.TaskState.TASK_STATE_INPUT_REQUIRED, "Which river?")
    return _dumped(
        a2a_pb2.StreamResponse(task=task),
        *(a2a_pb2.StreamResponse(artifact_update=chunk) for chunk in chunks),
        a2a_pb2.StreamResponse(status_update=asking),
    )


def test_artifact_chunks_are_appended_and_a_status_message_follows_in_order() -> None:
    events = _sdk_stream()
    answer = _accumulated(events)
    texts = [part.text for part in answer.choices[0].message.parts if isinstance(part, chatcodec.TextPart)]
    assert texts == ["Otters hold hands.", "Which river?"]
    assert answer.choices[0].finish_reason == chatcodec.FinishReason(unified="pause", raw="TASK_STATE_INPUT_REQUIRED")
    first = answer.choices[0].message.parts[0]
    assert (first.provider_metadata or {})["a2a"]["artifact"] == {"artifactId": "a1", "name": "report"}
    deltas = [event for event in chatcodec.decode_stream("a2a", events) if event.type == "text_delta"]
    assert [event.delta for event in deltas] == ["Otters ", "hold ", "hands."]  # streamed as they came


def test_a_stream_without_its_end_was_cut() -> None:
    events = _sdk_stream()[:-1]
    with pytest.raises(chatcodec.StreamError, match="terminal or interrupted state"):
        chatcodec.accumulate_stream("a2a", events)
    partial = chatcodec.accumulate_stream("a2a", events, partial=True)
    assert partial.choices[0].finish_reason is None
    assert partial.choices[0].message.text == "Otters hold hands."


def test_a_single_message_is_the_whole_answer() -> None:
    message = sdk.new_text_message("Hello.", context_id="c9")
    message.message_id = "m9"
    events = _dumped(a2a_pb2.StreamResponse(message=message))
    answer = _accumulated(events)
    assert (answer.id, answer.choices[0].message.text) == ("m9", "Hello.")
    assert answer.choices[0].finish_reason is not None
    assert (answer.choices[0].message.provider_metadata or {})["a2a"] == {"contextId": "c9"}


def test_a_working_update_and_a_last_snapshot_are_kept_and_reported_elsewhere() -> None:
    working = sdk.new_text_status_update_event("t1", "c1", a2a_pb2.TaskState.TASK_STATE_WORKING, "Searching...")
    done = a2a_pb2.TaskStatusUpdateEvent(
        task_id="t1", context_id="c1", status=a2a_pb2.TaskStatus(state=a2a_pb2.TaskState.TASK_STATE_COMPLETED)
    )
    snapshot = sdk.new_task("t1", "c1", a2a_pb2.TaskState.TASK_STATE_COMPLETED)
    events = _dumped(
        a2a_pb2.StreamResponse(task=sdk.new_task("t1", "c1", a2a_pb2.TaskState.TASK_STATE_SUBMITTED)),
        a2a_pb2.StreamResponse(status_update=working),
        a2a_pb2.StreamResponse(status_update=done),
        a2a_pb2.StreamResponse(task=snapshot),
    )
    answer = _accumulated(events)
    assert answer.choices[0].message.text == "Searching..."
    kept = (answer.choices[0].message.provider_metadata or {})["a2a"]["events"]
    assert kept == [events[3]]
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_response("openai-chat", answer, on_loss="ignore", losses=losses)
    assert any("events" in loss.what for loss in losses)


def test_a_json_rpc_error_is_an_error_event() -> None:
    events = [
        {
            "jsonrpc": "2.0",
            "id": 3,
            "result": {"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}},
        },
        {"jsonrpc": "2.0", "id": 3, "error": {"code": -32001, "message": "Task not found"}},
    ]
    decoded = list(chatcodec.decode_stream("a2a", events))
    error = decoded[-1]
    assert isinstance(error, chatcodec.ErrorEvent)
    assert (error.message, error.error_type) == ("Task not found", "-32001")


@pytest.mark.parametrize(
    ("event", "path"),
    [
        ({"task": {}, "message": {}}, "$"),
        ({"artifactUpdate": {"artifact": {"parts": [{"nothing": 1}]}}}, "$.artifactUpdate"),
        ({"statusUpdate": {"status": {"state": "DONE"}}}, "$.statusUpdate"),
        ({"message": {"role": "ROLE_USER", "parts": [{"text": "hi"}], "messageId": "u"}}, "$.message"),
        ({"jsonrpc": "2.0", "id": 1, "result": {"statusUpdate": 3}}, "$.result.statusUpdate"),
    ],
)
def test_an_event_a2a_would_refuse_is_a_stream_error_at_its_place(event: dict[str, Any], path: str) -> None:
    with pytest.raises(chatcodec.StreamError) as caught:
        chatcodec.accumulate_stream("a2a", [event])
    assert (caught.value.path, caught.value.event_index) == (path, 0)


def test_a_recorded_stream_converts_to_another_providers_stream() -> None:
    converted = b"".join(
        chatcodec.convert_stream(
            [(STREAMS / "spec_streaming_task.sse").read_bytes()], source="a2a", target="anthropic", on_loss="ignore"
        )
    )
    answer = chatcodec.accumulate_stream("anthropic", converted)
    assert answer.choices[0].message.text == "# Climate Change Report\n\n"


def _written(source: str, wire: Any, losses: list[chatcodec.Loss] | None = None) -> list[dict[str, Any]]:
    events = chatcodec.decode_stream(source, wire)
    return _checked(list(chatcodec.encode_stream("a2a", events, on_loss="ignore", losses=losses)))


def test_an_sdk_stream_read_and_written_is_the_same_answer_and_written_again_the_same_stream() -> None:
    events = _sdk_stream()
    written = _written("a2a", events)
    assert _accumulated(written) == _accumulated(events)
    assert _written("a2a", written) == written
    kinds = [next(iter(event)) for event in written]
    # the status message said again in a working status, then the state that ends the stream
    assert kinds == ["task", "artifactUpdate", "artifactUpdate", "artifactUpdate", "statusUpdate", "statusUpdate"]
    chunks = [event["artifactUpdate"] for event in written if "artifactUpdate" in event]
    assert [(chunk.get("append", False), chunk.get("lastChunk", False)) for chunk in chunks] == [
        (False, False),
        (True, False),
        (True, True),
    ]
    assert {chunk["artifact"]["artifactId"] for chunk in chunks} == {"a1"}


def test_a_json_rpc_stream_is_written_back_as_json_rpc() -> None:
    events = _events("spec_streaming_task_jsonrpc.sse")
    written = _written("a2a", events)
    assert all((event["jsonrpc"], event["id"]) == ("2.0", 1) for event in written)
    assert _accumulated(written) == _accumulated(events)


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("anthropic", "text_basic.sse"),
        ("anthropic", "thinking_signature_delta.sse"),
        ("openai-chat", "content_logprobs.sse"),
        ("openai-chat", "parallel_tool_calls.sse"),
    ],
)
def test_a_recorded_provider_stream_becomes_a_task_stream_that_reads_back_to_its_text(source: str, name: str) -> None:
    raw = (Path(__file__).parent / "fixtures" / source / "stream" / name).read_bytes()
    original = chatcodec.accumulate_stream(source, raw)
    losses: list[chatcodec.Loss] = []
    written = _written(source, raw, losses)
    assert "task" in written[0]
    assert written[-1]["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED"
    again = chatcodec.accumulate_stream("a2a", written)
    texts = [part.text for part in original.choices[0].message.parts if isinstance(part, chatcodec.TextPart)]
    assert [part.text for part in again.choices[0].message.parts] == [text for text in texts if text or len(texts) == 1]
    assert again.id == original.id  # the task's id is the answer's
    said = {loss.what for loss in losses}
    if any(part.type == "thinking" for part in original.choices[0].message.parts):
        assert "thinking" in said
    if any(part.type == "tool_use" for part in original.choices[0].message.parts):
        assert "tool call" in said
        assert "finish reason" in said  # tool_calls: no task state says it, reported
    converted = b"".join(chatcodec.convert_stream([raw], source=source, target="a2a", on_loss="ignore"))
    assert chatcodec.accumulate_stream("a2a", converted) == again


def test_a_stream_cut_before_its_finish_gets_no_last_status() -> None:
    raw = (Path(__file__).parent / "fixtures" / "anthropic" / "stream" / "text_basic.sse").read_bytes()
    cut = raw.rsplit(b"event: message_delta", 1)[0]
    converted = b"".join(
        chatcodec.convert_stream([cut], source="anthropic", target="a2a", on_loss="ignore", partial=True)
    )
    with pytest.raises(chatcodec.StreamError, match="terminal or interrupted state"):
        chatcodec.accumulate_stream("a2a", converted)
    assert chatcodec.accumulate_stream("a2a", converted, partial=True).choices[0].finish_reason is None
