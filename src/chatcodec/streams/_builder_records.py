"""The records :class:`~chatcodec.streams._builder.StreamBuilder` makes in its emitting
mode, and what it reads from an event given as a record or a model: kept apart so the
builder stays one job (driving a stream), and this module imports no pydantic."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chatcodec._model.stream_records import (
    AnyStreamRecord,
    RefusalDeltaRecord,
    TextDeltaRecord,
    TextEndRecord,
    TextStartRecord,
    ThinkingDeltaRecord,
    ThinkingEndRecord,
    ThinkingStartRecord,
    ToolCallDeltaRecord,
    ToolCallEndRecord,
    ToolCallStartRecord,
)
from chatcodec.streams._part_builder import PartBuilder

Metadata = dict[str, dict[str, Any]] | None
"""Provider metadata for an event (merged into the part or response it belongs to)."""

DELTA_RECORDS: dict[str, type[TextDeltaRecord | ThinkingDeltaRecord | ToolCallDeltaRecord | RefusalDeltaRecord]] = {
    "text": TextDeltaRecord,
    "thinking": ThinkingDeltaRecord,
    "tool_use": ToolCallDeltaRecord,
    "refusal": RefusalDeltaRecord,
}
START_RECORDS: dict[str, Callable[[int, int], AnyStreamRecord]] = {
    "text": lambda index, choice: TextStartRecord(index=index, choice=choice),
    "thinking": lambda index, choice: ThinkingStartRecord(index=index, choice=choice),
    "tool_use": lambda index, choice: ToolCallStartRecord(index=index, choice=choice, id="", name=""),
}
"""A start record with placeholders for its other required fields, to check a position."""


def end_record(
    part: PartBuilder, encrypted: str | None, metadata: Metadata, citations: list[dict[str, Any]] | None
) -> AnyStreamRecord:
    if part.kind == "text":
        return TextEndRecord(index=part.index, choice=part.choice, provider_metadata=metadata, citations=citations)
    if part.kind == "thinking":
        return ThinkingEndRecord(index=part.index, choice=part.choice, encrypted=encrypted, provider_metadata=metadata)
    return ToolCallEndRecord(index=part.index, choice=part.choice, provider_metadata=metadata)


def model_data(values: list[Any] | None, *, mode: str = "python") -> list[Any] | None:
    """A record's list of canonical data as it is, a model's list (token log probabilities,
    citations) as the data its items dump to."""
    if values is None:
        return None
    return [value if isinstance(value, dict) else value.model_dump(mode=mode) for value in values]


def merge_metadata(target: dict[str, Any], metadata: Metadata) -> None:
    if metadata is None:
        return
    merged: dict[str, dict[str, Any]] = target.setdefault("provider_metadata", {})
    for provider, values in metadata.items():
        merged.setdefault(provider, {}).update(values)
