"""Canonical stream events written as an AG-UI run's events (issue 110), through the one stream
path (``encode_stream``, ``convert_stream``): every event validated by AG-UI's own models
(``ag-ui-protocol`` 1.0.0's ``Event`` union), a run read and written back equal, provider
recordings converted to a run and read back to the same answer, every loss named.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec.testing._replay import events_from_response

FIXTURES = Path(__file__).parent / "fixtures"
RUNS = FIXTURES / "ag_ui" / "stream"


def _checked(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` when AG-UI's own models take each of them (their JSON dump equal to the event)."""
    core = pytest.importorskip("ag_ui.core")
    from pydantic import TypeAdapter

    models = TypeAdapter(list[core.Event]).validate_python(events)
    assert [model.model_dump(by_alias=True, mode="json", exclude_none=True) for model in models] == events
    return events


def _run(name: str, *, timestamps: bool = True) -> list[dict[str, Any]]:
    lines = (RUNS / name).read_text(encoding="utf-8").splitlines()
    events = [json.loads(line.removeprefix("data: ")) for line in lines if line.startswith("data: ")]
    return events if timestamps else [{k: v for k, v in event.items() if k != "timestamp"} for event in events]


def _written(source: str, wire: Any, losses: list[chatcodec.Loss] | None = None) -> list[dict[str, Any]]:
    events = chatcodec.decode_stream(source, wire)
    return _checked(list(chatcodec.encode_stream("ag-ui", events, on_loss="ignore", losses=losses)))


@pytest.mark.parametrize("name", ["pydantic_ai_run_1.sse", "pydantic_ai_run_2.sse"])
def test_a_recorded_run_read_and_written_back_is_the_same_run(name: str) -> None:
    """pydantic-ai's runs (thinking, text, a frontend call; an answer after the result): read as
    canonical events and written again, event for event (the per-event timestamps aside: a part
    keeps its events' fields once, see docs/frameworks.md)."""
    run = _run(name, timestamps=False)
    assert _written("ag-ui", run) == run


