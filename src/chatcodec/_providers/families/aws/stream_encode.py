"""Canonical stream events to a Bedrock block stream's events, for both bodies: ConverseStream's
events and the JSON events inside Nova's InvokeModelWithResponseStream chunks are the same
shapes (:mod:`.stream_decode`); a body's :class:`~.stream_decode.StreamFacts` say the rest.

Events are written in the shape the decoder reads, ``{"<eventType>": {...}}``, as a live
stream sends them: ``messageStart``; for each part, ``contentBlockStart`` only for a tool
call (and a server ``toolResult`` or an ``image``), then ``contentBlockDelta`` and
``contentBlockStop``; ``messageStop`` with the stop reason at the finish; ``metadata``
last (Converse: usage and metrics, both required by botocore; Nova: usage and what its
decoder kept of the event, its ``amazon-bedrock-invocationMetrics`` on the last event).
No ``"p"`` padding is written. A text or reasoning part that got no delta sends one empty
delta, so it is not lost. An exception event's member is lower camel case, as the
service's (``throttlingException``).

Bedrock's real wire is binary ``application/vnd.amazon.eventstream``; chatcodec does not
frame it (the AWS SDKs do). Its edge's framing therefore writes JSON Lines
(``chatcodec.to_sse``), one event object per line, the form the fixtures hold and
``decode_stream`` reads back.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any, ClassVar, assert_never, cast

from chatcodec._errors import StreamError
from chatcodec._losses import LossRecorder
from chatcodec._model.stream_records import (
    AnyStreamRecord,
    ChoiceMetadataRecord,
    ErrorRecord,
    FinishRecord,
    PartLifecycleRecord,
    PartRecord,
    RefusalDeltaRecord,
    ResponseStartRecord,
    TextDeltaRecord,
    TextEndRecord,
    TextStartRecord,
    ThinkingDeltaRecord,
    ThinkingEndRecord,
    ThinkingSignatureDeltaRecord,
    ThinkingStartRecord,
    ToolCallDeltaRecord,
    ToolCallEndRecord,
    ToolCallStartRecord,
    UsageRecord,
)
from chatcodec._narrow import as_dict, is_list
from chatcodec._payloads import read_json_text
from chatcodec._providers.contract.context import EncodeContext
from chatcodec._providers.families.aws.context import BedrockContext
from chatcodec._providers.families.aws.finish_reason import encode_finish_reason
from chatcodec._providers.families.aws.parts import encode_blocks, tool_name
from chatcodec._providers.families.aws.stream_decode import NO_METRICS, StreamFacts
from chatcodec._providers.families.aws.tool_ids import tool_use_id
from chatcodec._providers.families.claude.wire_rules import FINISH_MARKER
from chatcodec._providers.kit.invented import report_invented
from chatcodec._providers.kit.stream_errors import report_after_error
from chatcodec.codec_kit import restore_fields
from chatcodec.contract import Steps

_USAGE_FIELDS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens")
_STOP_MEMBERS = frozenset({"additionalModelResponseFields"})
_METADATA_MEMBERS = frozenset({"metrics", "trace", "performanceConfig", "serviceTier"})
_WHOLE_PARTS = frozenset(("text", "thinking", "tool_use", "opaque", "refusal", "image"))
Event = dict[str, Any]


_Delta = TextDeltaRecord | ThinkingDeltaRecord | ToolCallDeltaRecord
_DELTA_BLOCKS: dict[type[AnyStreamRecord], str] = {
    TextDeltaRecord: "text",
    ThinkingDeltaRecord: "thinking",
    ToolCallDeltaRecord: "tool",
}
"""The deltas :meth:`StreamEncoder.feed` writes itself, and the block kind each continues."""


@dataclass
class _Open:
    kind: str
    wire_index: int
    sent: bool = False
    own_signature: bool = True
    reported: bool = False
    arguments: list[str] = field(default_factory=lambda: [])
    pending: list[Event] = field(default_factory=lambda: [])
    """A tool call's events, held until its end (when all its fields are known)."""


