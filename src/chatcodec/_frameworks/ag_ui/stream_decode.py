"""Decoding an AG-UI run's event stream into the answer it carries, through the shared builder.

The events of one run (AG-UI 1.0's ``EventType``, the JSON wire's camelCase names) are read as
AG-UI's own client applies them to a conversation: ``TEXT_MESSAGE_START`` / ``CONTENT`` /
``END`` (or ``TEXT_MESSAGE_CHUNK``) build a text part, ``REASONING_MESSAGE_*`` a thinking part,
``TOOL_CALL_START`` / ``ARGS`` / ``END`` (or ``TOOL_CALL_CHUNK``) a call, each in the order it
opened; a ``REASONING_ENCRYPTED_VALUE`` after its message's or call's end is the thinking's opaque
payload or the call's ``encryptedValue``; ``RUN_FINISHED`` is the finish (``tool_calls`` when the
answer made calls, else ``stop``; its ``outcome`` the raw word) and its ``usage`` the counts, summed
over the model calls it lists; ``RUN_ERROR`` an error event. The run's ``threadId``, ``runId`` and
what else ``RUN_STARTED`` and ``RUN_FINISHED`` hold ride in the response's bag; the answer's first
assistant message id in the message's (``id``, as a conversation keeps it) and a reasoning
message's in its thinking part's, a text or call of another assistant message keeps its own
(``messageId``, ``parentMessageId``). An event that builds no part of the answer
(a backend tool's ``TOOL_CALL_RESULT``, a ``MESSAGES_SNAPSHOT``, state, steps, activities, custom
and raw events, a text message of another role) is kept whole, in order, in the message's bag
(``events``), so nothing the run said is dropped. A run of several model turns (a backend tool's
result between them) is read as one answer holding every turn's parts. The answer's message id is
given as soon as it is known (before its first part), so a writer names the message by it; a text
message started and ended with nothing in it builds no part (it names the answer's message, as an
empty assistant message closes reasoning in a list); the ids a writer made up for what had none
(:data:`~.markers.MADE_UP_RUN`, :data:`~.markers.MADE_UP_ANSWER`,
:func:`~.markers.made_up_reasoning_id`) are no data.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chatcodec import StreamError
from chatcodec._frameworks.ag_ui.markers import (
    EVENTS,
    MADE_UP_ANSWER,
    MADE_UP_RUN,
    PARENT,
    PROVIDER,
    USAGE_FIELDS,
    made_up_reasoning_id,
)
from chatcodec.codec_kit import FeedByReading, as_dict, as_list, read_event
from chatcodec.contract import AnyStreamRecord, DecodeContext, ErrorRecord, PartBuilder, StreamBuilder

STREAM_END = "RUN_FINISHED or RUN_ERROR"
"""What ends a run's stream (a run that sends neither was cut)."""

_PIECES: dict[str, tuple[str, str]] = {
    **{f"TEXT_MESSAGE_{step}": ("text", "messageId") for step in ("START", "CONTENT", "END", "CHUNK")},
    **{f"REASONING_MESSAGE_{step}": ("thinking", "messageId") for step in ("START", "CONTENT", "END", "CHUNK")},
    **{f"TOOL_CALL_{step}": ("call", "toolCallId") for step in ("START", "ARGS", "END", "CHUNK")},
}
"""The events that build a part: the part's kind and the key of its id."""

_MAPPED = {
    "text": ("type", "messageId", "role", "delta"),
    "thinking": ("type", "messageId", "role", "delta"),
    "call": ("type", "toolCallId", "toolCallName", "parentMessageId", "delta"),
}
"""The fields of a part's events the part is built from (the others ride in its bag)."""

_USAGE = {wire: name for name, wire in USAGE_FIELDS.items()}
"""A ``TokenUsage`` entry's counts, by their canonical names (``totalTokens`` is their sum)."""