def test_a_hand_written_run_with_what_builds_no_part_is_written_back_the_same() -> None:
    """Encrypted reasoning, a call's encrypted value, usage, a state snapshot kept as it came, a
    finish with its outcome: all written back."""
    run = [
        {"type": "RUN_STARTED", "threadId": "t9", "runId": "r9", "parentRunId": "r8"},
        {"type": "REASONING_START", "messageId": "think-1"},
        {"type": "REASONING_MESSAGE_START", "messageId": "think-1", "role": "reasoning"},
        {"type": "REASONING_MESSAGE_CONTENT", "messageId": "think-1", "delta": "Look it up."},
        {"type": "REASONING_MESSAGE_END", "messageId": "think-1"},
        {"type": "REASONING_ENCRYPTED_VALUE", "subtype": "message", "entityId": "think-1", "encryptedValue": "gAAA"},
        {"type": "REASONING_END", "messageId": "think-1"},
        {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Checking."},
        {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
        {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "search", "parentMessageId": "m1"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"q": "otters"}'},
        {"type": "TOOL_CALL_END", "toolCallId": "c1"},
        {"type": "REASONING_ENCRYPTED_VALUE", "subtype": "tool-call", "entityId": "c1", "encryptedValue": "gBBB"},
        {"type": "STATE_SNAPSHOT", "snapshot": {"step": 2}},
        {
            "type": "RUN_FINISHED",
            "threadId": "t9",
            "runId": "r9",
            "outcome": {"type": "success", "pendingToolCallIds": ["c1"]},
            "usage": [{"inputTokens": 12, "outputTokens": 7, "reasoningTokens": 3}],
        },
    ]
    _checked(run)
    assert _written("ag-ui", run) == run
    answer = chatcodec.accumulate_stream("ag-ui", run)
    assert answer.usage is not None
    assert (answer.usage.input_tokens, answer.usage.reasoning_tokens) == (12, 3)


def test_a_run_error_is_written_back_as_it_came() -> None:
    run = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Partial"},
        {"type": "TEXT_MESSAGE_END", "messageId": "m"},
        {"type": "RUN_ERROR", "message": "model overloaded", "code": "overloaded"},
    ]
    assert _written("ag-ui", run) == run


def _comparable(response: chatcodec.ChatResponse) -> list[dict[str, Any]]:
    """The answer's parts as a run carries them: text, reasoning text and calls."""
    kept = {"type", "text", "id", "name", "arguments"}
    return [
        {key: value for key, value in part.model_dump().items() if key in kept}
        for part in response.choices[0].message.parts
        if not (part.type == "text" and part.text == "")  # an empty text says nothing
    ]


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("anthropic", "thinking_signature_delta.sse"),
        ("anthropic", "tool_use_input_json_delta.sse"),
        ("anthropic", "text_basic.sse"),
        ("openai-chat", "parallel_tool_calls.sse"),
        ("openai-chat", "single_tool_call_args.sse"),
        ("openai-chat", "groq_reasoning_channel_tool_call.sse"),
        ("openai-chat", "text_with_usage_obfuscation.sse"),
    ],
)
def test_a_recorded_provider_stream_becomes_a_run_that_reads_back_to_the_same_answer(source: str, name: str) -> None:
    raw = (FIXTURES / source / "stream" / name).read_bytes()
    original = chatcodec.accumulate_stream(source, raw)
    losses: list[chatcodec.Loss] = []
    run = _written(source, raw, losses)
    assert run[0]["type"] == "RUN_STARTED"
    assert run[-1]["type"] == "RUN_FINISHED"
    again = chatcodec.accumulate_stream("ag-ui", run)
    assert _comparable(again) == _comparable(original)
    choice, first = again.choices[0], original.choices[0]
    assert choice.finish_reason is not None
    assert first.finish_reason is not None
    assert choice.finish_reason.unified == first.finish_reason.unified
    if original.usage is not None:
        assert again.usage is not None
        assert (again.usage.input_tokens, again.usage.output_tokens) == (
            original.usage.input_tokens,
            original.usage.output_tokens,
        )
    assert "model" in {loss.what for loss in losses}  # a run names no model: reported, not dropped
    converted = b"".join(chatcodec.convert_stream([raw], source=source, target="ag-ui", on_loss="ignore"))
    assert chatcodec.accumulate_stream("ag-ui", converted) == again  # bytes through StreamConverter: the same run


def test_what_a_run_cannot_carry_is_reported_where_it_stands() -> None:
    losses: list[chatcodec.Loss] = []
    raw = (FIXTURES / "anthropic" / "stream" / "thinking_signature_delta.sse").read_bytes()
    _written("anthropic", raw, losses)
    assert {"thinking signature", "model"} <= {loss.what for loss in losses}
    losses = []
    raw = (FIXTURES / "openai-chat" / "stream" / "finish_length.sse").read_bytes()
    _written("openai-chat", raw, losses)
    finish = [loss for loss in losses if loss.what == "finish reason"]
    assert len(finish) == 1
    assert "stop" in finish[0].why
    losses = []
    raw = (FIXTURES / "openai-chat" / "stream" / "refusal_deltas.sse").read_bytes()
    run = _written("openai-chat", raw, losses)
    assert "refusal" in {loss.what for loss in losses}
    parts = chatcodec.accumulate_stream("openai-chat", raw).choices[0].message.parts
    refused = "".join(part.text for part in parts if isinstance(part, chatcodec.RefusalPart))
    written = "".join(event["delta"] for event in run if event["type"] == "TEXT_MESSAGE_CONTENT")
    assert refused
    assert refused in written
    losses = []
    raw = (FIXTURES / "openai-chat" / "stream" / "n3_choices_interleaved.sse").read_bytes()
    _written("openai-chat", raw, losses)
    assert "another choice" in {loss.what for loss in losses}


def test_a_stream_cut_before_its_finish_stays_a_cut_run() -> None:
    raw = (FIXTURES / "anthropic" / "stream" / "text_basic.sse").read_bytes()
    cut = raw.rsplit(b"event: message_delta", 1)[0]
    converted = b"".join(
        chatcodec.convert_stream([cut], source="anthropic", target="ag-ui", on_loss="ignore", partial=True)
    )
    with pytest.raises(chatcodec.StreamError, match="RUN_FINISHED or RUN_ERROR"):
        chatcodec.accumulate_stream("ag-ui", converted)
    partial = chatcodec.accumulate_stream("ag-ui", converted, partial=True)
    assert partial.choices[0].finish_reason is None
    said = chatcodec.accumulate_stream("anthropic", cut, partial=True).choices[0].message.text
    assert said
    assert partial.choices[0].message.text == said


