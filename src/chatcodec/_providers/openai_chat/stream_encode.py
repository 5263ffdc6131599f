"""Canonical stream events to ``chat.completion.chunk`` dicts (:class:`StreamEncoder`), so a
proxy can serve the OpenAI streaming API from any upstream (the SSE text is the edge's
framing: ``chatcodec.to_sse``).

One chunk per event that carries data, built on the fields of the
:class:`~chatcodec.ResponseStartRecord` (placeholders when the upstream gave none, as the
SDK requires ``id``, ``created`` and ``model`` on every chunk). A choice's first chunk
says ``role: assistant``. A text part announces itself with ``content: ""`` (as OpenAI's
first chunk does): an empty text part survives the trip. Tool calls are numbered per choice
as they start. A text delta's tokens are its chunk's ``logprobs``, a finish's its chunk's.

Reasoning goes to the field its start event names (or, for a part whose field is only
known at its end, it is held back until that end; :mod:`.stream_thinking` makes its
deltas). Reasoning from another provider follows the ``reasoning_field`` option (given by
argument; the old ``_reasoning_field`` on the start event's metadata is read with a
``DeprecationWarning``), by default ``reasoning_content``; set to ``None`` it is dropped
with a loss. Several text parts of one choice run together
(a loss). Lists in a delta are numbered by :mod:`.stream_indexes`. Usage is one chunk, the
last, with ``choices: []``: what OpenAI sends when the request asked for
``stream_options.include_usage``. Other providers report usage early (Anthropic's
``message_start``), and a client's ``chunk.choices[0]`` loop fails on a usage chunk it did
not ask for, so usage events are merged and held to the end. The
``include_usage`` option (the context's option; a start event's old ``_include_usage``
spelling is read with a ``DeprecationWarning``) says whether that chunk is sent: a proxy
passes the client's ``stream_options.include_usage``; with no option the chunk is sent
when the stream had usage. ``created`` is the current time when the upstream gave none.
Each placeholder is reported once (:mod:`chatcodec._providers.kit.invented`): at the start
event's field, or at ``$.id`` for a stream with no start event, when it closes.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from copy import deepcopy
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, assert_never, cast

from chatcodec._providers.openai_chat import citations, logprobs, reasoning, stream_thinking, thought_signatures
from chatcodec._providers.openai_chat.finish_reason import encode_finish_reason
from chatcodec._providers.openai_chat.markers import KIT, OPTIONS, PROVIDER
from chatcodec._providers.openai_chat.null_spelling import message_fields
from chatcodec._providers.openai_chat.stream_keys import CHUNK_OBJECT, DELTA_KEYS
from chatcodec._providers.openai_chat.usage import encode_usage, merged_usage
from chatcodec.codec_kit import (
    INVENTED_TIME,
    absent_keys,
    as_dict,
    is_marker,
    read_options,
    report_after_error,
    report_invented,
    wire_fields,
    wire_key,
)
from chatcodec.contract import (
    AnyStreamRecord,
    ChoiceMetadataRecord,
    EncodeContext,
    ErrorRecord,
    FinishRecord,
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

if TYPE_CHECKING:
    from chatcodec import OpaquePart, RefusalPart, TextPart, ToolUsePart

_PLACEHOLDERS: tuple[tuple[str, object], ...] = (("id", ""), ("created", 0), ("model", ""))
_OWNER = "an OpenAI ChatCompletionChunk"


def _error_object(event: ErrorRecord) -> dict[str, Any]:
    """OpenAI's error object for a mid-stream error: the upstream's own when it is one
    (``{"message": ..., "type": ...}``), else built from the message and type, so the SDK
    shows the message rather than another provider's body nested inside."""
    body = as_dict(event.body)
    if body is not None and isinstance(body.get("message"), str) and body.get("type") != "error":
        return dict(body)
    return {"message": event.message, "type": event.error_type or "server_error", "param": None, "code": None}


def _no_indexes() -> set[int]:
    """An empty set of part indexes, typed: a factory ``set[int]`` calls a generic alias, which raises
    and clears an ``AttributeError`` inside."""
    return set()