class StreamDecoder(FeedByReading):
    """Push-style decoding: :meth:`feed` each event as it arrives, then :meth:`close`."""

    def __init__(self, builder: StreamBuilder | None = None, context: DecodeContext | None = None) -> None:
        self.builder: StreamBuilder = builder if builder is not None else StreamBuilder(emit=True)
        self.context: DecodeContext = context if context is not None else DecodeContext(PROVIDER)
        self.position = -1
        self.started = False
        self.next_index = 0
        self.message_id: str | None = None
        """The answer's message id: the first message a part came from."""
        self.open: dict[tuple[str, str], PartBuilder] = {}
        """The parts still open, by kind (``text``, ``thinking``, ``call``) and their message's or call's id."""
        self.ending: dict[tuple[str, str], tuple[PartBuilder, dict[str, Any]]] = {}
        """Parts whose end came, closed at the next event (an encrypted value may follow the end)."""
        self.brackets: dict[str, dict[str, Any]] = {}
        """``REASONING_START``s awaiting their reasoning message: their fields beyond the id."""
        self.waiting: dict[tuple[str, str], dict[str, Any]] = {}
        """Text messages started with nothing but their ids: a part once their content comes (an
        empty one names the answer's message, as a writer ends reasoning alone)."""
        self.chunks: list[tuple[str, str]] = []
        """Parts opened by chunk events: closed by the first event of another kind."""
        self.calls = 0
        self.kept: list[dict[str, Any]] = []
        self.foreign: set[str] = set()
        """The ids of text messages of another role than the answer's."""
        self.finished = False

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """Read events into the builder (the whole stream, for ``accumulate_stream``)."""
        for event in events:
            self.position += 1
            read_event(self._read, event, self.position)

    def close(self) -> list[AnyStreamRecord]:
        """Close what is still open, give the kept events, and say whether the run ended."""
        self._close_all()
        self._give_kept()
        self.builder.stream_closed(STREAM_END)
        return self.builder.take_events()

    # --- one event ---------------------------------------------------------------------------

    def _read(self, payload: object) -> None:
        event = as_dict(payload)
        kind = None if event is None else event.get("type")
        if event is None or not isinstance(kind, str):
            raise StreamError("an AG-UI event is an object with a type", "$.type", self.position)
        if kind in ("REASONING_START", "REASONING_END") and self._bracket(kind, event):
            return
        if kind != "REASONING_ENCRYPTED_VALUE":
            self._close_ending()
        if self.chunks and not kind.endswith("_CHUNK"):
            self._close_chunks()
        if kind == "RUN_STARTED":
            self._start(_run_bag(event, ("type",)))
            return
        self._ensure_started()
        piece = _PIECES.get(kind)
        if piece is not None and not self._foreign(piece[0], event):
            self._piece(piece[0], kind.rsplit("_", 1)[1], event, piece[1])
        elif kind == "REASONING_ENCRYPTED_VALUE":
            self._encrypted(event)
        elif kind == "RUN_FINISHED":
            self._finish(event)
        elif kind == "RUN_ERROR":
            self._error(event)
        elif kind != "REASONING_END" or not set(event) <= {"type", "messageId"}:
            self.kept.append(dict(event))  # builds no part (a user's text streamed, a result, a state...)
        # else: a bare end of reasoning that ended already says nothing

    def _bracket(self, kind: str, event: dict[str, Any]) -> bool:
        """A ``REASONING_START`` or ``REASONING_END`` around a reasoning message: the thinking
        part stands for it, its other fields (a timestamp) in the part's bag (``reasoningStart``,
        ``reasoningEnd``); False for one the reader keeps as an event (no reasoning message of
        its id came, or came already)."""
        message_id = event.get("messageId")
        if not isinstance(message_id, str):
            return False
        extra = _bag(event, ("type", "messageId"))
        if kind == "REASONING_START":
            if ("thinking", message_id) in self.open:
                return False
            self.brackets[message_id] = extra
            return True
        ending = self.ending.get(("thinking", message_id))
        if ending is None:
            return False
        if extra:
            ending[1]["reasoningEnd"] = extra
        self._close_ending()
        return True

    def _foreign(self, kind: str, event: dict[str, Any]) -> bool:
        """Whether a text event is of a message no answer holds (a user's or system's text
        streamed back): kept whole, with the events of the same message after it."""
        if kind != "text":
            return False
        message_id = event.get("messageId")
        if event.get("role") not in (None, "assistant") and isinstance(message_id, str):
            self.foreign.add(message_id)
        return isinstance(message_id, str) and message_id in self.foreign

    def _ensure_started(self) -> None:
        if not self.started:
            self._start({})

    def _start(self, bag: dict[str, Any]) -> None:
        if self.started:  # a second run's start: kept as an event
            self.kept.append({"type": "RUN_STARTED", **bag})
            return
        self.started = True
        self.builder.start(metadata={PROVIDER: bag} if bag else None)

    def _next(self) -> int:
        index = self.next_index
        self.next_index += 1
        return index

    def _message_of(self, message_id: str) -> str | None:
        """The id a text or call keeps of its assistant message: none for the answer's (the first
        one a text or call came from, which the message keeps as its ``id``, given at once so a
        writer of the run's events names the message by it; the one a writer made up is no data)."""
        if self.message_id is None:
            self.message_id = message_id
            if message_id != MADE_UP_ANSWER:
                self.builder.choice_data(0, message_metadata={PROVIDER: {"id": message_id}})
            return None
        return None if message_id == self.message_id else message_id

    # --- parts ------------------------------------------------------------------------------------

    def _piece(self, kind: str, step: str, event: dict[str, Any], id_key: str) -> None:
        """One step of a streamed text, reasoning or call: ``START``, ``CONTENT`` or ``ARGS``,
        ``END``, ``CHUNK`` (which opens the part when it is new and continues it after)."""
        part_id = event.get(id_key)
        if step == "CHUNK" and part_id is None:  # a chunk continues the last chunked part of its kind
            part_id = next((key[1] for key in reversed(self.chunks) if key[0] == kind), None)
        if not isinstance(part_id, str):
            raise StreamError(f"{event['type']}: a {id_key} (a string)", f"$.{id_key}", self.position)
        key = (kind, part_id)
        extra = _bag(event, _MAPPED[kind])
        if kind == "text" and step == "START" and not extra and key not in self.open:
            self._message_of(part_id)  # the answer's message, named even if it says nothing
            self.waiting[key] = event
            return
        waiting = self.waiting.pop(key, None)
        if waiting is not None:
            if step == "END" and not extra:
                return  # a message started and ended with nothing in it: no part
            self.open[key] = self._open(kind, part_id, waiting, {})
        if step in ("START", "CHUNK") and key not in self.open:
            self.open[key] = self._open(kind, part_id, event, extra if step == "START" else {})
            if step == "CHUNK":
                self.chunks.append(key)
                extra = {}
            else:
                return
        part = self.open.get(key)
        if part is None:
            why = f"{event['type']} for {part_id!r}, which no start opened"
            raise StreamError(why, f"$.{id_key}", self.position)
        if step == "END":  # its other fields (a timestamp) in the part's bag, under "end"
            self.ending[key] = (self.open.pop(key), {"end": extra} if extra else {})
            return
        delta = event.get("delta", "" if step == "CHUNK" else None)
        if not isinstance(delta, str):
            raise StreamError(f"{event['type']}: a delta (a string)", "$.delta", self.position)
        if delta:
            self.builder.delta(part, delta, {PROVIDER: extra} if extra else None)

    def _open(self, kind: str, part_id: str, event: dict[str, Any], extra: dict[str, Any]) -> PartBuilder:
        # the start event's other fields (a timestamp) under "start", as its end's are under "end":
        # an event's fields, which a message list written from the answer reports, not writes
        bag: dict[str, Any] = {"start": dict(extra)} if extra else {}
        if kind == "call":
            name = event.get("toolCallName")
            if not isinstance(name, str):
                raise StreamError(f"{event['type']}: a toolCallName (a string)", "$.toolCallName", self.position)
            parent = event.get("parentMessageId")
            if isinstance(parent, str) and self._message_of(parent) is not None:
                bag[PARENT] = parent
            self.calls += 1
            metadata = {PROVIDER: bag} if bag else None
            return self.builder.open_tool_call(0, self._next(), id=part_id, name=name, metadata=metadata)
        if kind == "thinking":  # a reasoning message of its own: its id is the thinking part's, as in a history
            index = self._next()
            if part_id != made_up_reasoning_id(index):
                bag["id"] = part_id
            start = self.brackets.pop(part_id, None)
            if start:
                bag["reasoningStart"] = start
            return self.builder.open_thinking(0, index, metadata={PROVIDER: bag} if bag else None)
        other = self._message_of(part_id)
        if other is not None:
            bag["messageId"] = other
        return self.builder.open_text(0, self._next(), {PROVIDER: bag} if bag else None)

    def _error(self, event: dict[str, Any]) -> None:
        message = _string(event, "message", self.position)
        code = _optional(event, "code", self.position)
        self._close_all()
        self._give_kept()
        self.builder.error(ErrorRecord(message=message, error_type=code, body=event))

    def _encrypted(self, event: dict[str, Any]) -> None:
        """A ``REASONING_ENCRYPTED_VALUE``: the payload of the thinking or call that just ended."""
        subtype, entity = event.get("subtype"), event.get("entityId")
        value = event.get("encryptedValue")
        key = ("thinking" if subtype == "message" else "call", entity if isinstance(entity, str) else "")
        ending = self.ending.pop(key, None)
        if ending is None or not isinstance(value, str):
            self._close_ending()
            self.kept.append(dict(event))
            return
        part, bag = ending
        extra = _bag(event, ("type", "subtype", "entityId", "encryptedValue"))
        if extra:  # its other fields (a timestamp) in the part's bag, under "encrypted"
            bag["encrypted"] = extra
        if key[0] == "call":
            bag["encryptedValue"] = value
        self.builder.close(part, encrypted=value if key[0] == "thinking" else None, metadata=_metadata(bag))
        self._close_ending()

    # --- the end ----------------------------------------------------------------------------------

    def _finish(self, event: dict[str, Any]) -> None:
        self._ensure_started()
        self._close_all()
        usage, entries = _usage(event.get("usage"))
        bag = _run_bag(event, ("type", "usage", "outcome"))
        if entries is not None:
            bag["usage"] = entries
        outcome = as_dict(event.get("outcome"))
        if event.get("outcome") is not None:
            bag["outcome"] = event["outcome"]
        raw = outcome.get("type") if outcome is not None else None
        if usage:
            self.builder.usage(usage)
        self._give_kept()
        reason = {"unified": "tool_calls" if self.calls else "stop"}
        if isinstance(raw, str):
            reason["raw"] = raw
        self.builder.finish(0, reason, {PROVIDER: bag} if bag else None)
        self.finished = True
        self.builder.end()

    def _give_kept(self) -> None:
        for message_id, extra in self.brackets.items():  # reasoning started, its message never came
            self.kept.append({"type": "REASONING_START", "messageId": message_id, **extra})
        self.brackets = {}
        message: dict[str, Any] = {}
        if self.kept:
            message[EVENTS] = self.kept
            self.kept = []
        if message and self.started:
            self.builder.choice_data(0, message_metadata={PROVIDER: message})

    def _close_ending(self) -> None:
        for part, bag in self.ending.values():
            self.builder.close(part, metadata=_metadata(bag))
        self.ending = {}

    def _close_chunks(self) -> None:
        for key in self.chunks:
            part = self.open.pop(key, None)
            if part is not None:
                self.builder.close(part)
        self.chunks = []

    def _close_all(self) -> None:
        self._close_ending()
        for part in self.open.values():
            self.builder.close(part)
        self.open, self.waiting = {}, {}
        self.chunks = []


