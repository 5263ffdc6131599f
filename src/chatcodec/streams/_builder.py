"""The one stream builder every provider's stream decoder drives.

A provider's ``StreamDecoder`` reads its wire events and tells the builder what they
mean, with cheap calls: a part opens, text arrives for it, it closes, the answer
finishes, usage is known. The builder does one of two things with that, chosen when it
is made:

- ``emit=True``: it turns each call into the canonical stream event, as a record
  (:mod:`chatcodec._model.stream_records`: the event model's fields without pydantic,
  checked here as the model checked them), for proxies, ``decode_stream`` and
  :class:`~chatcodec.Conversation` (which build the public models from them), handed over
  by :meth:`StreamBuilder.take_events`;
- ``emit=False``: it builds the :class:`~chatcodec.ChatResponse` directly, with no event
  model per delta. A part's text goes to a list (its :attr:`PartBuilder.append` *is* that
  list's ``append``) and is joined once at the end, so the work is linear in the stream,
  and the finished response is validated once.

Both modes are one code path for the decoder, so ``accumulate_stream`` gives what
``decode_stream`` followed by :class:`~chatcodec.StreamAccumulator` gives, which is this
builder fed the canonical events through :meth:`StreamBuilder.add`. In building mode the
builder also raises the accumulator's errors for out-of-order parts, naming the event by
its position in the canonical stream (counted without keeping the events).

This module is canonical: it imports no provider code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pydantic_core

from chatcodec._errors import ProviderAPIError, StreamError, as_chatcodec_error
from chatcodec._model.stream_record_checks import checked, checked_record, plain_usage
from chatcodec._model.stream_records import (
    AnyStreamRecord,
    ChoiceMetadataRecord,
    ErrorRecord,
    FinishRecord,
    PartRecord,
    RefusalDeltaRecord,
    ResponseStartRecord,
    TextDeltaRecord,
    TextStartRecord,
    ThinkingSignatureDeltaRecord,
    ThinkingStartRecord,
    ToolCallStartRecord,
    UsageRecord,
)
from chatcodec._public_label import shown_as
from chatcodec.streams._builder_records import (
    DELTA_RECORDS,
    START_RECORDS,
    Metadata,
    end_record,
    merge_metadata,
    model_data,
)
from chatcodec.streams._part_builder import FOLD_AT, PartBuilder

if TYPE_CHECKING:  # the models are built by an accumulation or at a public edge: a stream's records need none
    from chatcodec._model.content import ToolCallKind
    from chatcodec._model.response import ChatResponse
    from chatcodec._model.response_fields import FinishReason, Usage
    from chatcodec._model.stream_events import AnyStreamEvent, ErrorEvent, PartEvent

__all__ = ["COMPACT_EVERY", "Metadata", "PartBuilder", "StreamBuilder", "plain_counts"]

COMPACT_EVERY = 4096
"""Events between two :meth:`StreamBuilder.compact` calls."""


_USAGE_FIELDS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens")
_USAGE_FIELD_SET = frozenset(_USAGE_FIELDS)
_KIND_BY_EVENT = {
    "text_delta": "text",
    "thinking_delta": "thinking",
    "tool_call_delta": "tool_use",
    "text_end": "text",
    "thinking_end": "thinking",
    "tool_call_end": "tool_use",
}


class StreamBuilder:
    """Driven by a provider's stream decoder: emits canonical events or builds the response."""

    def __init__(self, *, emit: bool = False) -> None:
        self.emitting = emit
        """True when the calls become canonical events rather than a response."""
        self.errors: list[ErrorRecord] = []
        """Error events seen in the stream (as records)."""
        self.ended: bool = False
        """Whether the stream said it is over: its format's last event (:meth:`end`) or an error came."""
        self.missing_end: str | None = None
        """After :meth:`stream_closed`, what ends this format's stream when it never came;
        ``None`` if it ended, or if the decoder does not say (canonical events have no last event)."""
        self._events: list[AnyStreamRecord] = []
        self._response: dict[str, Any] = {}
        self._choices: dict[int, dict[int, PartBuilder]] = {}
        self._finish: dict[int, FinishReason | dict[str, Any]] = {}
        self._choice_bags: dict[int, dict[str, Any]] = {}  # choice -> {"provider_metadata": ...}
        self._logprobs: dict[int, list[Any]] = {}  # choice -> the tokens its text deltas carried
        self._finish_logprobs: dict[int, list[Any]] = {}  # choice -> the tokens its finish carried
        self._message_bags: dict[int, dict[str, Any]] = {}  # choice -> its message's, the same way
        self._usage: dict[str, Any] | None = None
        self._count = 0  # events other than deltas (a delta is counted by its fragment)
        self._growing_parts: list[PartBuilder] = []  # parts opened in building mode, for compact()
        self._deltas_added = 0  # delta events taken through add(), to compact now and then

    def compact(self) -> None:
        """Fold the fragments of the parts still growing (see :meth:`PartBuilder.fold`).

        Stream decoders call it every :data:`COMPACT_EVERY` events, and :meth:`add` every
        as many deltas, so memory follows the size of the answer, not the number of
        events; each fragment is copied once more, so the work stays linear."""
        growing = [part for part in self._growing_parts if not part.closed]
        for part in growing:
            if len(part.fragments) >= FOLD_AT:
                part.fold()
        self._growing_parts = growing

    def take_events(self) -> list[AnyStreamRecord]:
        """The events emitted since the last call, as records (always none in building mode)."""
        events, self._events = self._events, []
        return events

    # --- response-level ---------------------------------------------------------------------

    def start(
        self, *, id: str | None = None, model: str | None = None, created: int | None = None, metadata: Metadata = None
    ) -> None:
        """The response began, with what is known up front."""
        if self.emitting:
            record = ResponseStartRecord(id=id, model=model, created=created, provider_metadata=metadata)
            self._events.append(checked(record))
            return
        for key, value in (("id", id), ("model", model), ("created", created)):
            if value is not None:
                self._response[key] = value
        merge_metadata(self._response, metadata)
        self._count += 1

    def usage(self, usage: Usage | dict[str, Any], metadata: Metadata = None) -> None:
        """Token counts so far; later values replace earlier ones field by field.
        ``metadata`` is response-level data that came with them, merged into the response.

        ``usage`` may be canonical fields as a dict (what a decoder builds): in building
        mode counts that are plain non-negative ints are merged as they are, with no
        ``Usage`` model per event (the response is validated once at the end); anything
        else is validated as ``Usage`` here, where it arrived, so errors stay the same."""
        if self.emitting and isinstance(usage, dict):
            plain = plain_usage(usage)  # the model's dump, when the model would keep every value
            if plain is not None:
                self._events.append(checked(UsageRecord(usage=plain, provider_metadata=metadata)))
                return
        if isinstance(usage, dict) and plain_counts(usage):
            merge_metadata(self._response, metadata)
            merged = self._usage if self._usage is not None else {}
            self._usage = merged
            for key, value in usage.items():
                if value is not None:
                    merged[key] = value
            self._count += 1
            return
        from chatcodec._canonical_validation import validate_canonical  # imports pydantic: not for plain counts
        from chatcodec._model.response_fields import Usage

        model = usage if isinstance(usage, Usage) else validate_canonical(Usage, usage)
        if self.emitting:
            self._events.append(checked(UsageRecord(usage=model.model_dump(), provider_metadata=metadata)))
            return
        merge_metadata(self._response, metadata)
        if self._usage is None:
            self._usage = {}
        for key in _USAGE_FIELDS:
            value = getattr(model, key)
            if value is not None:
                self._usage[key] = value
        merge_metadata(self._usage, model.provider_metadata)
        self._count += 1

    def finish(
        self,
        choice: int,
        finish_reason: FinishReason | dict[str, Any],
        metadata: Metadata = None,
        *,
        choice_metadata: Metadata = None,
        logprobs: list[Any] | None = None,
    ) -> None:
        """Answer ``choice`` ended, and why; ``metadata`` belongs to the response,
        ``choice_metadata`` and ``logprobs`` to the choice (see :class:`~chatcodec.FinishEvent`)."""
        if self.emitting:
            reason = finish_reason if isinstance(finish_reason, dict) else finish_reason.model_dump()
            record = FinishRecord(
                choice=choice,
                finish_reason=reason,
                logprobs=logprobs,
                choice_metadata=choice_metadata,
                provider_metadata=metadata,
            )
            self._events.append(checked(record))
            return
        if choice < 0:  # refused as the finish event would refuse it
            reason = finish_reason if isinstance(finish_reason, dict) else finish_reason.model_dump()
            checked(FinishRecord(choice=choice, finish_reason=reason))
        self._finish[choice] = finish_reason
        merge_metadata(self._response, metadata)
        if logprobs is not None:  # the choice's canonical field, after its deltas' tokens
            self._finish_logprobs[choice] = logprobs
        if choice_metadata is not None:
            merge_metadata(self._choice_bags.setdefault(choice, {}), choice_metadata)
        self._count += 1

    def choice_data(
        self,
        choice: int,
        choice_metadata: Metadata = None,
        message_metadata: Metadata = None,
        metadata: Metadata = None,
    ) -> None:
        """Data of answer ``choice`` that needs no finish: its own bag and its message's
        (see :class:`~chatcodec.ChoiceMetadataEvent`); ``metadata`` belongs to the response."""
        if self.emitting:
            record = ChoiceMetadataRecord(
                choice=choice,
                choice_metadata=choice_metadata,
                message_metadata=message_metadata,
                provider_metadata=metadata,
            )
            self._events.append(checked(record))
            return
        if choice < 0:  # refused as the event would refuse it
            checked(ChoiceMetadataRecord(choice=choice))
        merge_metadata(self._response, metadata)
        merge_metadata(self._choice_bags.setdefault(choice, {}), choice_metadata)
        merge_metadata(self._message_bags.setdefault(choice, {}), message_metadata)
        self._count += 1

    def end(self) -> None:
        """The stream's own last event came (``message_stop``, ``response.completed``,
        ``done: true`` ...); no canonical event stands for it: entry points read :attr:`ended`."""
        self.ended = True

    def stream_closed(self, awaited: str) -> None:
        """The wire stream is over; ``awaited`` names what ends this format's stream, kept
        as :attr:`missing_end` if it never came (a cut between two events: docs/streams.md)."""
        if not self.ended:
            self.missing_end = awaited

    def refuse_cut(self, source: str) -> None:
        """Raise the :class:`~chatcodec.StreamError` of a ``source`` stream closed without
        its last event (:attr:`missing_end`); nothing for one that ended."""
        if self.missing_end is not None:
            message = f"the {source} stream ended without {self.missing_end}: it was cut off"
            raise StreamError(f"{message} (partial=True reads what arrived)")

    def error(self, event: ErrorRecord | ErrorEvent) -> None:
        """The provider reported an error inside the stream (which ends it); ``event`` is a
        record (checked here) or, from a codec written against contract version 1, the model."""
        record = checked_record(event)  # refused before the stream counts as ended, as the model was
        assert isinstance(record, ErrorRecord)
        self.ended = True
        if self.emitting:
            self._events.append(record)
            return
        self.errors.append(record)
        self._count += 1

    # --- parts -----------------------------------------------------------------------------

    def open_text(self, choice: int, index: int, metadata: Metadata = None) -> PartBuilder:
        """A text part begins."""
        if self.emitting:
            self._events.append(checked(TextStartRecord(index=index, choice=choice, provider_metadata=metadata)))
            return self._emitter("text", choice, index)
        return self._open("text", choice, index, {}, metadata)

    def open_thinking(
        self,
        choice: int,
        index: int,
        *,
        provider: str | None = None,
        model: str | None = None,
        metadata: Metadata = None,
    ) -> PartBuilder:
        """A thinking part begins."""
        if self.emitting:
            record = ThinkingStartRecord(
                index=index, choice=choice, provider=provider, model=model, provider_metadata=metadata
            )
            self._events.append(checked(record))
            return self._emitter("thinking", choice, index)
        fields = {key: value for key, value in (("provider", provider), ("model", model)) if value is not None}
        return self._open("thinking", choice, index, fields, metadata)

    def open_tool_call(
        self,
        choice: int,
        index: int,
        *,
        id: str,
        name: str,
        metadata: Metadata = None,
        kind: ToolCallKind = "function",
    ) -> PartBuilder:
        """A tool call begins; its id and name are known (``kind``: ``custom`` for a
        freeform call, whose deltas are free text)."""
        if self.emitting:
            record = ToolCallStartRecord(
                index=index, choice=choice, id=id, name=name, provider_metadata=metadata, kind=kind
            )
            self._events.append(checked(record))
            return self._emitter("tool_use", choice, index)
        fields: dict[str, Any] = (
            {"id": id, "name": name} if kind == "function" else {"id": id, "name": name, "kind": kind}
        )
        return self._open("tool_use", choice, index, fields, metadata)

    def open_refusal(self, choice: int, index: int) -> PartBuilder:
        """A refusal part: it has no start event, its first delta starts it."""
        if self.emitting:
            return self._emitter("refusal", choice, index)
        if choice < 0 or index < 0:  # refused as its first delta event would refuse it
            checked(RefusalDeltaRecord(index=index, choice=choice, delta=""))
        parts = self._choices.setdefault(choice, {})
        builder = parts.get(index)
        if builder is None:
            builder = parts[index] = PartBuilder("refusal", choice, index, {})
            self._growing_parts.append(builder)
        return builder

    def delta(self, part: PartBuilder, text: str, metadata: Metadata, *, logprobs: list[Any] | None = None) -> None:
        """A delta that carries provider metadata (kept on the event; a response has no
        place for it, as the accumulator never had) or, for text, its tokens' log
        probabilities (the choice's ``logprobs`` gather them in order)."""
        if self.emitting:
            if logprobs is not None and part.kind == "text":
                record = TextDeltaRecord(
                    index=part.index, choice=part.choice, delta=text, logprobs=logprobs, provider_metadata=metadata
                )
                self._events.append(checked(record))
                return
            record_class = DELTA_RECORDS[part.kind]
            self._events.append(
                checked(record_class(index=part.index, choice=part.choice, delta=text, provider_metadata=metadata))
            )
        else:
            part.fragments.append(text)
            if logprobs is not None and part.kind == "text":
                self._logprobs.setdefault(part.choice, []).extend(logprobs)

    def signature(self, part: PartBuilder, text: str, metadata: Metadata = None) -> None:
        """More of a thinking part's signature."""
        if self.emitting:
            record = ThinkingSignatureDeltaRecord(
                index=part.index, choice=part.choice, delta=text, provider_metadata=metadata
            )
            self._events.append(checked(record))
        elif part.signature is None:
            part.signature = [text]
        else:
            part.signature.append(text)

    def close(
        self,
        part: PartBuilder,
        *,
        encrypted: str | None = None,
        metadata: Metadata = None,
        citations: list[dict[str, Any]] | None = None,
    ) -> None:
        """The part is complete (``encrypted``: opaque reasoning delivered at the end;
        ``citations``: a text's, known once it is)."""
        if self.emitting:
            self._events.append(checked(end_record(part, encrypted, metadata, citations)))
            return
        if encrypted is not None:
            part.fields["encrypted"] = encrypted
        if citations:
            part.fields["citations"] = citations
        part.fold()  # the part is complete: one string from now on
        part.closed = True
        merge_metadata(part.fields, metadata)
        self._count += 1

    def whole(self, event: PartRecord | PartEvent) -> None:
        """A part that arrives whole (image, redacted thinking, server-tool block ...): a
        record (its part checked here, by its model) or, from a codec written against
        contract version 1, the model."""
        record = checked_record(event)
        assert isinstance(record, PartRecord)
        if self.emitting:
            self._events.append(record)
            return
        parts = self._choices.setdefault(record.choice, {})
        if record.index in parts:
            raise self._error(f"part {record.index} of choice {record.choice} was already started")
        whole = dict(record.part)
        merge_metadata(whole, record.provider_metadata)
        builder = parts[record.index] = PartBuilder(whole["type"], record.choice, record.index, {})
        builder.closed = True
        builder.whole = whole
        self._count += 1

    # --- canonical events in (StreamAccumulator, the canonical codec) ------------------------

    def add(self, event: AnyStreamRecord | AnyStreamEvent) -> None:
        """Take one canonical event, a record or a public model, checking its order as an
        accumulator must (told apart by ``type``: both have the same fields, a model's
        nested values being models where a record's are canonical data)."""
        if self.emitting:
            self._events.append(checked_record(event))  # a decoder's record checked, as its model was
            return
        given: Any = event
        match given.type:
            case "response_start":
                self.start(id=given.id, model=given.model, created=given.created, metadata=given.provider_metadata)
            case "usage":
                self.usage(given.usage, given.provider_metadata)
            case "finish":
                choice, reason, logprobs = given.choice, given.finish_reason, model_data(given.logprobs)
                self.finish(
                    choice, reason, given.provider_metadata, choice_metadata=given.choice_metadata, logprobs=logprobs
                )
            case "choice_metadata":
                self.choice_data(given.choice, given.choice_metadata, given.message_metadata, given.provider_metadata)
            case "error":
                self.error(given)
            case _:
                self._add_part_event(given)

    def _add_part_event(self, event: Any) -> None:
        kind = event.type
        match kind:
            case "text_start":
                self.open_text(event.choice, event.index, event.provider_metadata)
            case "thinking_start":
                self.open_thinking(
                    event.choice,
                    event.index,
                    provider=event.provider,
                    model=event.model,
                    metadata=event.provider_metadata,
                )
            case "tool_call_start":
                self.open_tool_call(
                    event.choice,
                    event.index,
                    id=event.id,
                    name=event.name,
                    metadata=event.provider_metadata,
                    kind=event.kind,
                )
            case "text_delta" | "thinking_delta" | "tool_call_delta":
                self._growing(event, _KIND_BY_EVENT[kind]).fragments.append(event.delta)
                if kind == "text_delta" and event.logprobs is not None:
                    tokens = model_data(event.logprobs, mode="json") or ()
                    self._logprobs.setdefault(event.choice, []).extend(tokens)
                self._deltas_added += 1
                if not self._deltas_added % COMPACT_EVERY:
                    self.compact()
            case "thinking_signature_delta":
                self.signature(self._growing(event, "thinking"), event.delta)
            case "refusal_delta":
                builder = self._choices.get(event.choice, {}).get(event.index)
                if builder is not None and builder.kind != "refusal":
                    raise self._error(f"refusal_delta for part {event.index}, which is a {builder.kind} part")
                self.open_refusal(event.choice, event.index).fragments.append(event.delta)
            case "text_end" | "tool_call_end" | "thinking_end":
                encrypted = event.encrypted if kind == "thinking_end" else None
                part = self._growing(event, _KIND_BY_EVENT[kind])
                cited = model_data(event.citations) if kind == "text_end" else None
                self.close(part, encrypted=encrypted, metadata=event.provider_metadata, citations=cited)
            case "part":
                self.whole(event)
            case _:
                raise StreamError(f"unknown stream event type {kind!r}")

    # --- the result ----------------------------------------------------------------------

    def response(self, *, allow_errors: bool = False, provider: str | None = None) -> ChatResponse:
        """The response so far, validated.

        Parts never closed are included as they stand (an interrupted stream keeps what
        arrived). An error event in the stream raises :class:`~chatcodec.ProviderAPIError`
        unless ``allow_errors`` is true, naming ``provider``, the codec whose stream it
        was when known (its error types are read in that codec's namespace).
        """
        if self.errors and not allow_errors:
            first = self.errors[0]
            raise ProviderAPIError(first.message, first.error_type, first.body, provider=provider)
        choices: list[dict[str, Any]] = []
        chosen = self._choices.keys() | self._finish.keys() | self._choice_bags.keys() | self._finish_logprobs.keys()
        for choice_index in sorted(chosen | self._logprobs.keys() or {0}):
            builders = self._choices.get(choice_index, {})
            content = [builders[index].build() for index in sorted(builders)]
            message = {"role": "assistant", "content": content, **self._message_bags.get(choice_index, {})}
            choice: dict[str, Any] = {"index": choice_index, "message": message}
            if choice_index in self._finish:
                choice["finish_reason"] = self._finish[choice_index]
            choice.update(self._choice_bags.get(choice_index, {}))
            streamed, last = self._logprobs.get(choice_index), self._finish_logprobs.get(choice_index)
            if streamed is not None or last is not None:  # the deltas' tokens, then the finish's
                choice["logprobs"] = [*(streamed or ()), *(last or ())]
            choices.append(choice)
        payload: dict[str, Any] = {**self._response, "choices": choices}
        if self._usage is not None:
            payload["usage"] = self._usage
        return _validated_response(payload)

    def part_so_far(self, choice: int, index: int) -> dict[str, Any]:
        """The part at ``index`` of ``choice`` as built so far (canonical JSON)."""
        builder = self._choices.get(choice, {}).get(index)
        if builder is None:
            raise StreamError(f"part {index} of choice {choice} was never started")
        return builder.build()

    # --- helpers ---------------------------------------------------------------------------

    def _open(self, kind: str, choice: int, index: int, fields: dict[str, Any], metadata: Metadata) -> PartBuilder:
        if choice < 0 or index < 0:  # refused as the start event would refuse it
            checked(START_RECORDS[kind](index, choice))
        parts = self._choices.setdefault(choice, {})
        if index in parts:
            raise self._error(f"part {index} of choice {choice} was already started")
        builder = parts[index] = PartBuilder(kind, choice, index, fields)
        merge_metadata(fields, metadata)
        self._count += 1
        self._growing_parts.append(builder)
        return builder

    def _emitter(self, kind: str, choice: int, index: int) -> PartBuilder:
        """A part whose ``append`` emits its delta event (nothing is kept)."""
        part = PartBuilder(kind, choice, index, {})
        record_class = DELTA_RECORDS[kind]
        plain = type(index) is int and index >= 0 and type(choice) is int and choice >= 0

        def emit(text: str) -> None:
            record = record_class(index=index, choice=choice, delta=text)
            self._events.append(record if plain and type(text) is str else checked(record))

        part.append = emit
        return part

    def _growing(self, event: Any, kind: str) -> PartBuilder:
        builder = self._choices.get(event.choice, {}).get(event.index)
        if builder is None:
            raise self._error(f"{event.type} for part {event.index}, which was never started")
        if builder.kind != kind:
            raise self._error(f"{event.type} for part {event.index}, which is a {builder.kind} part")
        if builder.closed:
            raise self._error(f"{event.type} for part {event.index}, which has already ended")
        return builder

    def built_nothing(self) -> bool:
        """Whether no call has reached this builder yet (in building mode; an emitting
        builder's events are counted by whoever takes them)."""
        return self._events_so_far() == 0 and not self._events

    def _events_so_far(self) -> int:
        """How many canonical events the calls so far stand for: the others counted as
        they came, each delta as the fragment it left."""
        deltas = sum(part.deltas() for parts in self._choices.values() for part in parts.values())
        return self._count + deltas

    def _error(self, message: str) -> StreamError:
        return StreamError(message, path="$.index", event_index=self._events_so_far())


def _validated_response(payload: dict[str, Any]) -> ChatResponse:
    """``validate_canonical(ChatResponse, payload)``, validated once: ``model_validate``
    goes through ``ChatResponse``'s own ``__init__`` (its ``message=`` shorthand), which
    validates again inside with the after-validator run twice; canonical data needs no
    shorthand (:func:`chatcodec._model.response.validate_response`). Same result, same errors."""
    from chatcodec._model.response import ChatResponse, validate_response

    try:
        return validate_response(payload)
    except pydantic_core.ValidationError as error:
        raise as_chatcodec_error(error, ChatResponse.__name__, payload) from None


def plain_counts(usage: dict[str, Any]) -> bool:
    """Whether canonical usage fields are counts ``Usage`` would keep as they are: known
    count fields only, each ``None`` or a non-negative ``int`` (no bag, no ``3.0``)."""
    if not usage.keys() <= _USAGE_FIELD_SET:
        return False
    return all(value is None or (value.__class__ is int and value >= 0) for value in usage.values())


shown_as("chatcodec.contract", StreamBuilder)
shown_as("chatcodec.codec_kit", plain_counts)
