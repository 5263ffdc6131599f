"""Decoding Responses stream events: the one path, driving the shared stream builder.

The API streams *semantic* events keyed by ``output_index`` (which output item) and, in
an item, ``content_index`` or ``summary_index``: ``response.output_item.added`` opens an
item, ``response.content_part.added`` a text or refusal part, ``*.delta`` events grow
them (``output_text``, ``refusal``, ``reasoning_summary_text``, ``reasoning_text``,
``function_call_arguments``, ``custom_tool_call_input``), and
``response.output_item.done`` gives the finished item whole. Parts are keyed by
``(output_index, slot)``, never by a counter shared between items, so parallel function
calls (several items streaming at once) never overwrite each other.

The finished item is the truth for everything a delta does not carry (item ``id``,
``status``, ``annotations``, ``logprobs``, ``encrypted_content``): at
``output_item.done`` the decoder reads the item exactly as the non-streamed response
decoder does (:func:`.item_reading.decode_item`) and closes each streamed part with that part's
bag, opening (with its whole text) any part that never streamed. Built-in tool items
(``web_search_call`` ...) arrive whole at their ``done``, and so does a refusal: a
canonical refusal has no start or end event to carry its item's bag, so its deltas are
passed over and the finished item gives it whole, at the place its first event kept.
An ``output_text.delta``'s tokens (its ``logprobs``) are its text delta's,
while each delta's spell its text (:func:`.logprobs.read_delta_logprobs`); the answer's other
tokens come with the terminal response, on its finish (:func:`.logprobs.after_deltas`).
The terminal event
(``response.completed``, ``.incomplete``, ``.failed``) carries the whole response: its
status, usage and top-level fields are read as :mod:`.response` reads them. So streamed
equals non-streamed, as the SDK's own accumulator (``openai.lib.streaming.responses``,
which keeps the final ``response`` snapshot) has it.

Events this decoder does not map (``response.in_progress``, ``*.done`` text events whose
text the deltas already gave, ``output_text.annotation.added`` whose annotation the
finished item repeats, built-in tool progress such as ``web_search_call.searching``, and
event types added later) are validated as events and otherwise passed over: never fatal,
and what they say comes back in ``output_item.done`` or the terminal response.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from chatcodec import StreamError
from chatcodec._providers.openai_responses.carried_reasoning import SealedCalls, is_sealed
from chatcodec._providers.openai_responses.item_reading import decode_item
from chatcodec._providers.openai_responses.logprobs import after_deltas, read_delta_logprobs, take_part_logprobs
from chatcodec._providers.openai_responses.markers import PROVIDER
from chatcodec._providers.openai_responses.response import decode_response_dict
from chatcodec._providers.openai_responses.wire import EVENT, ITEM, RESPONSE, validated
from chatcodec.codec_kit import FeedByReading, as_dict, read_event
from chatcodec.contract import AnyStreamRecord, DecodeContext, ErrorRecord, PartBuilder, StreamBuilder

if TYPE_CHECKING:
    from chatcodec import PartEvent

TERMINAL = ("response.completed", "response.incomplete", "response.failed")
STREAM_END = "its response.completed, response.incomplete or response.failed event"
"""One of :data:`TERMINAL` ends every Responses stream and carries the whole response
(platform.openai.com/docs/api-reference/responses-streaming); without it the stream was cut."""
"""The events that end a stream with the whole response."""

_STARTS = ("response.created", "response.queued", "response.in_progress")
_DELTAS = {
    "response.output_text.delta": "content_index",
    "response.refusal.delta": "content_index",
    "response.reasoning_summary_text.delta": "summary_index",
    "response.reasoning_text.delta": "content_index",
    "response.function_call_arguments.delta": None,
    "response.custom_tool_call_input.delta": None,
}
_SLOT_KINDS = {
    "response.output_text.delta": ("content", "text"),
    "response.refusal.delta": ("content", "refusal"),
    "response.reasoning_summary_text.delta": ("summary", "thinking"),
    "response.reasoning_text.delta": ("reasoning", "thinking"),
    "response.function_call_arguments.delta": ("call", "tool_use"),
    "response.custom_tool_call_input.delta": ("call", "tool_use"),
}

_CONTINUING = {kind: (_DELTAS[kind], *_SLOT_KINDS[kind]) for kind in _DELTAS if kind != "response.refusal.delta"}
"""The deltas :meth:`StreamDecoder.read` appends itself: where each keeps its slot's
index, the slot's name and the part's kind (a refusal is given whole at its item's done)."""

Slot = tuple[str, int]
"""Where a part sits in its item: ``("content", i)``, ``("summary", i)``,
``("reasoning", i)`` (a reasoning item's ``content``), ``("call", 0)``, ``("empty", 0)``."""


def _no_slots() -> set[Slot]:
    """An empty set of slots, typed: a factory ``set[Slot]`` calls a generic alias, which raises
    and clears an ``AttributeError`` inside."""
    return set()


@dataclass
class _Item:
    """An output item between its ``added`` and ``done``."""

    kind: str
    parts: dict[Slot, PartBuilder] = field(default_factory=lambda: {})
    streamed: set[Slot] = field(default_factory=_no_slots)
    reserved: int | None = None
    refusals: dict[Slot, int] = field(default_factory=lambda: {})


class StreamDecoder(FeedByReading):
    """Push-style decoding: :meth:`feed` each wire event as it arrives, then :meth:`close`."""

    def __init__(self, builder: StreamBuilder | None = None, context: DecodeContext | None = None) -> None:
        self.builder: StreamBuilder = builder if builder is not None else StreamBuilder(emit=True)
        self.context: DecodeContext = context if context is not None else DecodeContext(PROVIDER)
        """The decode's shared state (:class:`~chatcodec._providers.contract.context.DecodeContext`)."""
        self.items: dict[int, _Item] = {}
        self.next_index: int = 0
        self.started: bool = False
        self.position: int = -1
        self.sequence: int = -1  # the highest sequence_number read so far
        self.errored: bool = False  # an error event came
        self.sealed_calls: SealedCalls = SealedCalls()
        self.tokens: list[dict[str, Any]] = []  # the tokens the text deltas gave
        self.taking: bool = True  # until a delta's tokens do not spell its text
        """Call bags sealed into reasoning items so far (:mod:`.carried_reasoning`)."""

    def close(self) -> list[AnyStreamRecord]:
        """Nothing is owed at the end: parts of an item that never finished (an
        interrupted stream) keep what streamed, and the builder keeps that its last event
        never came."""
        self.builder.stream_closed(STREAM_END)
        return self.builder.take_events()

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """Read wire events into the builder (the whole stream, for ``accumulate_stream``).

        A delta that continues a part already streaming, in order (nearly every event), is
        appended here: each check is one :meth:`_read` would make of it (the event
        adapter only asks that ``type`` be text), down to the part of that slot and kind.
        Any other event, or one that fails a check, is read by :meth:`_read`.
        """
        items = self.items
        for event in events:
            self.position += 1
            try:
                continuing = _CONTINUING.get(event["type"]) if event.__class__ is dict else None
                if continuing is not None:
                    number, output_index, delta = event["sequence_number"], event["output_index"], event["delta"]
                    slot = (continuing[1], 0 if continuing[0] is None else event[continuing[0]])
                    record = items.get(output_index)
                    if (
                        record is not None
                        and number.__class__ is int
                        and number > self.sequence
                        and output_index.__class__ is int
                        and slot[1].__class__ is int
                        and delta.__class__ is str
                        and not event.get("logprobs")
                        and slot in record.streamed
                        and (part := record.parts[slot]).kind == continuing[2]
                    ):
                        self.sequence = number
                        part.append(delta)
                        continue
            except (KeyError, TypeError):
                pass
            try:
                read_event(self._read_validated, event, self.position)
            except (KeyError, TypeError, AttributeError) as error:  # a field of the wrong shape
                raise StreamError(f"malformed {event.get('type')} event: {error!r}", "$", self.position) from None

    def _read_validated(self, event: dict[str, Any]) -> None:
        self._read(validated(EVENT, event, f"OpenAI Responses stream event {self.position}"))

    def _read(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if self._repeated(event):
            return
        if kind in _DELTAS:
            self._delta(event, kind)
        elif kind in _STARTS:
            self._start(event)
        elif kind == "response.output_item.added":
            self._item_added(self._index(event, "output_index"), self._item(event))
        elif kind == "response.content_part.added":
            self._content_added(event)
        elif kind == "response.reasoning_summary_part.added":
            self._part(self._index(event, "output_index"), ("summary", self._index(event, "summary_index")), "thinking")
        elif kind == "response.output_item.done":
            self._item_done(self._index(event, "output_index"), self._item(event))
        elif kind in TERMINAL:
            self._terminal(event)
        elif kind == "error":
            self.errored = True
            message = event.get("message")
            code = event.get("code")
            self.builder.error(
                ErrorRecord(
                    message=message if isinstance(message, str) else "",
                    error_type=code if isinstance(code, str) else None,
                    body=event,
                )
            )

    def _repeated(self, event: dict[str, Any]) -> bool:
        """Whether ``event`` is a delta already read: ``sequence_number`` only grows
        through a stream (API reference, "Streaming events"), so a delta whose number is
        not above the highest seen was delivered twice (a proxy's retry, a resumed stream
        replaying ``starting_after``); appending it again gave "HelHello" where the
        ``done`` text said "Hello". Other events are read again harmlessly."""
        number = event.get("sequence_number")
        if type(number) is not int:
            return False
        if number <= self.sequence:
            return event["type"] in _DELTAS
        self.sequence = number
        return False

    # --- fields ----------------------------------------------------------------------------

    def _index(self, event: dict[str, Any], key: str) -> int:
        value = event.get(key)
        if type(value) is not int or value < 0:
            raise StreamError(f"{key} must be a non-negative integer", f"$.{key}", self.position)
        return value

    def _item(self, event: dict[str, Any]) -> dict[str, Any]:
        return validated(ITEM, event.get("item"), f"OpenAI Responses stream event {self.position} item")

    # --- response ----------------------------------------------------------------------------

    def _start(self, event: dict[str, Any]) -> None:
        if self.started:
            return
        self.started = True
        fields = as_dict(event.get("response")) or {}
        known = {key: fields.get(key) for key in ("id", "model", "created_at")}
        self.builder.start(
            id=_text(known["id"]),
            model=_text(known["model"]),
            created=known["created_at"] if type(known["created_at"]) is int else None,
        )

    def _terminal(self, event: dict[str, Any]) -> None:
        self.builder.end()
        wire = validated(RESPONSE, event.get("response"), f"OpenAI Responses stream event {self.position} response")
        decoded = decode_response_dict(wire)
        if not self.started:
            self._start(event)
        for output_index, item in enumerate(wire["output"]):
            if output_index in self.items:  # an item whose done never came: the response has it
                self._item_done(output_index, item)
        usage = decoded.get("usage")
        if usage is not None:
            self.builder.usage(usage)  # plain counts as they are, anything else validated there as Usage
        choice = decoded["choices"][0]
        metadata = decoded.get("provider_metadata")
        error = as_dict(wire.get("error")) if wire.get("status") == "failed" and not self.errored else None
        if error is not None:  # failed with no error event: the error is the terminal's (see _failure)
            self.builder.error(_failure(error, event))
        if "finish_reason" in choice:
            tokens = after_deltas(self.tokens, choice.get("logprobs"))
            self.builder.finish(0, choice["finish_reason"], metadata, logprobs=tokens)
        elif metadata is not None:  # an answer whose end is unknown keeps its fields
            self.builder.choice_data(0, metadata=metadata)

    # --- items -------------------------------------------------------------------------------

    def _item_added(self, output_index: int, item: dict[str, Any]) -> None:
        kind = item["type"] if isinstance(item.get("type"), str) else "message"
        record = self.items[output_index] = _Item(kind)
        if kind in ("function_call", "custom_tool_call"):
            self._part(output_index, ("call", 0), "tool_use", item)
        elif kind not in ("message", "reasoning"):
            record.reserved = self._allocate()

    def _content_added(self, event: dict[str, Any]) -> None:
        kind = (as_dict(event.get("part")) or {}).get("type")
        content_index = self._index(event, "content_index")
        output_index = self._index(event, "output_index")
        if kind == "reasoning_text":
            self._part(output_index, ("reasoning", content_index), "thinking")
        elif kind == "output_text":
            self._part(output_index, ("content", content_index), "text")
        elif kind == "refusal":  # given whole at the item's done (see _delta): its place is kept
            record = self.items.setdefault(output_index, _Item("message"))
            record.refusals.setdefault(("content", content_index), self._allocate())

    def _delta(self, event: dict[str, Any], kind: str) -> None:
        output_index = self._index(event, "output_index")
        if kind == "response.refusal.delta":
            # A canonical refusal has no start or end event to carry its bag (the item's
            # id and status): it is given whole, from the finished item.
            if not isinstance(event.get("delta"), str):
                raise StreamError("delta must be text", "$.delta", self.position)
            record = self.items.setdefault(output_index, _Item("message"))
            record.refusals.setdefault(("content", self._index(event, "content_index")), self._allocate())
            return
        key = _DELTAS[kind]
        slot_name, part_kind = _SLOT_KINDS[kind]
        slot = (slot_name, 0 if key is None else self._index(event, key))
        delta = event.get("delta")
        if not isinstance(delta, str):
            raise StreamError("delta must be text", "$.delta", self.position)
        part = self._part(output_index, slot, part_kind)
        if part is None:
            return
        self.items[output_index].streamed.add(slot)
        tokens = self._delta_tokens(event, delta) if part_kind == "text" else None
        if tokens is None:
            part.append(delta)
        else:
            self.builder.delta(part, delta, None, logprobs=tokens)

    def _delta_tokens(self, event: dict[str, Any], delta: str) -> list[dict[str, Any]] | None:
        """An ``output_text.delta``'s tokens, while every delta's so far spelled its text
        (after one that did not, the rest come with the terminal response, in order)."""
        if not self.taking or not event.get("logprobs"):
            return None
        tokens = read_delta_logprobs(event["logprobs"], delta)
        if tokens is None:
            self.taking = False
        else:
            self.tokens.extend(tokens)
        return tokens

    def _part(self, output_index: int, slot: Slot, kind: str, item: dict[str, Any] | None = None) -> PartBuilder | None:
        """The part at ``slot`` of an item, opened on first mention (tolerant of a stream
        that skipped its ``added`` events)."""
        record = self.items.get(output_index)
        if record is None:  # not setdefault: an item built per delta to be thrown away cost more than the delta
            record = self.items[output_index] = _Item("message" if slot[0] == "content" else "reasoning")
        found = record.parts.get(slot)
        if found is not None:
            return found if found.kind == kind else None
        index = self._allocate()
        match kind:
            case "text":
                part = self.builder.open_text(0, index)
            case "thinking":
                part = self.builder.open_thinking(0, index, provider=PROVIDER)
            case _:
                fields = item or {}
                call_id, name = fields.get("call_id"), fields.get("name")
                if not (isinstance(call_id, str) and isinstance(name, str)):
                    raise StreamError("a function call item needs its call_id and name", "$.item", self.position)
                part = self.builder.open_tool_call(
                    0,
                    index,
                    id=call_id,
                    name=name,
                    metadata=_call_start_bag(fields),
                    kind="custom" if fields.get("type") == "custom_tool_call" else "function",
                )
        record.parts[slot] = part
        return part

    def _allocate(self) -> int:
        index = self.next_index
        self.next_index += 1
        return index

    def _item_done(self, output_index: int, item: dict[str, Any]) -> None:
        record = self.items.pop(output_index, None) or _Item(str(item.get("type")))
        decoded = decode_item(item, ("item",), self.sealed_calls)
        if item.get("type") == "reasoning" and is_sealed(item.get("encrypted_content")):
            for part in decoded:  # another provider's reasoning, given whole (never streamed)
                self.builder.whole(_part_event({"index": self._allocate(), "choice": 0, "part": part}))
            for builder in record.parts.values():
                self.builder.close(builder)
            return
        slots = _slots(item, len(decoded))
        for part, slot in zip(decoded, slots, strict=True):
            take_part_logprobs(part)  # the answer's: the terminal response gives them whole
            if part["type"] == "refusal" and slot is not None:
                index = record.refusals.pop(slot, None)
                index = self._allocate() if index is None else index
                self.builder.whole(_part_event({"index": index, "choice": 0, "part": part}))
                continue
            if part["type"] == "opaque" or slot is None:
                index = record.reserved if record.reserved is not None else self._allocate()
                record.reserved = None
                self.builder.whole(_part_event({"index": index, "choice": 0, "part": part}))
                continue
            self._finish_part(output_index, record, slot, part, item)
        for slot, builder in record.parts.items():  # streamed parts the finished item does not have
            if slot not in slots:
                self.builder.close(builder)

    def _finish_part(
        self, output_index: int, record: _Item, slot: Slot, part: dict[str, Any], item: dict[str, Any]
    ) -> None:
        kind = part["type"]
        self.items[output_index] = record
        builder = self._part(output_index, slot, kind, item)
        del self.items[output_index]
        if builder is None:
            return
        if slot not in record.streamed:
            text = part.get("arguments") if kind == "tool_use" else part.get("text")
            if text:
                builder.append(text)
        metadata, citations = part.get("provider_metadata"), part.get("citations")
        self.builder.close(builder, encrypted=part.get("encrypted"), metadata=metadata, citations=citations)


def _call_start_bag(item: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    """What a call's start says of its item, so a proxy re-encoding the stream can open the
    item live with the same ``fc_`` id (the finished item repeats it; its type is the
    call's ``kind``)."""
    if isinstance(item.get("id"), str):
        return {PROVIDER: {"id": item["id"]}}
    return None


def _failure(error: dict[str, Any], terminal: dict[str, Any]) -> ErrorRecord:
    """The error of a ``response.failed`` that came with no ``error`` event before it (its
    ``response.error``, ``{"code", "message"}``): every other format's stream ends with an
    error, so a failed answer stays a failure there, not a stream that stopped. Its body is
    the terminal event, so this format's encoder writes no ``error`` event for it (the
    terminal carries it again)."""
    message, code = error.get("message"), error.get("code")
    return ErrorRecord(
        message=message if isinstance(message, str) else "",
        error_type=code if isinstance(code, str) else None,
        body=terminal,
    )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _slots(item: dict[str, Any], count: int) -> list[Slot | None]:
    """The slot of each part :func:`decode_item` gives for ``item``, in order."""
    kind = item.get("type")
    if kind == "reasoning":
        summary = len(item["summary"])
        if summary == 0 and not item.get("content"):
            return [("empty", 0)]
        return [("summary", index) if index < summary else ("reasoning", index - summary) for index in range(count)]
    if kind in ("function_call", "custom_tool_call"):
        return [("call", 0)]
    if (kind in (None, "message")) and item.get("role") == "assistant" and isinstance(item.get("content"), list):
        return [("content", index) for index in range(count)]
    if (kind in (None, "message")) and isinstance(item.get("content"), str):
        return [("content", 0)]
    return [None] * count


def _part_event(fields: dict[str, Any]) -> PartEvent:
    """A part that arrives whole, checked by its model where it arrives (the one place this
    decoder loads the event models)."""
    from chatcodec import PartEvent

    return PartEvent.model_validate(fields)