@dataclass
class _ChoiceState:
    role_sent: bool = False
    text_parts: int = 0
    text_length: int = 0  # the code points of content text written so far
    text_offset: int = 0  # where the open text part began in the content (its citations count from there)
    cited: bool = False  # annotations of its texts wait in ``message`` (later texts' join them)
    calls: dict[int, int] = field(default_factory=lambda: {})  # part index -> wire tool index
    custom: set[int] = field(default_factory=_no_indexes)  # the part indexes of custom calls
    thinking: dict[int, stream_thinking.ThinkingRoute] = field(default_factory=lambda: {})
    details: int = 0  # the next reasoning_details index
    blocks: int = 0  # the next thinking_blocks index
    contents: int = 0  # the next index of a content list entry (a Mistral thinking part)
    logprobs: dict[str, Any] | None = None  # what the delta chunks carried, joined
    held: dict[str, Any] = field(default_factory=lambda: {})  # the choice's own bag, for its finish
    message: dict[str, Any] = field(default_factory=lambda: {})  # its message's bag, for its finish
    held_at: Steps | None = None  # the event that brought them, for a loss if no finish comes
    finished: bool = False


class StreamEncoder:
    """Turns canonical events into wire chunks, one event at a time."""

    stream_contract: ClassVar[int] = 2
    """It reads records (:mod:`chatcodec.contract`'s ``...Record`` classes), not the public models."""

    def __init__(self, context: EncodeContext) -> None:
        self._context = context
        self._losses = context.losses
        self._base: dict[str, Any] = {"id": "", "object": CHUNK_OBJECT, "created": int(time.time()), "model": ""}
        self._option: str | None = reasoning.output_option(context, ("options", reasoning.PUBLIC_OPTION))
        include_usage = context.option("include_usage")
        self._include_usage: bool | None = None if include_usage is None else bool(include_usage)
        self._started = False  # a start event came (an answer, even one that says nothing)
        self._written = False  # a chunk was written
        self._usage: UsageRecord | None = None  # merged, sent once at the end
        self._usage_at: Steps = ()
        self._choices: dict[int, _ChoiceState] = {}
        self._number = -1
        self.failed: bool = False
        """An error was written: the stream ends there (:mod:`~chatcodec._providers.kit.stream_errors`)."""
        self.dropped: bool = False  # an event came after it, left out

    def feed(self, event: AnyStreamRecord) -> Iterator[dict[str, Any]]:
        """The chunks for one event (often none or one). A text or tool-call delta, nearly
        every event, goes straight to where :meth:`_part_event` would send it."""
        self._number += 1
        if self.failed:
            self.dropped = True
            return iter(())
        kind = type(event)
        if kind is TextDeltaRecord:
            return iter((self._text_delta(cast("TextDeltaRecord", event)),))
        if kind is ToolCallDeltaRecord:
            return iter(self._call_delta(cast("ToolCallDeltaRecord", event), (self._number,)))
        return iter(self._event(event, self._number))

    def _event(self, event: AnyStreamRecord, number: int) -> list[dict[str, Any]]:
        at = (number,)
        match event:
            case ResponseStartRecord():
                self._start(event, at)
                return []
            case UsageRecord():
                self._hold_usage(event, at)
                return []
            case FinishRecord():
                return [self._finish(event, at)]
            case ChoiceMetadataRecord():
                self._choice_data(event, at)
                return []
            case ErrorRecord():
                self.failed = True
                return [{"error": _error_object(event)}]
            case _:
                return self._part_event(event, at)

    def _start(self, event: ResponseStartRecord, at: Steps) -> None:
        self._started = True
        KIT.report_foreign(self._losses, event.provider_metadata, at)
        bag = KIT.own(event.provider_metadata)
        # the context's options, over those a start event's bag still spells the old way (warned)
        options = {**self._context.options, **read_options(PROVIDER, bag, OPTIONS, "provider_metadata")}
        self._context = replace(self._context, options=options)
        self._option = reasoning.output_option(self._context, ("options", reasoning.PUBLIC_OPTION))
        include_usage = self._context.option("include_usage")
        self._include_usage = None if include_usage is None else bool(include_usage)
        left_out = absent_keys(bag)
        base = {**message_fields(bag), "object": bag.get("object", CHUNK_OBJECT)}  # spelled nulls too
        for key, default in _PLACEHOLDERS:
            value = getattr(event, key)
            if value is not None:
                base[key] = value
            elif key not in left_out:
                base[key] = int(time.time()) if key == "created" else default
                report_invented(self._losses, (*at, key), key, _OWNER, INVENTED_TIME if key == "created" else default)
        if "object" in left_out:
            del base["object"]
        self._base = base

    # --- chunk building ----------------------------------------------------------------

    def _chunk(
        self, choices: list[dict[str, Any]], event: AnyStreamRecord | None = None, **fields: Any
    ) -> dict[str, Any]:
        self._written = True
        chunk = {**self._base, "choices": choices, **fields}
        late = as_dict(KIT.own(event.provider_metadata).get("_chunk")) if event is not None else None
        if late is not None:
            chunk.update(late)
        return chunk

    def _delta(self, choice: int, delta: dict[str, Any], carrier: AnyStreamRecord | None = None) -> dict[str, Any]:
        """A chunk with one choice's delta; a delta event ``carrier`` brings its chunk's extras."""
        state = self._state(choice)
        if not state.role_sent:
            delta = {"role": "assistant", **delta}
            state.role_sent = True
        metadata = carrier.provider_metadata if carrier is not None else None
        tokens = carrier.logprobs if isinstance(carrier, TextDeltaRecord) else None
        if not metadata and tokens is None:  # nearly every delta: nothing to merge
            return {**self._base, "choices": [{"index": choice, "delta": delta, "finish_reason": None}]}
        extras = wire_fields(KIT.own(metadata))
        if "logprobs" in extras:
            state.logprobs = logprobs.join_logprobs(state.logprobs, extras["logprobs"])
        if tokens is not None:  # the text's own tokens, on its chunk as OpenAI streams them
            extras["logprobs"] = logprobs.write_choice_logprobs(tokens, KIT.own(metadata))
        delta_extras = extras.pop("delta", None)
        if isinstance(delta_extras, dict):
            delta = {**delta, **delta_extras}
        return self._chunk([{**extras, "index": choice, "delta": delta, "finish_reason": None}])

    def _state(self, choice: int) -> _ChoiceState:
        state = self._choices.get(choice)
        if state is None:  # not setdefault: building a state to throw away cost more than the delta
            state = self._choices[choice] = _ChoiceState()
        return state

    def _finish(self, event: FinishRecord, at: Steps) -> dict[str, Any]:
        """The finish chunk: the choice's bag (``choice_metadata``, over what a :class:`ChoiceMetadataRecord`
        brought) and ``logprobs`` give its fields and the finish word's spelling, the message's bag the
        fields of its ``delta`` (where a body has them on the message: ``annotations`` ...); the event's
        own bag only the chunk's late fields."""
        KIT.report_foreign(self._losses, event.provider_metadata, (*at, "provider_metadata"))
        state = self._state(event.choice)
        bag = {**state.held, **KIT.claim(self._losses, event.choice_metadata, (*at, "choice_metadata"))}
        word = encode_finish_reason(dict(event.finish_reason), bag, self._context, (*at, "finish_reason"))
        if event.logprobs is not None:  # the choice's canonical tokens, as a body's choice spells them
            bag = logprobs.place_choice_logprobs(bag, event.logprobs, self._losses, (*at, "choice_metadata"), bag)
        if bag.get("logprobs") is not None and bag["logprobs"] == state.logprobs:
            del bag["logprobs"]  # the answer's logprobs, already sent chunk by chunk
        delta = self._message_fields(state.message, at)
        state.held, state.message, state.held_at, state.finished, state.cited = {}, {}, None, True, False
        choice: dict[str, Any] = {**message_fields(bag), "index": event.choice, "delta": delta, "finish_reason": word}
        return self._chunk([choice], event)

    def _message_fields(self, bag: dict[str, Any], at: Steps) -> dict[str, Any]:
        """The message bag's fields for the finish chunk's ``delta``. A field the decoder
        reads as content (``content``, ``tool_calls`` ...) would add to the answer there,
        so one that is not ``null`` or ``[]`` (which a decoder keeps as spelling) is a loss, as
        the message's own value wins over it in ``encode_response``."""
        fields = message_fields(bag)
        clashing = sorted(key for key in DELTA_KEYS if fields.get(key) not in (None, []))  # [] adds nothing
        if clashing:
            why = "in a stream's delta it would add to the answer"
            self._losses.add((*at, "message_metadata"), f"{PROVIDER} data {clashing}", why)
        return {key: value for key, value in fields.items() if key not in clashing}

    def _choice_data(self, event: ChoiceMetadataRecord, at: Steps) -> None:
        """The choice's and its message's bags wait for the choice's finish chunk: an OpenAI
        stream gives a choice's own fields with its ``finish_reason`` (the decoder reads
        them there), so data that comes after the finish, or with none, is a loss."""
        why = "an OpenAI stream gives a choice's own fields with its finish_reason"
        KIT.report_unplaced(self._losses, event.provider_metadata, (*at, "provider_metadata"), why)
        state = self._state(event.choice)
        bags = (
            ("choice_metadata", event.choice_metadata, state.held),
            ("message_metadata", event.message_metadata, state.message),
        )
        for name, metadata, held in bags:
            if state.finished:
                KIT.report_unplaced(self._losses, metadata, (*at, name), f"{why}, which came before")
            else:
                held.update(KIT.claim(self._losses, metadata, (*at, name)))
        state.held_at = at

    def close(self) -> Iterator[dict[str, Any]]:
        """The usage chunk (see the module docstring); report the choice data no finish
        came for (see :meth:`_choice_data`); nothing after an error."""
        if self.failed:
            if self.dropped:
                report_after_error(self._losses, "OpenAI Chat")
            return iter(())
        for state in self._choices.values():
            held = {key: value for key, value in {**state.held, **state.message}.items() if not is_marker(key)}
            if held and state.held_at is not None:
                why = "an OpenAI stream gives a choice's own fields with its finish_reason, and none came"
                self._losses.add(state.held_at, f"{PROVIDER} data {sorted(map(wire_key, held))}", why)
        if not self._started and (self._choices or self._written or self._usage is not None):
            for key, default in _PLACEHOLDERS:  # no start event: every chunk had the placeholders
                report_invented(self._losses, (key,), key, _OWNER, INVENTED_TIME if key == "created" else default)
        # a started answer that said nothing is still one chunk: a stream of none is no answer
        said = [self._delta(0, {})] if self._started and not self._written and self._usage is None else []
        if self._usage is None or self._include_usage is False:
            return iter(said)
        usage = encode_usage(deepcopy(self._usage.usage), self._context, (*self._usage_at, "usage"))
        return iter((*said, self._chunk([], self._usage, usage=usage)))

    def _hold_usage(self, event: UsageRecord, at: Steps) -> None:
        """Merge ``event`` into the usage held for the end (later counts replace earlier
        ones field by field, as :class:`~chatcodec.UsageRecord` says)."""
        if self._usage is not None:
            event = event.replaced(usage=merged_usage(self._usage.usage, event.usage))
        self._usage, self._usage_at = event, at

    # --- parts -------------------------------------------------------------------------

    def _part_event(self, event: AnyStreamRecord, at: Steps) -> list[dict[str, Any]]:
        match event:
            case TextStartRecord():
                return self._text_start(event, at)
            case TextDeltaRecord():
                return [self._text_delta(event)]
            case RefusalDeltaRecord():
                return [self._delta(event.choice, {"refusal": event.delta}, event)]
            case ToolCallStartRecord():
                return [self._call_start(event, at)]
            case ToolCallDeltaRecord():
                return self._call_delta(event, at)
            case ThinkingStartRecord():
                stream_thinking.start(self._state(event.choice), event, self._option, self._losses, at)
                return []
            case ThinkingDeltaRecord() | ThinkingSignatureDeltaRecord():
                return self._thinking_delta(event, at)
            case ThinkingEndRecord():
                return self._thinking_end(event, at)
            case TextEndRecord() | ToolCallEndRecord():
                self._end_metadata_loss(event, at)
                return []
            case PartRecord():
                return self._whole(event, at)
            case ResponseStartRecord() | UsageRecord() | FinishRecord() | ChoiceMetadataRecord() | ErrorRecord():
                return []  # handled in event()
            case _:
                assert_never(event)

    def _text_delta(self, event: TextDeltaRecord) -> dict[str, Any]:
        """A text's fragment, its characters counted: a later text's citations count from
        where it begins in the one content string."""
        chunk = self._delta(event.choice, {"content": event.delta}, event)
        self._choices[event.choice].text_length += len(event.delta)  # the state _delta made
        return chunk

    def _text_start(self, event: TextStartRecord, at: Steps) -> list[dict[str, Any]]:
        state = self._state(event.choice)
        state.text_parts += 1
        state.text_offset = state.text_length
        if state.text_parts == 2:
            why = "an OpenAI stream has one content text per choice"
            self._losses.add(at, "second text part of a choice (runs into the first)", why)
        return [self._delta(event.choice, {"content": ""})]

    def _text_citations(self, choice: int, cited: list[Any], metadata: Mapping[str, Any] | None, at: Steps) -> None:
        """A text's citations, for the finish chunk's ``delta.annotations`` (where OpenAI streams
        them, and the decoder reads them): a choice's texts run into one content string, so a
        later text's citations move by the characters written before it (code points, as
        OpenAI counts them; :func:`.citations.write_annotations`) and join the earlier ones.
        Annotations the message's bag already holds (another stream's) are not joined: reported."""
        state = self._state(choice)
        if state.message.get("annotations") is not None and not state.cited:
            why = "an OpenAI stream cites into one content text per choice"
            self._losses.add((*at, "citations"), "url citations", why)
            return
        part = {"type": "text", "text": "", "citations": cited, "provider_metadata": metadata}
        written = citations.write_annotations([part], {}, self._losses, at, start=state.text_offset) or []
        state.message["annotations"] = [*(state.message.get("annotations") or ()), *written]
        state.cited = True

    def _end_metadata_loss(self, event: TextEndRecord | ToolCallEndRecord, at: Steps) -> None:
        if isinstance(event, TextEndRecord) and event.citations:
            self._text_citations(event.choice, deepcopy(event.citations), event.provider_metadata, at)
        KIT.report_foreign(self._losses, event.provider_metadata, at)
        kept = wire_fields(KIT.own(event.provider_metadata))
        if kept:
            why = "an OpenAI stream sends a part's fields with its first chunk"
            self._losses.add((*at, "provider_metadata"), f"{PROVIDER} data {sorted(kept)} at a part's end", why)

    def _call_start(self, event: ToolCallStartRecord, at: Steps) -> dict[str, Any]:
        """The call's first fragment; a Gemini thought signature goes in its
        ``extra_content``, as a response's call writes it (:mod:`.thought_signatures`)."""
        signature, foreign = thought_signatures.split_signature(event.provider_metadata)
        KIT.report_foreign(self._losses, foreign, at)
        if not event.name.strip():  # as encode_response reports it: kept, as the model called it
            self._losses.add((*at, "name"), "blank tool name", "OpenAI clients cannot dispatch a call without a name")
        state = self._state(event.choice)
        wire_index = state.calls[event.index] = len(state.calls)
        bag = KIT.own(event.provider_metadata)
        if event.kind == "custom":  # its input streams as custom.input fragments (openai-openapi#576)
            state.custom.add(event.index)
            custom = {**(as_dict(bag.pop("custom", None)) or {}), "name": event.name, "input": ""}
            fragment = {**wire_fields(bag), "index": wire_index, "id": event.id, "type": "custom", "custom": custom}
            return self._delta(event.choice, {"tool_calls": [fragment]})
        function = {**(as_dict(bag.pop("function", None)) or {}), "name": event.name, "arguments": ""}
        call: dict[str, Any] = {**wire_fields(bag), "index": wire_index, "id": event.id}
        if "type" not in absent_keys(bag):
            call["type"] = "function"
        call["function"] = function
        thought_signatures.write_signature(call, signature)
        return self._delta(event.choice, {"tool_calls": [call]})

    def _call_delta(self, event: ToolCallDeltaRecord, at: Steps) -> list[dict[str, Any]]:
        state = self._state(event.choice)
        wire_index = state.calls.get(event.index)
        if wire_index is None:
            self._losses.add(at, "tool-call delta for a call never started", "OpenAI needs the call's id first")
            return []
        fragment: dict[str, Any]
        if event.index in state.custom:
            fragment = {"index": wire_index, "custom": {"input": event.delta}}
        else:
            fragment = {"index": wire_index, "function": {"arguments": event.delta}}
        return [self._delta(event.choice, {"tool_calls": [fragment]}, event)]

    # --- thinking (the deltas are :mod:`.stream_thinking`'s) ------------------------------

    def _thinking_delta(
        self, event: ThinkingDeltaRecord | ThinkingSignatureDeltaRecord, at: Steps
    ) -> list[dict[str, Any]]:
        deltas = stream_thinking.deltas(self._state(event.choice), event, self._losses, at)
        return [self._delta(event.choice, delta, event) for delta in deltas]

    def _thinking_end(self, event: ThinkingEndRecord, at: Steps) -> list[dict[str, Any]]:
        deltas = stream_thinking.end(self._state(event.choice), event, self._option, self._losses, at)
        return [self._delta(event.choice, delta) for delta in deltas]

    # --- whole parts ---------------------------------------------------------------------

    def _whole(self, event: PartRecord, at: Steps) -> list[dict[str, Any]]:
        """A part that arrives whole, read as its model (the writers of whole parts read
        models; such parts are rare: the one place this encoder loads them)."""
        from chatcodec import (
            AudioPart,
            ImagePart,
            OpaquePart,
            PartEvent,
            RefusalPart,
            TextPart,
            ThinkingPart,
            ToolUsePart,
        )

        part = PartEvent.model_validate({"index": event.index, "part": event.part}).part  # checked as its record was
        where: tuple[int | str, ...] = (*at, "part")
        metadata: Mapping[str, Any] | None = part.provider_metadata
        if isinstance(part, ToolUsePart):  # a Gemini signature is written (see _call_start)
            metadata = thought_signatures.split_signature(metadata)[1]
        KIT.report_foreign(self._losses, metadata, where)
        match part:
            case TextPart():
                self._whole_loss(part, where)
                opened = self._text_start(TextStartRecord(index=event.index, choice=event.choice), at)
                if part.text:
                    opened.append(
                        self._text_delta(TextDeltaRecord(index=event.index, choice=event.choice, delta=part.text))
                    )
                if part.citations:
                    cited = [citation.model_dump() for citation in part.citations]
                    self._text_citations(event.choice, cited, part.provider_metadata, where)
                return opened
            case RefusalPart():
                self._whole_loss(part, where)
                return [self._delta(event.choice, {"refusal": part.text})]
            case ToolUsePart():
                self._whole_loss(part, where, bag=False)
                start = ToolCallStartRecord(
                    index=event.index,
                    choice=event.choice,
                    id=part.id,
                    name=part.name,
                    provider_metadata=part.provider_metadata,
                    kind=part.kind,
                )
                chunks = [self._call_start(start, at)]
                if part.arguments:
                    delta = ToolCallDeltaRecord(index=event.index, choice=event.choice, delta=part.arguments)
                    chunks.extend(self._call_delta(delta, at))
                return chunks
            case ThinkingPart():
                choice = event.choice
                fields = stream_thinking.whole(lambda: self._state(choice), part, self._option, self._losses, where)
                return [] if fields is None else [self._delta(choice, fields)]
            case OpaquePart() if (
                part.provider == PROVIDER and KIT.own(part.provider_metadata).get("_in") == "tool_calls"
            ):
                return [self._whole_call(event, part, where)]
            case ImagePart() | AudioPart() | OpaquePart():
                why = "an OpenAI stream carries text, refusals, reasoning and tool calls"
                self._losses.add(where, f"{part.type} part", why)
                return []
            case _:
                assert_never(part)

    def _whole_call(self, event: PartRecord, part: OpaquePart, where: tuple[int | str, ...]) -> dict[str, Any]:
        """A custom (freeform) tool call, or another non-function call kept whole: one
        ``tool_calls`` fragment holding all of it, at the next tool-call index."""
        state = self._state(event.choice)
        wire_index = state.calls[event.index] = len(state.calls)
        if part.cache_control is not None:
            self._losses.add(
                (*where, "cache_control"), "cache_control", "stream chunks take no cache breakpoint", "setting"
            )
        return self._delta(event.choice, {"tool_calls": [{"index": wire_index, **part.data}]})

    def _whole_loss(
        self, part: TextPart | RefusalPart | ToolUsePart, where: tuple[int | str, ...], *, bag: bool = True
    ) -> None:
        if part.cache_control is not None:
            self._losses.add(
                (*where, "cache_control"), "cache_control", "stream chunks take no cache breakpoint", "setting"
            )
        kept = wire_fields(KIT.own(part.provider_metadata))
        if bag and kept:
            why = "an OpenAI stream has no place for a content part's own fields"
            self._losses.add((*where, "provider_metadata"), f"{PROVIDER} data {sorted(kept)}", why)