def _metadata(bag: dict[str, Any]) -> dict[str, Any] | None:
    return {PROVIDER: bag} if bag else None


def _bag(event: dict[str, Any], mapped: tuple[str, ...]) -> dict[str, Any]:
    """An event's fields beyond ``mapped`` (its timestamp, raw event, metadata...)."""
    return {key: value for key, value in event.items() if key not in mapped}


def _run_bag(event: dict[str, Any], mapped: tuple[str, ...]) -> dict[str, Any]:
    """A run event's fields beyond ``mapped``, without the thread and run a writer made up."""
    return {key: value for key, value in _bag(event, mapped).items() if MADE_UP_RUN.get(key) != value}


def _string(event: dict[str, Any], key: str, position: int) -> str:
    value = event.get(key)
    if not isinstance(value, str):
        raise StreamError(f"{event['type']}: a {key} (a string)", f"$.{key}", position)
    return value


def _optional(event: dict[str, Any], key: str, position: int) -> str | None:
    return None if event.get(key) is None else _string(event, key, position)


def _usage(value: object) -> tuple[dict[str, Any], list[Any] | None]:
    """A run's ``usage`` (a ``TokenUsage`` per model call) as canonical counts, summed, and the
    entries to keep whole (none when the one entry holds only counts the canonical usage has)."""
    entries = as_list(value)
    if not entries:
        return {}, None if value is None else [] if entries == [] else None
    counts: dict[str, Any] = {}
    plain = len(entries) == 1
    for item in entries:
        entry = as_dict(item) or {}
        for key, name in _USAGE.items():
            count = entry.get(key)
            if type(count) is int and count >= 0:
                counts[name] = counts.get(name, 0) + count
        total = entry.get("totalTokens")
        summed = sum(entry.get(key) or 0 for key in ("inputTokens", "outputTokens"))
        plain = plain and set(entry) <= {*_USAGE, "totalTokens"} and total in (None, summed)
    return counts, None if plain else entries
