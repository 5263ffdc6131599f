"""Canonical stream events -> Responses stream events (for proxies), and SSE text.

Parts are grouped into output items by the same :class:`.items.ItemWriter` that writes a
response's ``output``, so a stream and its non-streamed response hold the same items.
What makes an item (a message item's ``id`` and ``status``, a reasoning item's summary
or content, ``encrypted_content``, a call's ``fc_`` id) arrives on a canonical part's
*end* event. A text part that opens a new message item (the common case: no message
item open, nothing else under way) streams live, its deltas as they come, and so does a
tool call with nothing else under way (a call is always an item of its own); any other
part is written when it ends, its deltas keeping their chunking but waiting for the end
(reasoning summaries, a second text part of one message item, a part that began while
another was under way: a known limit of this encoder, since which item they belong to is
known only then). A part that ends while a part before it is still under way waits for
it, so items are numbered in the answer's order, not in the order their parts end. Each event
carries ``sequence_number``; ``output_index`` counts items and ``content_index`` /
``summary_index`` count parts within one, so parallel calls are separate items with
their own indexes, never all at index 0.

``response.created`` and ``response.in_progress`` open the stream, each with the response
as it stands (no output yet), as OpenAI sends them. The stream ends with
``response.completed`` (``.incomplete`` or ``.failed`` by the finish reason's status, or
``.failed`` with its ``error`` after an error and no finish) holding the whole response:
the items, usage, and the response's own fields (from the start or finish event's bag).
How an item's content is spelled as it streams (its deltas and ``done`` events) is
:mod:`.stream_items`; this module decides when an item is written.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from copy import deepcopy
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from chatcodec._providers.openai_responses.carried_reasoning import seal_call, sealing_of
from chatcodec._providers.openai_responses.edge import error_fields
from chatcodec._providers.openai_responses.items import ItemWriter, Part, encode_tool_use, name_item
from chatcodec._providers.openai_responses.logprobs import (
    LOGPROBS,
    done_logprobs,
    part_entries,
    place_answer_logprobs,
    write_delta_logprobs,
)
from chatcodec._providers.openai_responses.markers import KIT, PROVIDER
from chatcodec._providers.openai_responses.parts import with_annotations
from chatcodec._providers.openai_responses.response import encode_response
from chatcodec._providers.openai_responses.stream_items import content_events, empty_item, item_id
from chatcodec.codec_kit import as_list
from chatcodec.contract import (
    AnyStreamRecord,
    ChoiceMetadataRecord,
    EncodeContext,
    ErrorRecord,
    FinishRecord,
    LossRecorder,
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

_ENDS_A_REFUSAL = (TextStartRecord, ThinkingStartRecord, ToolCallStartRecord, PartRecord, FinishRecord)
"""Events after which a refusal under way is complete (the next part, or the finish)."""

_TERMINAL = {"completed": "response.completed", "incomplete": "response.incomplete", "failed": "response.failed"}


@dataclass
class _Pending:
    """A canonical part between its start and end events."""

    start: TextStartRecord | ThinkingStartRecord | ToolCallStartRecord | None
    kind: str
    fragments: list[str] = field(default_factory=lambda: [])
    signature: list[str] | None = None
    live: int | None = None
    """The ``output_index`` of the message item a text part streams into as it arrives."""
    tokens: list[dict[str, Any]] | None = None
    """A text part's tokens, as its deltas gave them (its ``output_text``'s ``logprobs``)."""


@dataclass
class _Stream:
    losses: LossRecorder
    writer: ItemWriter
    context: EncodeContext
    sequence: int = 0
    created: int = field(default_factory=lambda: int(time.time()))
    """``created_at`` when the start event gives none: one time for every event."""
    start: ResponseStartRecord | None = None
    finish: FinishRecord | None = None
    error: ErrorRecord | None = None
    """An error the answer ended with: the terminal event is then ``response.failed``."""
    usage: dict[str, Any] | None = None
    metadata: dict[str, Any] = field(default_factory=lambda: {})
    """The response's bags given without a finish (an answer whose end is unknown)."""
    pending: dict[int, _Pending] = field(default_factory=lambda: {})
    done: int = 0  # items whose output_item.done was written
    counts: dict[int, int] = field(default_factory=lambda: {})  # parts written per item
    held: dict[int, tuple[Part, list[str] | None]] = field(default_factory=lambda: {})
    """Parts that ended while a part before them was still under way, by canonical index."""

    def name(self, position: int, writer: ItemWriter | None = None) -> None:
        """Give item ``position`` its made-up id when it was built from another format
        (``writer``: the one that built it, when not this stream's): the id the
        non-streamed response would give it, from the response id and the position."""
        item = self.writer.items[position]
        built = item if writer is None else writer.items[0]
        if (writer or self.writer).is_unnamed(built):
            name_item(item, None if self.start is None else self.start.id, position)

    def event(self, kind: str, **fields: Any) -> dict[str, Any]:
        wire = {"type": kind, **fields, "sequence_number": self.sequence}
        self.sequence += 1
        return wire


