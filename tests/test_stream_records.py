"""Stream records (:mod:`chatcodec._model.stream_records`): each the same event as its public
model, by field and by dump, and checked as the model checks (issue 60, lever 5)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any, cast

import pydantic
import pytest

from chatcodec import (
    ChoiceMetadataEvent,
    ErrorEvent,
    FinishEvent,
    PartEvent,
    RefusalDeltaEvent,
    ResponseStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingSignatureDeltaEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    UsageEvent,
)
from chatcodec._model import stream_records as records
from chatcodec._model.stream_events import AnyStreamEvent
from chatcodec._model.stream_record_checks import checked, plain_usage

BAG: dict[str, dict[str, Any]] = {"acme": {"x": [1, 2.5, None, {"y": True}]}}
TOKEN = {"token": "hi", "logprob": -0.5, "top_logprobs": [{"token": "hi", "logprob": -0.5}]}

EVENTS: list[AnyStreamEvent] = [
    ResponseStartEvent(id="r1", model="m", created=3, provider_metadata=BAG),
    ResponseStartEvent(),
    TextStartEvent(index=0),
    TextStartEvent(index=2, choice=1, provider_metadata=BAG),
    TextDeltaEvent.model_validate({"index": 0, "delta": "hi", "logprobs": [TOKEN]}),
    TextDeltaEvent(index=0, delta=""),
    TextEndEvent.model_validate(
        {"index": 0, "citations": [{"url": "https://a.example", "title": "A", "start_index": 0, "end_index": 2}]}
    ),
    TextEndEvent(index=1, choice=2),
    RefusalDeltaEvent(index=0, delta="no"),
    ThinkingStartEvent(index=0, provider="anthropic", model="claude"),
    ThinkingDeltaEvent(index=0, delta="hmm"),
    ThinkingSignatureDeltaEvent(index=0, delta="sig"),
    ThinkingEndEvent(index=0, encrypted="opaque"),
    ToolCallStartEvent(index=1, id="c1", name="f"),
    ToolCallStartEvent(index=1, id="c1", name="f", kind="custom"),
    ToolCallDeltaEvent(index=1, delta="{"),
    ToolCallEndEvent(index=1),
    PartEvent.model_validate({"index": 3, "part": {"type": "image", "source": {"type": "url", "url": "https://i"}}}),
    UsageEvent.model_validate({"usage": {"input_tokens": 3, "output_tokens": 4, "provider_metadata": BAG}}),
    FinishEvent.model_validate(
        {"finish_reason": {"unified": "stop", "raw": "end_turn"}, "choice": 1, "logprobs": [TOKEN]}
    ),
    FinishEvent.model_validate({"finish_reason": {"unified": "tool_calls"}, "choice_metadata": BAG}),
    ChoiceMetadataEvent(choice=1, choice_metadata=BAG, message_metadata=BAG),
    ErrorEvent(message="boom", error_type="overloaded_error", body={"error": {"type": "x"}}),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda event: event.type)
def test_a_record_is_its_model(event: AnyStreamEvent) -> None:
    record = records.record_of(event)
    assert records.is_record(record)
    assert not records.is_record(event)
    assert record.type == event.type
    assert record.data() == event.model_dump()
    assert list(record.data()) == list(event.model_dump())  # the model's field order
    assert records.event_of(record) == event
    assert records.record_from_data(event.model_dump()) == record
    assert checked(record) is record or checked(record) == record
    for name in type(record).field_names:
        held = getattr(record, name)
        kept = getattr(event, name)
        if isinstance(kept, pydantic.BaseModel):
            assert held == kept.model_dump()
        elif isinstance(kept, list) and kept and isinstance(kept[0], pydantic.BaseModel):
            assert held == [item.model_dump() for item in cast("list[pydantic.BaseModel]", kept)]
        else:
            assert held == kept


def test_records_match_by_class() -> None:
    def kind(record: records.AnyStreamRecord) -> str:
        match record:
            case records.TextDeltaRecord():
                return f"text {record.delta}"
            case records.FinishRecord():
                return f"finish {record.finish_reason['unified']}"
            case _:
                return "other"

    assert kind(records.TextDeltaRecord(index=0, delta="a")) == "text a"
    assert kind(records.FinishRecord(finish_reason={"unified": "stop"})) == "finish stop"
    assert kind(records.TextStartRecord(index=0)) == "other"


def test_plain_records_are_kept_as_they_are() -> None:
    plain = records.TextDeltaRecord(index=0, delta="a", choice=1, provider_metadata={"p": {"k": 1.5}})
    assert checked(plain) is plain
    finish = records.FinishRecord(finish_reason={"unified": "stop", "raw": "end_turn"})
    assert checked(finish) is finish
    usage = records.UsageRecord(usage={"input_tokens": 1, "output_tokens": 2})
    assert checked(usage) is usage


@pytest.mark.parametrize(
    ("record", "model", "fields"),
    [
        (records.TextStartRecord(index=-1), TextStartEvent, {"index": -1}),
        (records.record_from_data({"type": "text_delta", "index": 0, "delta": 3}), TextDeltaEvent, None),
        (records.FinishRecord(finish_reason={"unified": "done"}), FinishEvent, {"finish_reason": {"unified": "done"}}),
        (records.UsageRecord(usage={"input_tokens": -2}), UsageEvent, {"usage": {"input_tokens": -2}}),
        (
            records.ResponseStartRecord(provider_metadata={"p": {"k": float("nan")}}),
            ResponseStartEvent,
            {"provider_metadata": {"p": {"k": float("nan")}}},
        ),
        (records.ToolCallStartRecord(index=0, id="c", name="f", kind="x"), ToolCallStartEvent, None),
    ],
    ids=["negative index", "non-text delta", "unknown finish", "negative count", "nan in a bag", "unknown kind"],
)
def test_a_record_is_refused_as_its_model_refuses(
    record: records.AnyStreamRecord, model: type[pydantic.BaseModel], fields: dict[str, Any] | None
) -> None:
    with pytest.raises(pydantic.ValidationError) as refused:
        checked(record)
    with pytest.raises(pydantic.ValidationError) as expected:
        model.model_validate(record.data() if fields is None else fields)
    assert repr(refused.value.errors(include_url=False)) == repr(expected.value.errors(include_url=False))  # NaN shown


def test_what_the_model_reads_differently_is_what_the_record_holds() -> None:
    read = checked(records.record_from_data({"type": "text_start", "index": 3.0}))  # JSON's 3.0
    assert type(read) is records.TextStartRecord
    assert read.index == 3
    assert type(read.index) is int
    usage = checked(records.UsageRecord(usage={"input_tokens": 2.0, "provider_metadata": BAG}))
    assert usage == records.UsageRecord(usage={"input_tokens": 2, "provider_metadata": BAG})


def test_a_record_holds_what_the_model_dumps() -> None:
    """A ``None`` the model leaves out of its dump is left out of the record too (encoders
    read the record's data as they read the dump)."""
    finish = checked(records.FinishRecord(finish_reason={"unified": "stop", "raw": None}))
    assert finish == records.FinishRecord(finish_reason={"unified": "stop"})
    usage = checked(records.UsageRecord(usage={"input_tokens": 1, "output_tokens": None}))
    assert usage == records.UsageRecord(usage={"input_tokens": 1})


@pytest.mark.parametrize(
    "usage",
    [
        {"output_tokens": 4, "input_tokens": 3, "reasoning_tokens": None},
        {"input_tokens": 3, "provider_metadata": {"anthropic": {"service_tier": "standard", "cache": {"ttl": None}}}},
        {"cache_read_tokens": 0},
        {},
    ],
)
def test_plain_usage_is_what_the_model_dumps(usage: dict[str, Any]) -> None:
    """Usage a stream's builder keeps with no model: the model's own dump, key for key and in
    its order, so the encoders read the same data."""
    from chatcodec import Usage

    plain = plain_usage(usage)
    assert plain is not None
    dumped = Usage.model_validate(usage).model_dump()
    assert list(plain.items()) == list(dumped.items())


@pytest.mark.parametrize(
    "usage",
    [
        {"input_tokens": 3.0},
        {"input_tokens": -1},
        {"input_tokens": True},
        {"total_tokens": 3},
        {"provider_metadata": {"p": {"x": float("inf")}}},
        {"provider_metadata": {"p": 1}},
    ],
)
def test_usage_the_model_must_read_is_not_plain(usage: dict[str, Any]) -> None:
    assert plain_usage(usage) is None


def test_replaced_copies() -> None:
    start = records.ThinkingStartRecord(index=0, provider="p")
    copy = start.replaced(model="m")
    assert copy == records.ThinkingStartRecord(index=0, provider="p", model="m")
    assert start.model is None


def test_the_records_module_imports_no_pydantic() -> None:
    probe = textwrap.dedent(
        """
        import sys
        from chatcodec._model import stream_records as r
        from chatcodec._model.stream_record_checks import checked, plain_usage
        record = checked(r.TextDeltaRecord(index=0, delta="a"))
        print("pydantic" in sys.modules, "pydantic_core" in sys.modules)
        """
    )
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert shown.split() == ["False", "False"]
