"""``accumulate_stream`` for ``chat.completion.chunk`` streams, without an event per delta.

The general path (``stream.decode_stream``, then :class:`~chatcodec.StreamAccumulator`)
validates every chunk with a pydantic adapter and builds a validated event model for
every delta: tens of times the cost of appending the delta strings to a list. Here the
chunks are read straight from the parsed dicts, the type of every value read checked
inline as the adapter's strict rules check it, and delta text goes to plain lists. Only
what shapes the response (its start, a new part, a finish, usage) becomes a canonical
event, built as ``stream.py`` builds it and fed to a real accumulator, which also builds
and validates the final response; a part's buffered deltas reach it as one delta.

Two tiers. A chunk that only continues an open part (one choice, one delta field, no
finish, no usage) is read on a short path: :meth:`_Walker.continues` says why its other
fields need no look. Every other chunk is read strictly, each of its keys one handled
here. Anything else falls back: an ``error`` object, refusals, ``logprobs`` or other
unknown fields on a chunk that starts or ends something, ``reasoning_details``, Mistral
content lists, a chunk field that changes mid-stream, a value of another type, or
anything the general path would reject. Every chunk seen so far and the rest of the
stream are then replayed through the general path, so the result, or the error with its
message and path, is exactly the general path's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

import pydantic_core
from pydantic import TypeAdapter
from typing_extensions import TypeIs

from chatcodec.accumulator import StreamAccumulator
from chatcodec.errors import StreamError
from chatcodec.providers._fast_accumulation import UnhandledError, accumulate_or_replay
from chatcodec.providers.kit import mark_absent
from chatcodec.providers.openai_chat.finish_reason import decode_finish_reason
from chatcodec.providers.openai_chat.markers import PROVIDER
from chatcodec.providers.openai_chat.stream import CHUNK_OBJECT, decode_stream
from chatcodec.providers.openai_chat.usage import decode_usage
from chatcodec.providers.openai_chat.wire import WireUsage
from chatcodec.response import ChatResponse, FinishReason
from chatcodec.stream_events import (
    AnyStreamEvent,
    FinishEvent,
    ResponseStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    UsageEvent,
)

_Json = dict[str, Any] | list[Any] | str | int | float | bool | None
"""A value read from a parsed chunk, before its type is checked."""

_CHUNK_KEYS = frozenset(
    {"id", "object", "created", "model", "system_fingerprint", "service_tier", "usage", "choices", "obfuscation"}
)
_MAPPED = frozenset({"id", "object", "created", "model", "choices", "usage", "obfuscation"})
"""Chunk keys that never reach the start event's bag (``object`` only as the chunk object)."""
_CHOICE_KEYS = frozenset({"index", "delta", "finish_reason", "logprobs"})
_DELTA_KEYS = frozenset(
    {"role", "content", "refusal", "reasoning_content", "reasoning", "reasoning_details", "tool_calls"}
)
_NULL_ONLY = frozenset({"refusal", "reasoning_details"})
"""Delta keys handled only when ``null`` (the general path reads nothing from them then)."""
_FRAGMENT_KEYS = frozenset({"index", "id", "type", "function"})
_FUNCTION_KEYS = frozenset({"name", "arguments"})
_USAGE_ADAPTER: TypeAdapter[WireUsage] = TypeAdapter(WireUsage)
_NAMES = itemgetter("id", "model", "object")
_CHOICE = itemgetter("index", "delta")
_FRAGMENT = itemgetter("index", "function")
_MISSING = object()

_DELTA_EVENTS = {"text": TextDeltaEvent, "thinking": ThinkingDeltaEvent, "tool_use": ToolCallDeltaEvent}
_END_EVENTS = {"text": TextEndEvent, "thinking": ThinkingEndEvent, "tool_use": ToolCallEndEvent}


def accumulate_stream(payloads: Iterable[dict[str, Any]]) -> ChatResponse:
    """The response the chunks accumulate to: what ``decode_stream`` followed by
    :class:`~chatcodec.StreamAccumulator` gives (or raises), in a fraction of the time."""
    return accumulate_or_replay(payloads, _Walker(), decode_stream)


@dataclass(slots=True)
class _Call:
    """A tool call: the id and name it started with, its buffered argument fragments."""

    id: str
    name: str
    fragments: list[str]

    def same(self, fragment: dict[str, Any]) -> bool:
        """Whether ``fragment``, which names this call's index, continues it: its id and
        name are absent, empty or this call's, each field typed as the wire adapter types it
        (the general path starts a new call on a new id, and refuses a new name)."""
        call_id: _Json = fragment.get("id")
        kind: _Json = fragment.get("type")
        function: _Json = fragment.get("function")
        name: _Json = function.get("name") if type(function) is dict else None
        return (
            _text_or_none(call_id)
            and _text_or_none(name)
            and _text_or_none(kind)
            and (not call_id or call_id == self.id)
            and (not name or name == self.name)
        )