_NO_CHOICE_BAG = "a Responses answer is its output items: the decoder keeps no choice bag"


class StreamEncoder:
    """Canonical events in, Responses stream events out (see the module docstring)."""

    stream_contract: ClassVar[int] = 2
    """It reads records (:mod:`chatcodec.contract`'s ``...Record`` classes), not the public models."""

    def __init__(self, context: EncodeContext) -> None:
        writer = ItemWriter(context.losses, for_request=False, sealing=sealing_of(context.options))
        self._stream = _Stream(context.losses, writer, context)
        self._dropped: set[int] = set()

    def feed(self, event: AnyStreamRecord) -> Iterator[dict[str, Any]]:
        """The wire events ``event`` completes (possibly none yet)."""
        stream = self._stream
        choice: int = getattr(event, "choice", 0)
        if choice != 0:  # a Responses stream carries one answer: other choices are reported
            if choice not in self._dropped:
                self._dropped.add(choice)
                stream.losses.add(("choices", choice), "extra choice", "a Responses stream carries one answer")
            return
        if isinstance(event, _ENDS_A_REFUSAL):
            yield from _finish_refusals(stream)
        yield from _encode_event(event, stream)

    def numbered(self, wire_event: dict[str, Any]) -> dict[str, Any]:
        """An event written beside this encoder (the ``error`` that ends a cut stream, whose
        edge writes ``sequence_number: 0``) with the stream's next number."""
        stream = self._stream
        numbered = {**wire_event, "sequence_number": stream.sequence}
        stream.sequence += 1
        return numbered

    def close(self) -> Iterator[dict[str, Any]]:
        """The closing events: parts never ended, the items' ``done`` events, the terminal
        event (a stream with no finish ends ``response.incomplete`` with no reason: how a
        Responses answer says its end is unknown, never ``completed``)."""
        stream = self._stream
        for index in sorted(stream.pending):  # refusals have no end event; other parts never ended
            yield from _end(stream, index, None, {})
        yield from _flush_held(stream)
        yield from _close_items(stream, len(stream.writer.items))
        yield _terminal(stream)  # with no finish: response.incomplete with no reason, "the end is unknown"


def _encode_event(event: AnyStreamRecord, stream: _Stream) -> Iterator[dict[str, Any]]:
    match event:
        case ResponseStartRecord():
            stream.start = event
            yield stream.event("response.created", response=_snapshot(stream, "in_progress"))
            yield stream.event("response.in_progress", response=_snapshot(stream, "in_progress"))
        case TextStartRecord() | ToolCallStartRecord():  # the parts that can stream live
            yield from _start_text(stream, event) if isinstance(event, TextStartRecord) else _start_call(stream, event)
        case ThinkingStartRecord():
            stream.pending[event.index] = _Pending(event, "thinking")
        case TextDeltaRecord():
            yield from _delta(stream, event.index, event.delta, event.logprobs)
        case ThinkingDeltaRecord() | ToolCallDeltaRecord():
            yield from _delta(stream, event.index, event.delta)
        case RefusalDeltaRecord():
            _pending(stream, event.index, "refusal").fragments.append(event.delta)
        case ThinkingSignatureDeltaRecord():
            pending = _pending(stream, event.index, "thinking")
            pending.signature = [*(pending.signature or []), event.delta]
        case TextEndRecord() | ToolCallEndRecord() | ThinkingEndRecord():
            encrypted = event.encrypted if isinstance(event, ThinkingEndRecord) else None
            yield from _end(stream, event.index, encrypted, _end_bag(event))
        case PartRecord():
            stream.held[event.index] = (deepcopy(event.part), None)
            yield from _flush_held(stream)
        case UsageRecord() | FinishRecord() | ChoiceMetadataRecord():
            _answer_data(stream, event)
        case ErrorRecord():
            yield from _error(stream, event)