class BlockStreamEncoder:
    """Feed canonical events with :meth:`feed`, then call :meth:`close` for the tail (each
    body's folder names its :class:`~.stream_decode.StreamFacts` in a subclass)."""

    facts: ClassVar[StreamFacts]
    stream_contract: ClassVar[int] = 2
    """It reads records (:mod:`chatcodec.contract`'s ``...Record`` classes), not the public models."""

    def __init__(self, context: EncodeContext) -> None:
        self.losses: LossRecorder = context.losses
        self.kit = self.facts.body.kit
        self.context: BedrockContext = context.extend(
            BedrockContext, body=self.facts.body, model=None
        )  # the answering model's own signatures
        self.tail: Any = None  # what the decoder kept of a metadata event (a marked body's)
        self.last: Any = None  # the last event's extra member (a body's framing), for the metadata event
        self.started: bool = False
        self.bag: dict[str, Any] = {}
        self.finish_word: dict[str, Any] = {}
        self.usage: dict[str, Any] = {}
        self.usage_metadata: dict[str, dict[str, Any]] = {}
        self.finished: bool = False
        self.open: dict[int, _Open] = {}
        self.next_index: int = 0
        self.position: int = 0
        self.dropped_choices: set[int] = set()
        self.failed: bool = False
        """An error was written: the stream ends there (:mod:`~chatcodec._providers.kit.stream_errors`)."""
        self.dropped: bool = False  # an event came after it, left out

    def feed(self, event: AnyStreamRecord) -> Iterator[Event]:
        """The wire events ``event`` completes (possibly none yet).

        A delta of the one answer for a block that is open and of its kind, nearly every
        event, is written here as :meth:`_part_event` would write it (a tool call's held
        until its block stops), without the dispatch through nested generators and class
        matches; any other event takes that way."""
        if self.failed:
            self.dropped = True
            return iter(())
        kind = _DELTA_BLOCKS.get(type(event))
        if kind is not None and self.started and cast("_Delta", event).choice == 0:
            delta = cast("_Delta", event)
            block = self.open.get(delta.index)
            if block is not None and block.kind == kind:
                self.position += 1
                if kind == "text":
                    return iter((self._delta(block, {"text": delta.delta}),))
                if kind == "thinking":
                    return iter((self._delta(block, {"reasoningContent": {"text": delta.delta}}),))
                block.arguments.append(delta.delta)
                block.pending.append(self._delta(block, {"toolUse": {"input": delta.delta}}))
                return iter(())
        return self._counted(event)

    def _counted(self, event: AnyStreamRecord) -> Iterator[Event]:
        try:
            yield from self._feed(event)
        finally:
            self.position += 1

    def _feed(self, event: AnyStreamRecord) -> Iterator[Event]:
        match event:
            case ResponseStartRecord():
                self._take_bag(event.provider_metadata, ("provider_metadata",))
                for key in ("id", "model"):  # not ``created``: the server's clock
                    if getattr(event, key) is not None:
                        why = f"a {self.facts.title} response has none"
                        self.losses.add((key,), f"response {key}", why, "metadata")
            case UsageRecord():
                self._add_usage(event.usage)
            case FinishRecord():
                if not self._other_choice(event.choice):
                    yield from self._finish(event)
            case ChoiceMetadataRecord():
                if not self._other_choice(event.choice):
                    self._choice_data(event)
            case ErrorRecord():
                self.failed = True
                yield self._error(event)
            case _:
                if not self._other_choice(event.choice):
                    yield from self._ensure_started()
                    yield from self._part_event(event)

    def close(self) -> Iterator[Event]:
        """The closing events: open blocks stop, then ``metadata`` (usage and metrics), when
        the canonical stream had usage or metrics; nothing after an error."""
        if self.failed:
            if self.dropped:
                report_after_error(self.losses, self.facts.body.name)
            return
        if not self.started and not self.finished and not self.usage:
            return
        yield from self._ensure_started()
        yield from self._close_all()
        if self.facts.metadata_marker is not None:
            yield from self._marked_metadata()
            return
        metadata: dict[str, Any] = {key: value for key, value in self.bag.items() if key in _METADATA_MEMBERS}
        if not metadata and not self.usage:
            return  # a stream that had no metadata event (usage, metrics) gets none
        usage = {**self.usage, "provider_metadata": self.usage_metadata} if self.usage_metadata else self.usage
        metadata["usage"] = self.facts.encode_usage(usage, self.context, ("usage",))
        if not self.bag.get(NO_METRICS) and "metrics" not in metadata:  # required by botocore
            metadata["metrics"] = {"latencyMs": 0}
            at: Steps = ("provider_metadata", self.kit.name, "metrics")  # where a response keeps them
            report_invented(self.losses, at, "metrics.latencyMs", f"a {self.facts.title} metadata event", 0)
        yield {"metadata": metadata}

    def _marked_metadata(self) -> Iterator[Event]:
        """A marked body's ``metadata`` event (Nova's): the usage when the stream had one,
        and what the decoder kept of the event under its marker; none when neither came.
        The framing's last member goes on it."""
        if self.tail is None and not self.usage:
            return
        metadata: dict[str, Any] = {}
        if self.usage:
            usage = {**self.usage, "provider_metadata": self.usage_metadata} if self.usage_metadata else self.usage
            metadata["usage"] = self.facts.encode_usage(usage, self.context, ("usage",))
        kept = as_dict(self.tail)  # ``True``: the event held usage alone
        if kept is not None:
            metadata.update(restore_fields(kept))
        last = self.facts.last_member
        yield {"metadata": metadata} if self.last is None or last is None else {"metadata": metadata, last: self.last}

    # --- framing -------------------------------------------------------------------------

    def _take_bag(self, metadata: Any, at: Steps) -> None:
        bag = self.kit.claim(self.losses, metadata, at)
        self.bag.update(restore_fields(bag))
        if bag.get(NO_METRICS):
            self.bag[NO_METRICS] = True
        if FINISH_MARKER in bag:  # a stopReason the decoder read (on the start when replayed)
            self.finish_word = {FINISH_MARKER: bag[FINISH_MARKER]}

    def _other_choice(self, choice: int) -> bool:
        if choice != 0 and choice not in self.dropped_choices:
            self.dropped_choices.add(choice)
            self.losses.add(("choices", choice), "extra choice", "Bedrock streams one answer")
        return choice != 0

    def _ensure_started(self) -> Iterator[Event]:
        if self.started:
            return
        self.started = True
        rest = {
            key: value for key, value in self.bag.items() if key not in _STOP_MEMBERS | _METADATA_MEMBERS | {NO_METRICS}
        }
        yield {"messageStart": {"role": "assistant", **rest}}

    def _finish(self, event: FinishRecord) -> Iterator[Event]:
        yield from self._ensure_started()
        yield from self._close_all()
        if self.finished:
            return
        self.finished = True
        marker = self.facts.metadata_marker
        fields: dict[str, Any] = {}
        if marker is None:  # the finish bag's members no event took yet go on messageStop (where they were read)
            written = set(self.bag)
            self._take_bag(event.provider_metadata, ("provider_metadata",))
            untaken = _STOP_MEMBERS | _METADATA_MEMBERS | written
            fields = {key: value for key, value in self.bag.items() if key not in untaken and key != NO_METRICS}
        else:  # a marked body's finish bag: its metadata event's members, the rest messageStop's
            bag = self.kit.claim(self.losses, event.provider_metadata, ("provider_metadata",))
            if FINISH_MARKER in bag:
                self.finish_word = {FINISH_MARKER: bag[FINISH_MARKER]}
            self.tail = bag.get(marker)
            fields = restore_fields(bag)
            self.last = fields.pop(self.facts.last_member, None) if self.facts.last_member else None
        choice_bag = self.kit.claim(self.losses, event.choice_metadata, ("choices", 0))
        if restore_fields(choice_bag):
            self.losses.add(("choices", 0), f"{self.kit.name} output fields", "a stream has no output object")
        stop: dict[str, Any] = {}
        reason = encode_finish_reason(dict(event.finish_reason), self.finish_word, self.context, ("finish_reason",))
        stop["stopReason"] = reason if reason is not None else "end_turn"
        stop.update((key, value) for key, value in self.bag.items() if key in _STOP_MEMBERS)
        stop.update(fields)
        if self.last is not None and self.tail is None:  # no metadata event follows: the last member goes here
            yield {"messageStop": stop, str(self.facts.last_member): self.last}
            self.last = None
            return
        yield {"messageStop": stop}

    def _choice_data(self, event: ChoiceMetadataRecord) -> None:
        """A ConverseStream has no ``output`` object for a choice's fields, and its message
        no fields but ``role`` (``messageStart``'s other members are the response's, as
        the decoder reads them): both bags are losses, as a finish's choice bag is."""
        at: Steps = ("events", self.position)
        no_place = f"a {self.facts.title} has no place for it after messageStart"
        self.kit.report_unplaced(self.losses, event.provider_metadata, (*at, "provider_metadata"), no_place)
        self.kit.report_unplaced(self.losses, event.choice_metadata, ("choices", 0), "a stream has no output object")
        self.kit.report_unplaced(self.losses, event.message_metadata, ("choices", 0, "message"), no_place)

    def _add_usage(self, usage: dict[str, Any]) -> None:
        for key in _USAGE_FIELDS:
            value = usage.get(key)
            if value is not None:
                self.usage[key] = value
        for provider, values in (as_dict(usage.get("provider_metadata")) or {}).items():
            self.usage_metadata.setdefault(provider, {}).update(values)

    def _error(self, event: ErrorRecord) -> Event:
        body = as_dict(event.body)
        if body is not None and len(body) == 1 and next(iter(body)).endswith("Exception"):
            return dict(body)
        kind = event.error_type or ""
        member = kind[:1].lower() + kind[1:] if kind.endswith("Exception") else "internalServerException"
        return {member: {"message": event.message}}

    # --- blocks --------------------------------------------------------------------------

    def _begin(self, index: int, kind: str) -> _Open:
        if index in self.open:
            raise StreamError(f"part {index} started again before it ended", "$.index", self.position)
        block = self.open[index] = _Open(kind, self.next_index)
        self.next_index += 1
        return block

    def _block(self, index: int, kind: str) -> _Open:
        block = self.open.get(index)
        if block is None or block.kind != kind:
            what = "was never started" if block is None else f"is a {block.kind} block"
            raise StreamError(f"a {kind} event for part {index}, which {what}", "$.index", self.position)
        return block

    def _delta(self, block: _Open, delta: dict[str, Any]) -> Event:
        block.sent = True
        return {"contentBlockDelta": {"contentBlockIndex": block.wire_index, "delta": delta}}

    def _stop(self, index: int, kind: str) -> Iterator[Event]:
        block = self._block(index, kind)
        del self.open[index]
        yield from block.pending
        if not block.sent and kind in ("text", "thinking"):
            yield self._delta(block, {"text": ""} if kind == "text" else {"reasoningContent": {"text": ""}})
        yield {"contentBlockStop": {"contentBlockIndex": block.wire_index}}

    def _close_all(self) -> Iterator[Event]:
        for index in list(self.open):
            yield from self._stop(index, self.open[index].kind)

    def _part_event(self, event: PartLifecycleRecord) -> Iterator[Event]:
        at: Steps = ("content", event.index)
        match event:
            case TextStartRecord() | TextDeltaRecord() | TextEndRecord() | RefusalDeltaRecord():
                yield from self._text_event(event, at)
            case ThinkingStartRecord() | ThinkingDeltaRecord() | ThinkingSignatureDeltaRecord() | ThinkingEndRecord():
                yield from self._thinking_event(event, at)
            case ToolCallStartRecord() | ToolCallDeltaRecord() | ToolCallEndRecord():
                yield from self._tool_event(event, at)
            case PartRecord():
                yield from self._whole(event, at)
            case _:
                assert_never(event)

    def _text_event(
        self, event: TextStartRecord | TextDeltaRecord | TextEndRecord | RefusalDeltaRecord, at: Steps
    ) -> Iterator[Event]:
        match event:
            case TextStartRecord():
                self._own(event, at)
                self._begin(event.index, "text")
            case TextDeltaRecord():
                yield self._delta(self._block(event.index, "text"), {"text": event.delta})
            case TextEndRecord():
                yield from self._text_end(event, at)
            case RefusalDeltaRecord():
                if event.index not in self.open:
                    self.losses.add(at, "refusal part", "Bedrock has no refusal block; sent as text")
                    self._begin(event.index, "text")
                yield self._delta(self._block(event.index, "text"), {"text": event.delta})
            case _:
                assert_never(event)

    def _thinking_event(
        self,
        event: ThinkingStartRecord | ThinkingDeltaRecord | ThinkingSignatureDeltaRecord | ThinkingEndRecord,
        at: Steps,
    ) -> Iterator[Event]:
        match event:
            case ThinkingStartRecord():
                self._own(event, at)
                own = self.facts.body.claude and event.provider in (self.kit.name, None)  # Nova's has none
                self._begin(event.index, "thinking").own_signature = own
            case ThinkingDeltaRecord():
                yield self._delta(self._block(event.index, "thinking"), {"reasoningContent": {"text": event.delta}})
            case ThinkingSignatureDeltaRecord():
                yield from self._signature(event, at)
            case ThinkingEndRecord():
                if event.encrypted is not None:
                    self.losses.add((*at, "encrypted"), "encrypted reasoning", "Bedrock reasoning has no such payload")
                self._own(event, at)
                yield from self._stop(event.index, "thinking")
            case _:
                assert_never(event)

    def _tool_event(
        self, event: ToolCallStartRecord | ToolCallDeltaRecord | ToolCallEndRecord, at: Steps
    ) -> Iterator[Event]:
        match event:
            case ToolCallStartRecord():
                self._tool_start(event, at)
            case ToolCallDeltaRecord():
                block = self._block(event.index, "tool")
                block.arguments.append(event.delta)
                block.pending.append(self._delta(block, {"toolUse": {"input": event.delta}}))
            case ToolCallEndRecord():
                block = self._block(event.index, "tool")
                block.pending[0]["contentBlockStart"]["start"]["toolUse"].update(self._own(event, at))
                self._check_arguments(event.index, at)
                yield from self._stop(event.index, "tool")
            case _:
                assert_never(event)

    def _own(self, event: AnyStreamRecord, at: Steps) -> dict[str, Any]:
        return restore_fields(self.kit.claim(self.losses, event.provider_metadata, at))

    def _text_end(self, event: TextEndRecord, at: Steps) -> Iterator[Event]:
        citations = self._own(event, at).get("citations")
        block = self._block(event.index, "text")
        if is_list(citations):
            for citation in citations:
                yield self._delta(block, {"citation": citation})
        yield from self._stop(event.index, "text")

    def _signature(self, event: ThinkingSignatureDeltaRecord, at: Steps) -> Iterator[Event]:
        block = self._block(event.index, "thinking")
        if block.own_signature:  # even "": the part then has a signature, as the body says
            yield self._delta(block, {"reasoningContent": {"signature": event.delta}})
        elif event.delta and not block.reported:
            block.reported = True
            self.losses.add((*at, "signature"), "signature of another provider", "meaningless to Bedrock clients")

    def _tool_start(self, event: ToolCallStartRecord, at: Steps) -> None:
        """The start is held with the deltas: a canonical stream gives a part's provider
        fields (a ``toolUse.type``) with its end event, and they belong in the start."""
        call = {
            **self._own(event, at),
            "toolUseId": tool_use_id(event.id, self.context.losses, (*at, "id")),
            "name": tool_name(event.name, self.context, at),
        }
        block = self._begin(event.index, "tool")
        block.sent = True
        block.pending.append({"contentBlockStart": {"contentBlockIndex": block.wire_index, "start": {"toolUse": call}}})

    def _check_arguments(self, index: int, at: Steps) -> None:
        text = "".join(self._block(index, "tool").arguments)
        if not text.strip():
            return
        try:
            parsed: object = read_json_text(text)
        except ValueError:
            parsed = None
        if not isinstance(parsed, dict):
            self.losses.add((*at, "arguments"), "tool arguments", "not a JSON object; Bedrock clients cannot parse it")

    def _whole(self, event: PartRecord, at: Steps) -> Iterator[Event]:
        part = deepcopy(event.part)  # the record's part is shared: the writers get their own copy
        if part["type"] not in _WHOLE_PARTS:
            self.losses.add(at, f"{part['type']} part", f"{self.facts.body.response} cannot contain it")
            return
        self._own(event, at)
        for block in encode_blocks(part, self.context, at):
            yield from self._whole_block(event.index, block, at)

    def _whole_block(self, index: int, block: dict[str, Any], at: Steps) -> Iterator[Event]:
        ((member, value),) = block.items()
        if member == "text":
            opened = self._begin(index, "text")
            yield self._delta(opened, {"text": value})
            yield from self._stop(index, "text")
        elif member == "reasoningContent":
            opened = self._begin(index, "whole")
            for key, item in value.get("reasoningText", {}).items():
                yield self._delta(opened, {"reasoningContent": {key: item}})
            if "redactedContent" in value:
                yield self._delta(opened, {"reasoningContent": {"redactedContent": value["redactedContent"]}})
            yield from self._stop(index, "whole")
        elif member in _STARTED_MEMBERS:
            yield from self._started_block(index, member, value)
        else:
            self.losses.add(at, f"{member} block", f"a {self.facts.title} has no delta for it")

    def _started_block(self, index: int, member: str, value: dict[str, Any]) -> Iterator[Event]:
        """A block with a ``contentBlockStart``: its fixed fields there, the rest as one delta."""
        body = _STARTED_MEMBERS[member]
        opened = self._begin(index, "whole")
        start = {key: item for key, item in value.items() if key != body}
        yield {"contentBlockStart": {"contentBlockIndex": opened.wire_index, "start": {member: start}}}
        if body in value:
            item = value[body]
            if member == "toolUse":
                item = {"input": json.dumps(item, ensure_ascii=False, separators=(",", ":"))}
            elif member == "image":
                item = {"source": item}
            yield self._delta(opened, {member: item})
        yield from self._stop(index, "whole")


_STARTED_MEMBERS = {"toolUse": "input", "toolResult": "content", "image": "source"}
"""Blocks that stream with a start, and the member their delta carries."""