@dataclass(slots=True)
class _Choice:
    """What ``stream._Choice`` tracks for the shapes read here (which part each wire field
    feeds is in :attr:`_Walker.open` and :attr:`_Walker.calls`)."""

    next_index: int = 0
    parts: list[tuple[str, int, list[str]]] = field(default_factory=list[tuple[str, int, list[str]]])
    """Kind, index and buffered deltas of every part, in order; all open until the finish."""
    pending_text: bool = False
    finished: bool = False


class _Walker:
    """Reads chunks into an accumulator: :meth:`continues` takes the common chunk,
    :meth:`feed` any other."""

    def __init__(self) -> None:
        self.accumulator = StreamAccumulator()
        self.started = False
        self.names: tuple[Any, ...] | None = None
        """``id``, ``model`` and ``object`` of the first chunk, when it has all three."""
        self.fingerprint: object = _MISSING
        self.tier: object = _MISSING
        self.choices: dict[int, _Choice] = {}
        self.open: dict[tuple[int, str], list[str]] = {}
        """(choice, wire field) -> buffered deltas of the part an unfinished choice's
        ``content``, ``reasoning_content`` or ``reasoning`` feeds."""
        self.calls: dict[tuple[int, int], _Call] = {}
        """(choice, wire tool-call index) -> the call, while the choice is unfinished."""

    def continues(self, chunk: dict[str, Any]) -> bool:
        """Append the delta of a chunk that only continues an open part; False, changing
        nothing, for any other chunk. Never raises: this runs for nearly every chunk.

        Such a chunk (one choice, one delta field, no finish, no usage) reaches the
        response through its delta text alone. The general path keeps the other chunk
        fields only on a finish or usage event (as ``_chunk``), and a choice's or delta's
        other fields (``logprobs``, Groq ``channel``) on the delta event, whose metadata
        the accumulator never reads; the wire adapter lets any value through for them.
        So only what the adapter types is checked, ``id``, ``model`` and ``object`` by
        equality with the first chunk's (which were checked).
        """
        if type(chunk) is not dict:
            return False
        number: _Json
        delta: _Json
        try:
            choices: _Json = chunk["choices"]
            if (
                type(choices) is not list
                or len(choices) != 1
                or _NAMES(chunk) != self.names
                or type(chunk.get("created", 0)) is not int
                or "error" in chunk
                or chunk.get("usage") is not None
            ):
                return False
            wire_choice: _Json = choices[0]
            number, delta = _CHOICE(choices[0])
        except (KeyError, TypeError):  # a key missing, or not a dict
            return False
        if (
            type(wire_choice) is not dict
            or type(number) is not int
            or type(delta) is not dict
            or wire_choice.get("finish_reason") is not None
        ):
            return False
        if len(delta) == 1:
            [(wire_field, value)] = delta.items()
        else:
            wire_field, value = _only_field(delta)
        if wire_field == "tool_calls":
            return self._continues_call(number, value)
        fragments = self.open.get((number, wire_field))
        if fragments is None or type(value) is not str or not value:
            return False
        fragments.append(value)
        return True

    def _continues_call(self, number: int, fragments: _Json) -> bool:
        """Append the arguments of a lone fragment continuing a call already started (the
        same or no id and name, as the general path reads them)."""
        if type(fragments) is not list or len(fragments) != 1:
            return False
        fragment: _Json = fragments[0]
        key: _Json
        function: _Json
        try:
            key, function = _FRAGMENT(fragments[0])
        except (KeyError, TypeError):
            return False
        if type(fragment) is not dict or type(key) is not int or type(function) is not dict:
            return False
        call = self.calls.get((number, key))
        if call is None:
            return False
        arguments: _Json = function.get("arguments")
        if type(arguments) is not str or ((len(fragment) != 2 or len(function) != 1) and not call.same(fragment)):
            return False
        call.fragments.append(arguments)
        return True

    def feed(self, chunk: dict[str, Any]) -> bool:
        """Take any chunk, strictly; False when the stream needs the general path."""
        try:
            self._chunk(chunk)
        except (UnhandledError, StreamError, pydantic_core.ValidationError):
            return False
        return True

    def response(self) -> ChatResponse:
        """Hand over the deltas still buffered, then build and validate the response."""
        for number, state in self.choices.items():
            self._flush(state, number)
        return self.accumulator.response()

    # --- every other chunk, read strictly -------------------------------------------------

    def _chunk(self, chunk: dict[str, Any]) -> None:
        """A chunk whose keys and values are all checked; a later chunk's
        ``system_fingerprint`` and ``service_tier`` must repeat the first's (the general
        path would keep a change as ``_chunk`` metadata)."""
        if type(chunk) is not dict or not chunk.keys() <= _CHUNK_KEYS:
            raise UnhandledError
        choices: _Json = chunk.get("choices")
        if (
            type(choices) is not list
            or type(chunk.get("id", "")) is not str
            or type(chunk.get("model", "")) is not str
            or type(chunk.get("created", 0)) is not int
            or chunk.get("object", CHUNK_OBJECT) != CHUNK_OBJECT
        ):
            raise UnhandledError
        if not self.started:
            self._open_response(chunk)
        elif (
            chunk.get("system_fingerprint", self.fingerprint) != self.fingerprint
            or chunk.get("service_tier", self.tier) != self.tier
        ):
            raise UnhandledError
        for wire_choice in choices:
            self._choice(wire_choice)
        if chunk.get("usage") is not None:
            self._usage(chunk["usage"])

    def _open_response(self, chunk: dict[str, Any]) -> None:
        """The start event ``stream._Decoder._chunk_fields`` makes of the first chunk."""
        if type(chunk.get("object", CHUNK_OBJECT)) is not str:
            raise UnhandledError
        fields = {key: value for key, value in chunk.items() if key not in _MAPPED}
        if any(value is not None and type(value) is not str for value in fields.values()):
            raise UnhandledError
        self.started = True
        if all(key in chunk for key in ("id", "model", "object")):
            self.names = _NAMES(chunk)
        self.fingerprint = fields.get("system_fingerprint", _MISSING)
        self.tier = fields.get("service_tier", _MISSING)
        bag = dict(fields)
        mark_absent(bag, chunk, "id", "object", "created", "model")
        known = {key: chunk[key] for key in ("id", "model", "created") if key in chunk}
        self._add(ResponseStartEvent(**known, provider_metadata={PROVIDER: bag} if bag else None))

    def _usage(self, usage: _Json) -> None:
        """Usage is rare (a chunk a stream), so it is checked by the adapter's own rules,
        which also order its keys as the general path's bag has them."""
        wire = dict(_USAGE_ADAPTER.validate_python(usage))
        self._add(UsageEvent.model_validate({"usage": decode_usage(wire)}))

    def _choice(self, wire_choice: _Json) -> None:
        if type(wire_choice) is not dict or not wire_choice.keys() <= _CHOICE_KEYS:
            raise UnhandledError
        number: _Json = wire_choice.get("index")
        delta: _Json = wire_choice.get("delta")
        finish: _Json = wire_choice.get("finish_reason")
        if (
            type(number) is not int
            or number < 0
            or type(delta) is not dict
            or wire_choice.get("logprobs") is not None
            or not _text_or_none(finish)
        ):
            raise UnhandledError
        state = self.choices.get(number)
        if state is None:
            state = self.choices[number] = _Choice()
        content, reasoning_content, reasoning, tool_calls = _read_delta(delta)
        if state.finished:
            if finish is not None or content or reasoning_content or reasoning or tool_calls:
                raise UnhandledError  # the general path's "continues after its finish_reason"
            return
        if reasoning_content:
            self._part(state, number, "reasoning_content").append(reasoning_content)
        if reasoning and reasoning != reasoning_content:  # an equal one only repeats it (vLLM)
            self._part(state, number, "reasoning").append(reasoning)
        if content:
            self._part(state, number, "content").append(content)
        elif content == "" and (number, "content") not in self.open:
            state.pending_text = True  # created where the non-streamed message has it
        for fragment in tool_calls or ():
            self._tool_call(state, number, fragment)
        if finish is not None:
            self._finish(state, number, finish)

    def _tool_call(self, state: _Choice, number: int, fragment: _Json) -> None:
        if type(fragment) is not dict or not fragment.keys() <= _FRAGMENT_KEYS:
            raise UnhandledError
        key: _Json = fragment.get("index")
        call_id: _Json = fragment.get("id")
        function: _Json = fragment.get("function")
        if function is None:
            function = {}
        if type(key) is not int or type(function) is not dict or not function.keys() <= _FUNCTION_KEYS:
            raise UnhandledError
        name: _Json = function.get("name")
        arguments: _Json = function.get("arguments")
        if not (_text_or_none(call_id) and _text_or_none(name) and _text_or_none(fragment.get("type"))):
            raise UnhandledError
        call = self.calls.get((number, key))
        if call is None or (call_id and call_id != call.id):
            call = self.calls[number, key] = self._start_call(state, number, "type" in fragment, call_id, name)
        elif name and name != call.name:
            raise UnhandledError  # the general path's "changed its name"
        if not _text_or_none(arguments):
            raise UnhandledError
        if arguments:
            call.fragments.append(arguments)

    # --- parts -----------------------------------------------------------------------------

    def _take(self, state: _Choice, kind: str) -> tuple[int, list[str]]:
        """The next part index of ``state``, and the list its deltas go to."""
        index = state.next_index
        state.next_index += 1
        fragments: list[str] = []
        state.parts.append((kind, index, fragments))
        return index, fragments

    def _part(self, state: _Choice, number: int, wire_field: str) -> list[str]:
        """The buffer of the part ``wire_field`` (``content`` or a reasoning field) feeds,
        started (as ``stream._Decoder._text`` and ``_thinking_text`` do) if need be."""
        fragments = self.open.get((number, wire_field))
        if fragments is not None:
            return fragments
        if wire_field == "content":
            index, fragments = self._take(state, "text")
            state.pending_text = False
            self._add(TextStartEvent(index=index, choice=number))
        else:
            index, fragments = self._take(state, "thinking")
            metadata: dict[str, dict[str, Any]] = {PROVIDER: {"field": wire_field}}
            self._add(ThinkingStartEvent(index=index, choice=number, provider=PROVIDER, provider_metadata=metadata))
        self.open[number, wire_field] = fragments
        return fragments

    def _start_call(self, state: _Choice, number: int, typed: bool, call_id: _Json, name: _Json) -> _Call:
        if type(call_id) is not str or type(name) is not str:
            raise UnhandledError  # the general path's "never started (no id and name)"
        self._settle(state, number)
        index, fragments = self._take(state, "tool_use")
        metadata: dict[str, dict[str, Any]] | None = None if typed else {PROVIDER: {"_absent": ["type"]}}
        self._add(ToolCallStartEvent(index=index, choice=number, id=call_id, name=name, provider_metadata=metadata))
        return _Call(call_id, name, fragments)

    def _settle(self, state: _Choice, number: int) -> None:
        """Create the empty text part announced by ``content: ""`` now that its place is known."""
        if state.pending_text and (number, "content") not in self.open:
            self._part(state, number, "content")

    def _finish(self, state: _Choice, number: int, finish: str) -> None:
        self._settle(state, number)
        self._flush(state, number)
        for kind, index, _ in state.parts:
            self._add(_END_EVENTS[kind](index=index, choice=number))
        state.parts = []
        state.finished = True
        self.open = {key: fragments for key, fragments in self.open.items() if key[0] != number}
        self.calls = {key: call for key, call in self.calls.items() if key[0] != number}
        marker: dict[str, Any] = {}
        reason = FinishReason(**(decode_finish_reason(finish, marker) or {}))
        metadata = {PROVIDER: marker} if marker else None
        self._add(FinishEvent(choice=number, finish_reason=reason, provider_metadata=metadata))

    def _flush(self, state: _Choice, number: int) -> None:
        """Hand each part's buffered deltas to the accumulator as one delta."""
        for kind, index, fragments in state.parts:
            if fragments:
                self._add(_DELTA_EVENTS[kind](index=index, choice=number, delta="".join(fragments)))
                fragments.clear()

    def _add(self, event: AnyStreamEvent) -> None:
        self.accumulator.add(event)