def _error(stream: _Stream, event: ErrorRecord) -> Iterator[dict[str, Any]]:
    """The ``error`` event, held for the terminal ``response.failed``; none for an error read
    from such a terminal (its body), which that terminal carries again."""
    stream.error = event
    body: Any = event.body
    if body.__class__ is not dict or body.get("type") != "response.failed":
        yield stream.event("error", **error_fields(event.message, event.error_type))


def _answer_data(stream: _Stream, event: UsageRecord | FinishRecord | ChoiceMetadataRecord) -> None:
    """What the terminal event says (usage, finish), held until it is written."""
    if isinstance(event, UsageRecord):
        stream.usage = event.usage
    elif isinstance(event, FinishRecord):
        stream.finish = event
    else:
        _choice_data(stream, event)


def _choice_data(stream: _Stream, event: ChoiceMetadataRecord) -> None:
    """A Responses answer is its output items: the decoder keeps no choice or message bag,
    so neither has a place on the wire (as in ``encode_response``); both are losses. The
    response's own bag goes on the terminal response, as a finish's does."""
    why = "a Responses stream has no place for it"
    _merge_bags(stream.metadata, event.provider_metadata)
    KIT.report_unplaced(stream.losses, event.choice_metadata, ("choices", 0), _NO_CHOICE_BAG)
    KIT.report_unplaced(stream.losses, event.message_metadata, ("choices", 0, "message"), why)


def _finish_refusals(stream: _Stream) -> Iterator[dict[str, Any]]:
    """A canonical refusal has no end event: it is complete when the next part begins."""
    for index in sorted(index for index, pending in stream.pending.items() if pending.kind == "refusal"):
        yield from _end(stream, index, None, {})


def _delta(
    stream: _Stream, index: int, delta: str, logprobs: list[dict[str, Any]] | None = None
) -> Iterator[dict[str, Any]]:
    pending = _pending(stream, index, "text")
    pending.fragments.append(delta)
    tokens = None if logprobs is None else deepcopy(logprobs)
    if tokens is not None:
        pending.tokens = [*(pending.tokens or ()), *tokens]
    if pending.live is None or not delta:
        return
    if pending.kind == "tool_call":
        item = stream.writer.items[pending.live]
        yield stream.event(f"{_CALL_EVENTS[item['type']]}.delta", **_call_at(item, pending.live), delta=delta)
    else:
        entries = write_delta_logprobs(tokens) if tokens else []
        yield stream.event(
            "response.output_text.delta", **_live_at(stream, pending.live), delta=delta, logprobs=entries
        )


def _start_text(stream: _Stream, event: TextStartRecord) -> Iterator[dict[str, Any]]:
    """A text part that can only open a new message item (no message item is open and no
    other part is under way) streams live: its item and part open now, its deltas go
    out as they come, and its end gives the item's own fields (``output_item.done``)."""
    pending = stream.pending[event.index] = _Pending(event, "text")
    if stream.pending.keys() != {event.index} or stream.writer.open_message is not None:
        return  # it may continue the open item: that is known at its end
    position = len(stream.writer.items)
    yield from _close_items(stream, position)
    pending.live = position
    # The item's place is taken now, so parts written before this one ends come after it.
    stream.writer.add_part({"type": "text", "text": ""}, ("choices", 0, "message", "content", event.index))
    stream.name(position)
    wire_id = item_id(stream.writer.items[position])
    added: dict[str, Any] = {"id": wire_id, "type": "message", "status": "in_progress", "role": "assistant"}
    yield stream.event("response.output_item.added", output_index=position, item={**added, "content": []})
    empty: dict[str, Any] = {"type": "output_text", "text": "", "annotations": []}
    yield stream.event("response.content_part.added", **_live_at(stream, position), part=empty)