def test_an_answer_without_ids_gets_made_up_ones_that_read_back_as_no_data() -> None:
    """AG-UI requires a thread, a run and a message id: a canonical answer without them is
    written with chatcodec's, and reading the run back gains nothing."""
    answer = chatcodec.ChatResponse(
        choices=[
            chatcodec.ResponseChoice(
                message=chatcodec.AssistantMessage(
                    content=[chatcodec.ThinkingPart(text="Hmm."), chatcodec.TextPart(text="Otters.")]
                ),
                finish_reason=chatcodec.FinishReason(unified="stop"),
            )
        ]
    )
    losses: list[chatcodec.Loss] = []
    events = events_from_response(answer)
    run = _checked(list(chatcodec.encode_stream("ag-ui", events, on_loss="ignore", losses=losses)))
    assert losses == []
    assert (run[0]["threadId"], run[0]["runId"]) == ("thread-1", "run-1")
    again = chatcodec.accumulate_stream("ag-ui", run)
    assert again == answer


def test_an_answer_of_reasoning_alone_keeps_its_message_id() -> None:
    """No text, no call: the answer's message is named by an empty text message, read back as
    its id and no part (as the messages format closes reasoning with an empty assistant message)."""
    answer = chatcodec.ChatResponse(
        id="msg_7",
        choices=[
            chatcodec.ResponseChoice(
                message=chatcodec.AssistantMessage(content=[chatcodec.ThinkingPart(text="Hmm.")]),
                finish_reason=chatcodec.FinishReason(unified="stop"),
            )
        ],
    )
    run = _checked(list(chatcodec.encode_stream("ag-ui", events_from_response(answer), on_loss="ignore")))
    assert [event["type"] for event in run if event["type"].startswith("TEXT")] == [
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_END",
    ]
    again = chatcodec.accumulate_stream("ag-ui", run)
    assert [part.type for part in again.choices[0].message.parts] == ["thinking"]
    assert (again.choices[0].message.provider_metadata or {})["ag-ui"]["id"] == "msg_7"


def test_a_replayed_parts_bag_that_comes_with_its_end_is_reported_not_dropped() -> None:
    """An answer read from AG-UI messages keeps a reasoning message's id on its thinking part;
    replayed as events, the bag comes with the part's end, after its start was written."""
    messages = [
        {"id": "r_1", "role": "reasoning", "content": "Think."},
        {"id": "a_1", "role": "assistant", "content": "Said."},
    ]
    answer = chatcodec.decode_response("ag-ui", {"messages": messages})
    losses: list[chatcodec.Loss] = []
    run = _checked(
        list(chatcodec.encode_stream("ag-ui", events_from_response(answer), on_loss="ignore", losses=losses))
    )
    assert [loss.what for loss in losses] == ["ag-ui data ['id']"]
    assert next(event for event in run if event["type"] == "TEXT_MESSAGE_START")["messageId"] == "a_1"


def test_a_recorded_run_with_its_timestamps_is_written_as_a_valid_run_of_the_same_answer() -> None:
    """The reasoning's brackets keep their fields on the thinking part, so the run written back
    opens and closes each reasoning once, in place (a part's per-event timestamps are kept once)."""
    run = _run("pydantic_ai_run_1.sse")
    written = _written("ag-ui", run)
    brackets = [
        (event["type"], event.get("timestamp"))
        for event in written
        if event["type"] in ("REASONING_START", "REASONING_END")
    ]
    original = [
        (event["type"], event.get("timestamp"))
        for event in run
        if event["type"] in ("REASONING_START", "REASONING_END")
    ]
    assert brackets == original
    assert [event["type"] for event in written] == [event["type"] for event in run]
    assert chatcodec.accumulate_stream("ag-ui", written) == chatcodec.accumulate_stream("ag-ui", run)