def _only_field(delta: dict[str, Any]) -> tuple[str, _Json]:
    """The one field of ``delta`` that says something, or ``("", None)``: null fields and
    unknown ones carry nothing into the response (see :meth:`_Walker.continues`)."""
    found: tuple[str, _Json] = ("", None)
    for key, value in delta.items():
        if value is None or key not in _DELTA_KEYS:
            continue
        if found[0]:
            return ("", None)
        found = (key, value)
    return found


def _read_delta(delta: dict[str, Any]) -> tuple[str | None, str | None, str | None, list[Any] | None]:
    """``content``, ``reasoning_content``, ``reasoning`` and ``tool_calls`` of a delta whose
    every key is handled here."""
    content: _Json = None
    reasoning_content: _Json = None
    reasoning: _Json = None
    tool_calls: _Json = None
    for key, value in delta.items():
        if key == "content":
            content = value
        elif key == "tool_calls":
            tool_calls = value
        elif key == "reasoning_content":
            reasoning_content = value
        elif key == "reasoning":
            reasoning = value
        elif key != "role" and (key not in _NULL_ONLY or value is not None):
            raise UnhandledError
    if (
        not (_text_or_none(content) and _text_or_none(reasoning_content) and _text_or_none(reasoning))
        or not _text_or_none(delta.get("role"))  # read by nothing, but typed by the adapter
        or (tool_calls is not None and type(tool_calls) is not list)
    ):
        raise UnhandledError
    return content, reasoning_content, reasoning, tool_calls


def _text_or_none(value: object) -> TypeIs[str | None]:
    return value is None or type(value) is str