def _start_call(stream: _Stream, event: ToolCallStartRecord) -> Iterator[dict[str, Any]]:
    """A tool call always opens an item of its own: when no other part is under way, the
    item is added now and its argument deltas go out as they come (a client of a proxy
    sees the call being written, as from OpenAI), and its end gives the item's own fields
    (``output_item.done``)."""
    pending = stream.pending[event.index] = _Pending(event, "tool_call")
    if stream.pending.keys() != {event.index}:
        return  # a part before it is under way: the call's item comes after that part's
    position = len(stream.writer.items)
    yield from _close_items(stream, position)
    at: Steps = ("choices", 0, "message", "content", event.index)
    metadata = event.provider_metadata
    if stream.writer.sealing:  # another provider's call bags (a Gemini signature) in an item before it
        sealed, stripped = stream.writer.sealing.seal_call({"id": event.id, "provider_metadata": metadata})
        if sealed is not None:
            yield from _sealed_item(stream, sealed, at)
            position, metadata = len(stream.writer.items), stripped.get("provider_metadata")
    pending.live = position
    begun = _part(
        "tool_use",
        id=event.id,
        name=event.name,
        arguments="",
        provider_metadata=metadata,
        kind=_kind(event),
    )
    item = encode_tool_use(begun, LossRecorder(), at, for_request=False)  # its losses are the end's
    stream.writer.add(item, at)
    if "id" not in item:  # a call from another format: named as the response names it
        stream.writer.unnamed.append(item)
        stream.name(position)
    yield stream.event("response.output_item.added", output_index=position, item=empty_item(item))


def _sealed_item(stream: _Stream, sealed: str, at: Steps) -> Iterator[dict[str, Any]]:
    """A reasoning item sealing a call's other providers' bags, added and done at once."""
    position = len(stream.writer.items)
    item: dict[str, Any] = {"type": "reasoning", "id": "", "summary": [], "encrypted_content": sealed}
    stream.writer.add(item, at)
    stream.writer.unnamed.append(item)
    stream.name(position)
    yield stream.event("response.output_item.added", output_index=position, item=empty_item(item))
    yield from _close_items(stream, position + 1)


_CALL_EVENTS = {
    "function_call": "response.function_call_arguments",
    "custom_tool_call": "response.custom_tool_call_input",
}
"""The delta and done events of a call item, by its type."""


def _call_at(item: dict[str, Any], position: int) -> dict[str, Any]:
    return {"item_id": item_id(item), "output_index": position}


def _end_live_call(stream: _Stream, part: Part, index: int, position: int) -> Iterator[dict[str, Any]]:
    """The end of a live call: its item takes the call's final fields (the ``fc_`` id
    and status from the end's bag) and its arguments are done."""
    alone = ItemWriter(stream.losses, for_request=False)
    alone.add_part(part, ("choices", 0, "message", "content", index))
    item = stream.writer.items[position]
    item.clear()
    item.update(alone.items[0])
    stream.name(position, alone)
    key = "arguments" if item["type"] == "function_call" else "input"
    yield stream.event(f"{_CALL_EVENTS[item['type']]}.done", **_call_at(item, position), **{key: item[key]})


def _live_at(stream: _Stream, position: int) -> dict[str, Any]:
    return {"item_id": item_id(stream.writer.items[position]), "output_index": position, "content_index": 0}


def _end_live(stream: _Stream, part: Part, index: int, position: int) -> Iterator[dict[str, Any]]:
    """The end of a live text part: the item it opened is written, and its part closes."""
    alone = ItemWriter(stream.losses, for_request=False)
    alone.add_part(part, ("choices", 0, "message", "content", index))
    item = stream.writer.items[position]
    joined = (as_list(item.get("content")) or [])[1:]  # text parts that joined it meanwhile
    item.clear()
    item.update(alone.items[0])
    stream.name(position, alone)
    content: list[Any] | None = as_list(item.get("content"))
    if content is None:  # a string-content item (a request's spelling): one part all the same
        content = [{"type": "output_text", "text": part["text"], "annotations": []}]
    else:
        item["content"] = [*content, *joined]
    wire_part: dict[str, Any] = content[0]
    where = _live_at(stream, position)
    tokens = done_logprobs(wire_part.get("logprobs"))
    yield stream.event("response.output_text.done", **where, text=wire_part["text"], logprobs=tokens)
    yield stream.event("response.content_part.done", **where, part=wire_part)


