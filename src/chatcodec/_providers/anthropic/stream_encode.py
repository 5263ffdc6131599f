"""Canonical stream events -> Anthropic server-sent events (:func:`encode_stream`), so a
proxy can serve the Anthropic streaming API from any upstream (the SSE text is the edge's
framing: ``chatcodec.to_sse``).

Anthropic's stream has a fixed frame: ``message_start`` (with usage so far), blocks
numbered from 0 in order, one ``message_delta`` (stop reason and usage totals), then
``message_stop``. Canonical events arrive in the upstream's order, so this keeps a little
state: the response start waits for the first usage (so ``message_start`` can carry the
input count), block indexes are assigned as parts begin, open blocks are closed before
the ``message_delta``, and the finish reason waits for later usage. Anthropic has one
answer per response: events of other choices are dropped and reported.

Blocks go out one at a time, as Anthropic sends them: a block stops before the next one
starts. A text block starts with its first text, so a text part that never has any (an
OpenAI-compatible upstream's ``"content": ""`` before its tool calls) sends no empty
block: Anthropic never streams one, and clients render it as an empty answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from copy import deepcopy
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, assert_never, cast

from chatcodec import StreamError
from chatcodec._providers.anthropic.encode_context import AnthropicContext
from chatcodec._providers.anthropic.finish_reason import REFUSAL_SENT_AS_TEXT, encode_finish_reason
from chatcodec._providers.anthropic.markers import KIT, PROVIDER
from chatcodec._providers.anthropic.parts import encode_part, unique_call_id
from chatcodec._providers.anthropic.response import (
    MESSAGE_DEFAULTS,
    MESSAGE_MAPPED,
    OWNER,
    RESPONSE_PARTS,
    empty_text,
)
from chatcodec._providers.anthropic.tool_ids import sanitize_tool_use_id, signed_tool_use_id
from chatcodec._providers.anthropic.usage import encode_usage
from chatcodec._providers.families.claude.wire_rules import claude_signed
from chatcodec._providers.families.google.thought_signatures import split_signature
from chatcodec.codec_kit import as_dict, is_list, read_json_text, report_after_error, report_invented, restore_fields
from chatcodec.contract import (
    AnyStreamRecord,
    ChoiceMetadataRecord,
    EncodeContext,
    ErrorRecord,
    FinishRecord,
    LossRecorder,
    PartLifecycleRecord,
    PartRecord,
    RefusalDeltaRecord,
    ResponseStartRecord,
    Steps,
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

_NO_PLACE = "an Anthropic message is the whole answer: its decoder keeps no choice or message bag"
_USAGE_FIELDS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens")


_Delta = TextDeltaRecord | ThinkingDeltaRecord | ToolCallDeltaRecord
_DELTA_SHAPES: dict[type[AnyStreamRecord], tuple[str, str, str]] = {
    TextDeltaRecord: ("text", "text_delta", "text"),
    ThinkingDeltaRecord: ("thinking", "thinking_delta", "thinking"),
    ToolCallDeltaRecord: ("tool_use", "input_json_delta", "partial_json"),
}
"""The deltas :meth:`StreamEncoder.feed` writes itself: the block kind each continues,
the wire delta type and where it holds its text (as :meth:`StreamEncoder._part_event`
writes them)."""


@dataclass
class _Open:
    """A wire block that has started and not stopped."""

    kind: str
    wire_index: int
    start: dict[str, Any]
    foreign_signature: bool = False
    """Thinking from another provider: its signature is not sent."""
    reported: bool = False
    """Whether that was reported already (once per part)."""
    signed: bool = False
    """Thinking whose signature came, even an empty one (a replay's ``""``): a part that
    never had one is reported at its end, as a non-streamed response reports it."""
    arguments: list[str] = field(default_factory=lambda: [])
    """A tool call's argument fragments, checked once the call ends."""


@dataclass
class _Queued:
    """A tool call that began while another call's block was open: its block goes out
    when that one stops (Anthropic cannot reopen a stopped block)."""

    start: dict[str, Any]
    at: Steps
    deltas: list[str] = field(default_factory=lambda: [])
    ended: bool = False


class StreamEncoder:
    """Feed canonical events with :meth:`feed`, then call :meth:`close` for the tail."""

    stream_contract: ClassVar[int] = 2
    """It reads records (:mod:`chatcodec.contract`'s ``...Record`` classes), not the public models."""

    def __init__(self, context: EncodeContext) -> None:
        self.losses: LossRecorder = context.losses
        self.context: AnthropicContext = context.extend(AnthropicContext, for_request=False)
        self.start: ResponseStartRecord | None = None
        self.started: bool = False
        self.start_fields: dict[str, Any] = {}
        self.usage: dict[str, Any] = {}
        self.usage_metadata: dict[str, dict[str, Any]] = {}
        self.finish: FinishRecord | None = None
        self.open: dict[int, _Open] = {}
        self.ended_early: dict[int, _Open] = {}  # blocks stopped when a later one began, by part index
        self.waiting: dict[int, dict[str, Any]] = {}  # text blocks waiting for their first text, by part index
        self.queued: dict[int, _Queued] = {}  # tool calls waiting for the open call to stop, by part index
        self.refusals: set[int] = set()  # refusal parts reported, by part index
        self.next_index: int = 0
        self.position: int = 0
        self.failed: bool = False
        """An error was written: the stream ends there (:mod:`~chatcodec._providers.kit.stream_errors`)."""
        self.dropped: bool = False  # an event came after it, left out
        self.dropped_choices: set[int] = set()
        self.stop_sequence: object = None
        self.start_bag: dict[str, Any] = {}

    def feed(self, event: AnyStreamRecord) -> Iterator[dict[str, Any]]:
        """The wire events ``event`` completes (possibly none yet).

        A delta of the one answer for a block that is open and of its kind, nearly every
        event, is written here, as :meth:`_part_event` would write it, without the
        dispatch through four generators and a dozen class matches; any other event
        takes that way."""
        if self.failed:
            self.dropped = True
            return iter(())
        shape = _DELTA_SHAPES.get(type(event))
        if shape is not None and self.started and cast("_Delta", event).choice == 0:
            delta = cast("_Delta", event)
            block = self.open.get(delta.index)
            if block is not None and block.kind == shape[0]:
                self.position += 1
                if shape[0] == "tool_use":
                    block.arguments.append(delta.delta)
                wire_delta = {"type": shape[1], shape[2]: delta.delta}
                return iter(({"type": "content_block_delta", "index": block.wire_index, "delta": wire_delta},))
        return self._counted(event)

    def _counted(self, event: AnyStreamRecord) -> Iterator[dict[str, Any]]:
        try:
            yield from self._feed(event)
        finally:
            self.position += 1

    def _feed(self, event: AnyStreamRecord) -> Iterator[dict[str, Any]]:
        match event:
            case ResponseStartRecord():
                self.start = event if self.start is None else self.start
            case UsageRecord():
                self._add_usage(event.usage)
            case FinishRecord():
                if self._other_choice(event.choice):
                    return
                yield from self._ensure_started()
                yield from self._close_all()
                self.finish = event
            case ChoiceMetadataRecord():
                if not self._other_choice(event.choice):
                    self._choice_data(event)
            case ErrorRecord():
                self.failed = True
                yield self._error(event)
            case _:  # narrowed to the part events, matched exhaustively below
                if self._other_choice(event.choice):
                    return
                yield from self._ensure_started()
                yield from self._part_event(event)

    def close(self) -> Iterator[dict[str, Any]]:
        """The closing events: open blocks stop, then ``message_delta`` (its ``stop_reason``
        null when no finish came) and, when the stream finished, ``message_stop``; nothing
        after an error."""
        if self.failed:
            if self.dropped:
                report_after_error(self.losses, "Anthropic")
            return
        if not self.started and self.start is None and self.finish is None and not self.usage:
            return
        yield from self._ensure_started()
        yield from self._close_all()
        delta = self._delta_fields()
        if self.usage or self.usage_metadata:
            usage = self._wire_usage()
        else:  # the whole usage is made up: one report, as encode_response gives
            usage = self._wire_usage(LossRecorder())
            report_invented(self.losses, ("usage",), "usage", OWNER, usage)
        yield {"type": "message_delta", "delta": delta, "usage": usage}
        if self.finish is not None:  # a stream cut short upstream (no finish came) gets no message_stop
            yield {"type": "message_stop"}

    def _choice_data(self, event: ChoiceMetadataRecord) -> None:
        """An Anthropic message is the whole answer: the decoder keeps every field of it on
        the response, so a choice's or its message's own bag has no place (as in
        ``encode_response``); the event's response-level bag has none mid-stream either."""
        at: Steps = ("events", self.position)
        why = "an Anthropic stream gives response fields on message_start and message_delta"
        KIT.report_unplaced(self.losses, event.provider_metadata, (*at, "provider_metadata"), why)
        KIT.report_unplaced(self.losses, event.choice_metadata, ("choices", 0), _NO_PLACE)
        KIT.report_unplaced(self.losses, event.message_metadata, ("choices", 0, "message"), _NO_PLACE)

    # --- framing -------------------------------------------------------------------------

    def _other_choice(self, choice: int) -> bool:
        if choice != 0 and choice not in self.dropped_choices:
            self.dropped_choices.add(choice)
            self.losses.add(("choices", choice), "extra choice", "Anthropic streams one answer")
        return choice != 0

    def _ensure_started(self) -> Iterator[dict[str, Any]]:
        if self.started:
            return
        self.started = True
        start = self.start or ResponseStartRecord()
        bag = self.start_bag = KIT.claim(self.losses, start.provider_metadata, ("provider_metadata",))
        # ``created`` (the server's clock, nothing a user sent) has no field: dropped unreported
        message = restore_fields(bag, {"type": "message", "role": "assistant"})
        # A replayed response's stop_sequence is known at the start; a live stream says it
        # in message_delta (message_start has null), where it goes.
        self.stop_sequence = message.get("stop_sequence")
        message.update(id=start.id or "", model=start.model or "", content=[], stop_reason=None, stop_sequence=None)
        for key in ("id", "model"):  # required by the SDK's Message: reported once, here
            if getattr(start, key) is None:
                report_invented(self.losses, (key,), key, OWNER, "")
        message["usage"] = self._wire_usage(LossRecorder())  # the final usage reports any loss
        self.start_fields = {key: value for key, value in message.items() if key not in MESSAGE_MAPPED}
        yield {"type": "message_start", "message": message}

    def _add_usage(self, usage: dict[str, Any]) -> None:
        for key in _USAGE_FIELDS:
            value = usage.get(key)
            if value is not None:
                self.usage[key] = value
        for provider, values in (as_dict(usage.get("provider_metadata")) or {}).items():
            self.usage_metadata.setdefault(provider, {}).update(values)

    def _wire_usage(self, losses: LossRecorder | None = None) -> dict[str, Any]:
        """The usage so far, written: canonical usage data in ``Usage``'s field order (the
        counts were checked on their records)."""
        usage = {key: self.usage[key] for key in _USAGE_FIELDS if key in self.usage}
        if self.usage_metadata:
            usage["provider_metadata"] = deepcopy(self.usage_metadata)
        context = replace(self.context, losses=losses) if losses else self.context
        return encode_usage(usage, context, ("usage",))

    def _delta_fields(self) -> dict[str, Any]:
        """``stop_reason`` and ``stop_sequence``, plus what the finish bag says changed."""
        finish = self.finish
        at = ("finish_reason",)
        delta: dict[str, Any] = {"stop_reason": None, "stop_sequence": self.stop_sequence}
        if finish is None:
            return delta
        KIT.report_unplaced(self.losses, finish.choice_metadata, ("choices", 0), _NO_PLACE)
        bag = KIT.claim(self.losses, finish.provider_metadata, ("provider_metadata",))
        # A replayed response's bag rides on its start, a live stream's on its finish.
        reason = dict(finish.finish_reason)
        delta["stop_reason"] = encode_finish_reason(reason, {**self.start_bag, **bag}, self.context, at)
        for key, value in restore_fields(bag, MESSAGE_DEFAULTS).items():
            if key == "stop_sequence" and value is None and self.stop_sequence is not None:
                continue  # the finish says nothing of it (a default): the replayed start's stands
            if key not in MESSAGE_MAPPED and (key == "stop_sequence" or self.start_fields.get(key, ...) != value):
                delta[key] = value
        return delta

    def _error(self, event: ErrorRecord) -> dict[str, Any]:
        body = as_dict(event.body)
        if body is not None and body.get("type") == "error" and isinstance(body.get("error"), dict):
            return dict(body)
        return {"type": "error", "error": {"type": event.error_type or "api_error", "message": event.message}}

    # --- blocks --------------------------------------------------------------------------

    def _begin(self, index: int, kind: str, block: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """A block's start, after the stop of any block still open: Anthropic streams one
        block at a time ("each content block has a content_block_start, one or more
        content_block_delta events, and a content_block_stop", Streaming Messages), while an
        upstream may begin its answer before its reasoning's end arrives (OpenAI-compatible
        ``reasoning_content`` then ``content``)."""
        if index in self.open or index in self.waiting:
            raise StreamError(f"part {index} started again before it ended", "$.index", self.position)
        for earlier, start in self.waiting.items():  # no text yet: any text later opens a block of its own
            self.ended_early[earlier] = _Open("text", -1, start)
        self.waiting.clear()
        for earlier in list(self.open):
            self.ended_early[earlier] = self.open[earlier]
            yield from self._stop(earlier, self.open[earlier].kind)
        yield self._start(index, _Open(kind, self.next_index, block))

    def _start(self, index: int, block: _Open) -> dict[str, Any]:
        self.open[index] = block
        self.next_index += 1
        return {"type": "content_block_start", "index": block.wire_index, "content_block": block.start}

    def _delta(self, index: int, kind: str, delta: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """A delta of an open block; one for a text or thinking part whose block was stopped
        when a later one began goes in a new block of its own (the part goes on)."""
        block = self.open.get(index)
        early = self.ended_early.get(index) if block is None else None
        if early is not None and early.kind == kind and kind != "tool_use":
            del self.ended_early[index]
            yield from self._begin(index, kind, early.start)
            block = self.open[index]
            block.foreign_signature, block.reported = early.foreign_signature, early.reported
            block.signed = early.signed
        if block is None or block.kind != kind:
            what = "was never started" if block is None else f"is a {block.kind} block"
            raise StreamError(f"a {kind} delta for part {index}, which {what}", "$.index", self.position)
        yield {"type": "content_block_delta", "index": block.wire_index, "delta": delta}

    def _stop(self, index: int, kind: str) -> Iterator[dict[str, Any]]:
        block = self.open.get(index)
        if block is None and self.ended_early.pop(index, None) is not None:
            return  # stopped when a later block began
        if block is None or block.kind != kind:
            raise StreamError(f"the end of part {index}, which is not an open {kind} block", "$.index", self.position)
        del self.open[index]
        yield {"type": "content_block_stop", "index": block.wire_index}

    def _close_all(self) -> Iterator[dict[str, Any]]:
        self.waiting.clear()  # text parts that never had text: no block
        for index in list(self.open):
            yield from self._stop(index, self.open[index].kind)
        yield from self._flush(finishing=True)

    def _flush(self, *, finishing: bool = False) -> Iterator[dict[str, Any]]:
        """The queued tool calls, in the order they began, once no block is open: a call
        that has ended stops and the next follows; one still going stays open (its later
        deltas go out live). At the finish every queued call goes out whole."""
        while self.queued and not self.open:
            index = next(iter(self.queued))
            queued = self.queued.pop(index)
            yield from self._begin(index, "tool_use", queued.start)
            block = self.open[index]
            for text in queued.deltas:
                block.arguments.append(text)
                delta = {"type": "input_json_delta", "partial_json": text}
                yield {"type": "content_block_delta", "index": block.wire_index, "delta": delta}
            if not (queued.ended or finishing):
                return
            self._check_arguments(index, queued.at)
            yield from self._stop(index, "tool_use")

    def _tool_open(self) -> bool:
        return any(block.kind == "tool_use" for block in self.open.values())

    def _bag(self, event: AnyStreamRecord, at: Steps) -> dict[str, Any]:
        return restore_fields(KIT.claim(self.losses, event.provider_metadata, at))

    def _part_event(self, event: PartLifecycleRecord) -> Iterator[dict[str, Any]]:
        at = ("content", event.index)
        match event:
            case TextStartRecord() | TextDeltaRecord() | TextEndRecord() | RefusalDeltaRecord() | PartRecord():
                yield from self._text_event(event, at)
            case ThinkingStartRecord() | ThinkingDeltaRecord() | ThinkingSignatureDeltaRecord() | ThinkingEndRecord():
                yield from self._thinking_event(event, at)
            case ToolCallStartRecord() | ToolCallDeltaRecord() | ToolCallEndRecord():
                yield from self._tool_event(event, at)
            case _:
                assert_never(event)

    def _text_event(
        self, event: TextStartRecord | TextDeltaRecord | TextEndRecord | RefusalDeltaRecord | PartRecord, at: Steps
    ) -> Iterator[dict[str, Any]]:
        match event:
            case TextStartRecord():
                if event.index in self.open or event.index in self.waiting:
                    raise StreamError(f"part {event.index} started again before it ended", "$.index", self.position)
                self.waiting[event.index] = {**self._bag(event, at), "type": "text", "text": ""}
            case TextDeltaRecord():
                if event.index in self.waiting:
                    if not event.delta:
                        return
                    yield from self._begin(event.index, "text", self.waiting.pop(event.index))
                yield from self._delta(event.index, "text", {"type": "text_delta", "text": event.delta})
            case TextEndRecord():
                yield from self._text_end(event, at)
            case RefusalDeltaRecord():
                yield from self._refusal(event, at)
            case PartRecord():
                yield from self._whole(event, at)
            case _:
                assert_never(event)

    def _thinking_event(
        self,
        event: ThinkingStartRecord | ThinkingDeltaRecord | ThinkingSignatureDeltaRecord | ThinkingEndRecord,
        at: Steps,
    ) -> Iterator[dict[str, Any]]:
        match event:
            case ThinkingStartRecord():
                block = {**self._bag(event, at), "type": "thinking", "thinking": "", "signature": ""}
                yield from self._begin(event.index, "thinking", block)
                ours = event.provider in (PROVIDER, None) or claude_signed(event.provider, event.model)
                self.open[event.index].foreign_signature = not ours
            case ThinkingDeltaRecord():
                yield from self._delta(event.index, "thinking", {"type": "thinking_delta", "thinking": event.delta})
            case ThinkingSignatureDeltaRecord():
                yield from self._signature(event, at)
            case ThinkingEndRecord():
                if event.encrypted is not None:
                    self.losses.add((*at, "encrypted"), "encrypted reasoning", "Anthropic has no such payload")
                self._bag(event, at)
                ending = self.open.get(event.index) or self.ended_early.get(event.index)
                if ending is not None and not ending.signed:
                    why = "Anthropic thinking blocks require one; none was given, sent ''"
                    self.losses.add((*at, "signature"), "thinking signature", why)
                yield from self._stop(event.index, "thinking")
            case _:
                assert_never(event)

    def _tool_event(
        self, event: ToolCallStartRecord | ToolCallDeltaRecord | ToolCallEndRecord, at: Steps
    ) -> Iterator[dict[str, Any]]:
        match event:
            case ToolCallStartRecord():
                signature, metadata = split_signature(event.provider_metadata)  # carried in the id
                sent = unique_call_id(sanitize_tool_use_id(event.id), event.id, self.context, at)
                bag = restore_fields(KIT.claim(self.losses, metadata, at))
                block = {**bag, "type": "tool_use", "id": signed_tool_use_id(sent, signature) if signature else sent}
                block.update(name=event.name, input={})
                if event.index in self.queued:
                    raise StreamError(f"part {event.index} started again before it ended", "$.index", self.position)
                yield from self._flush()
                if self._tool_open() or self.queued:
                    self.queued[event.index] = _Queued(block, at)
                    return
                yield from self._begin(event.index, "tool_use", block)
            case ToolCallDeltaRecord() if event.index in self.queued:
                self.queued[event.index].deltas.append(event.delta)
            case ToolCallEndRecord() if event.index in self.queued:
                self._bag(event, at)
                self.queued[event.index].ended = True
            case ToolCallDeltaRecord():
                yield from self._delta(
                    event.index, "tool_use", {"type": "input_json_delta", "partial_json": event.delta}
                )
                self.open[event.index].arguments.append(event.delta)
            case ToolCallEndRecord():
                self._bag(event, at)
                self._check_arguments(event.index, at)
                yield from self._stop(event.index, "tool_use")
                yield from self._flush()
            case _:
                assert_never(event)

    def _signature(self, event: ThinkingSignatureDeltaRecord, at: Steps) -> Iterator[dict[str, Any]]:
        """Only Anthropic's own signature goes out (as in a non-streamed response); the
        start block already says ``"signature": ""``, so empty deltas add nothing."""
        block = self.open.get(event.index)
        if not event.delta:
            if block is not None:
                block.signed = True
            return
        if block is None and event.index in self.ended_early:  # its block stopped when a later one began
            why = "it came after the next block began, and a stopped block takes no more"
            self.losses.add((*at, "signature"), "thinking signature", why)
            self.ended_early[event.index].signed = True
            return
        delta = next(self._delta(event.index, "thinking", {"type": "signature_delta", "signature": event.delta}))
        block = self.open[event.index]
        block.signed = True
        if not block.foreign_signature:
            yield delta
        elif not block.reported:
            block.reported = True
            self.losses.add((*at, "signature"), "signature of another provider", "meaningless to Anthropic clients")

    def _check_arguments(self, index: int, at: Steps) -> None:
        """Anthropic clients parse ``input_json_delta`` fragments into an object; what went
        out cannot be taken back, but a call whose text is not one is reported."""
        block = self.open.get(index)
        text = "".join(block.arguments) if block is not None else ""
        if not text.strip():
            return
        try:
            parsed: object = read_json_text(text)
        except json.JSONDecodeError:
            parsed = None
        if not isinstance(parsed, dict):
            self.losses.add(
                (*at, "arguments"), "tool arguments", "not a JSON object; Anthropic clients cannot parse it"
            )

    def _text_end(self, event: TextEndRecord, at: Steps) -> Iterator[dict[str, Any]]:
        """Citations known at the end go out as ``citations_delta`` events first."""
        bag = KIT.claim(self.losses, event.provider_metadata, at)
        citations = bag.get("citations")
        waiting = self.waiting.pop(event.index, None)
        if waiting is not None:
            if not (is_list(citations) and citations):
                return  # a text part that had no text: no block
            yield from self._begin(event.index, "text", waiting)
        if is_list(citations) and event.index in self.open:
            for citation in citations:
                yield from self._delta(event.index, "text", {"type": "citations_delta", "citation": citation})
        yield from self._stop(event.index, "text")

    def _refusal(self, event: RefusalDeltaRecord, at: Steps) -> Iterator[dict[str, Any]]:
        if event.index not in self.refusals:  # once per part, empty or not: the refusal is gone
            self.refusals.add(event.index)
            self.losses.add(at, "refusal part", REFUSAL_SENT_AS_TEXT)
        if not event.delta and event.index not in self.open:
            return  # no empty text block (as for text)
        if event.index not in self.open and event.index not in self.ended_early:
            yield from self._begin(event.index, "text", {"type": "text", "text": ""})
        yield from self._delta(event.index, "text", {"type": "text_delta", "text": event.delta})

    def _whole(self, event: PartRecord, at: Steps) -> Iterator[dict[str, Any]]:
        dumped = deepcopy(event.part)  # the record's part is shared: the writers get their own copy
        kind = dumped["type"]
        if kind not in RESPONSE_PARTS:
            self.losses.add(at, f"{kind} part", "an Anthropic response cannot contain it")
            return
        if empty_text(dumped):
            if kind == "refusal":
                self.losses.add(at, "refusal part", REFUSAL_SENT_AS_TEXT)
            return  # as encode_response: Anthropic sends no empty text block
        block = encode_part(dumped, self.context, at)
        if block is None:
            return
        self._bag(event, at)
        yield from self._begin(event.index, block["type"], block)
        yield from self._stop(event.index, block["type"])