def _pending(stream: _Stream, index: int, kind: str) -> _Pending:
    found = stream.pending.get(index)
    if found is None:
        found = stream.pending[index] = _Pending(None, kind)
    return found


def _end_bag(event: TextEndRecord | ToolCallEndRecord | ThinkingEndRecord) -> dict[str, Any]:
    """An end event's bag, a text's citations in it as its ``annotations`` (:func:`.parts.with_annotations`)."""
    metadata = event.provider_metadata or {}
    if isinstance(event, TextEndRecord) and event.citations:
        return with_annotations(metadata, deepcopy(event.citations))
    return metadata


def _end(stream: _Stream, index: int, encrypted: str | None, metadata: dict[str, Any]) -> Iterator[dict[str, Any]]:
    pending = stream.pending.pop(index, None)
    if pending is None:
        return
    start = pending.start
    text = "".join(pending.fragments)
    merged = {**((start.provider_metadata or {}) if start is not None else {})}
    for name, bag in metadata.items():
        merged[name] = {**merged.get(name, {}), **bag}
    extra: dict[str, Any] = {"provider_metadata": merged or None}
    part: Part
    if isinstance(start, ThinkingStartRecord):
        signature = None if pending.signature is None else "".join(pending.signature)
        part = _part(
            "thinking",
            text=text,
            signature=signature,
            encrypted=encrypted,
            provider=start.provider,
            model=start.model,
            **extra,
        )
    elif isinstance(start, ToolCallStartRecord):
        call = _part("tool_use", id=start.id, name=start.name, arguments=text, **extra, kind=_kind(start))
        if pending.live is not None and stream.writer.sealing:  # its other bags were sealed at its start
            call = seal_call(call)[1]
        if pending.live is not None:
            yield from _end_live_call(stream, call, index, pending.live)
            return
        part = call
    elif pending.kind == "refusal":
        part = _part("refusal", text=text, **extra)
    else:
        if pending.tokens is not None:  # the deltas' tokens are the output_text's (as OpenAI's item has them)
            entries: list[Any] = part_entries(pending.tokens)
            merged[PROVIDER] = {**merged.get(PROVIDER, {}), LOGPROBS: entries}
            extra["provider_metadata"] = merged
        part = _part("text", text=text, **extra)
        if pending.live is not None:
            yield from _end_live(stream, part, index, pending.live)
            return
    stream.held[index] = (part, pending.fragments)
    yield from _flush_held(stream)


def _flush_held(stream: _Stream) -> Iterator[dict[str, Any]]:
    """Write the held parts, in canonical order, up to the first part before them still
    under way: output items are numbered in the answer's order (reasoning before the text
    that followed it), not in the order their parts happen to end."""
    blocking = [index for index, pending in stream.pending.items() if pending.live is None]
    first_open = min(blocking, default=None)
    for index in sorted(stream.held):
        if first_open is not None and first_open < index:
            return
        part, fragments = stream.held.pop(index)
        yield from _write_part(stream, part, index, fragments)


def _kind(start: ToolCallStartRecord) -> str | None:
    """A call's ``kind`` as canonical data spells it (``None``: a function call, left out)."""
    return None if start.kind == "function" else start.kind


def _part(part_type: str, /, **fields: Any) -> dict[str, Any]:
    """A canonical part as data, from the fields a stream gave it (``None``: not given)."""
    return {"type": part_type, **{key: value for key, value in fields.items() if value is not None}}


def _write_part(
    stream: _Stream, part: Part, index: int, fragments: list[str] | None = None
) -> Iterator[dict[str, Any]]:
    writer = stream.writer
    before = len(writer.items)
    last = writer.items[-1] if writer.items else None
    last_size = _size(last)
    writer.add_part(part, ("choices", 0, "message", "content", index))
    items = writer.items
    if len(items) > before:  # a new item (or several): the ones before it are complete
        yield from _close_items(stream, before)
        for position in range(before, len(items)):
            stream.name(position)
            yield stream.event("response.output_item.added", output_index=position, item=empty_item(items[position]))
            yield from content_events(stream.event, items[position], position, 0, fragments)
    elif last is not None and _size(last) > last_size:
        yield from content_events(stream.event, items[-1], len(items) - 1, last_size, fragments)


def _size(item: dict[str, Any] | None) -> int:
    if item is None:
        return 0
    if item.get("type") == "reasoning":
        return len(as_list(item.get("summary")) or []) + len(as_list(item.get("content")) or [])
    return len(as_list(item.get("content")) or [])


def _close_items(stream: _Stream, upto: int) -> Iterator[dict[str, Any]]:
    """``output_item.done`` for the items before ``upto``, in order, up to the first one
    a live text part still streams into."""
    live = [pending.live for pending in stream.pending.values() if pending.live is not None]
    upto = min([upto, *live])
    for position in range(stream.done, upto):
        yield stream.event("response.output_item.done", output_index=position, item=stream.writer.items[position])
    stream.done = max(stream.done, upto)


def _answer(
    stream: _Stream,
    metadata: dict[str, Any] | None,
    reason: dict[str, Any] | None = None,
    usage: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The canonical response data a snapshot or the terminal event writes (its items are
    the stream's own)."""
    choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": []}}
    if reason is not None:
        choice["finish_reason"] = deepcopy(reason)
    response: dict[str, Any] = {"choices": [choice]}
    start = stream.start
    if start is not None:
        fields = (("id", start.id), ("model", start.model), ("created", start.created))
        response.update((key, value) for key, value in fields if value is not None)
    if usage is not None:
        response["usage"] = deepcopy(usage)
    if metadata:
        response["provider_metadata"] = metadata
    return response


def _snapshot(stream: _Stream, status: str) -> dict[str, Any]:
    metadata = None if stream.start is None else stream.start.provider_metadata
    # a snapshot: losses come at the end
    wire = encode_response(_answer(stream, metadata), replace(stream.context, losses=LossRecorder()))
    wire.update(status=status, output=[])
    if "completed_at" in wire:  # a server's resource: every field is there, null until known
        wire.update(usage=None, completed_at=None)
    else:
        wire.pop("usage", None)
    return _stamped(stream, wire)


def _terminal(stream: _Stream) -> dict[str, Any]:
    start, finish = stream.start, stream.finish
    metadata: dict[str, Any] = dict((start.provider_metadata or {}) if start is not None else {})
    _merge_bags(metadata, stream.metadata)
    if finish is not None:
        _merge_bags(metadata, finish.provider_metadata)
        KIT.report_unplaced(stream.losses, finish.choice_metadata, ("choices", 0), _NO_CHOICE_BAG)
    reason: dict[str, Any] | None = None if finish is None else finish.finish_reason
    wire = _stamped(stream, encode_response(_answer(stream, metadata, reason, stream.usage), stream.context))
    tokens = None if finish is None or finish.logprobs is None else deepcopy(finish.logprobs)
    wire["output"] = place_answer_logprobs(stream.writer.items, tokens, stream.losses, ("choices", 0))
    if finish is None and stream.error is not None:
        _failed(wire, stream.error)
    return stream.event(_TERMINAL.get(wire.get("status", "completed"), "response.completed"), response=wire)


def _failed(wire: dict[str, Any], error: ErrorRecord) -> None:
    """An answer that ended with an error and no finish is ``failed`` with its ``error``
    (``{"code", "message"}``), as OpenAI ends such a stream with ``response.failed``."""
    wire["status"] = "failed"
    wire["error"] = {"code": error.error_type or "server_error", "message": error.message}
    if "incomplete_details" in wire:
        wire["incomplete_details"] = None


def _stamped(stream: _Stream, wire: dict[str, Any]) -> dict[str, Any]:
    """``wire`` with the stream's one creation time where ``encode_response`` stamped the
    current time (the upstream gave none): the created and terminal events agree."""
    if (stream.start is None or stream.start.created is None) and "created_at" in wire:
        wire["created_at"] = stream.created
    return wire


def _merge_bags(metadata: dict[str, Any], more: Mapping[str, Any] | None) -> None:
    """``more``'s bags over ``metadata``'s, provider by provider."""
    for name, bag in (more or {}).items():
        metadata[name] = {**metadata.get(name, {}), **bag}
