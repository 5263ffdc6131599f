"""How a provider frames its stream on the wire, push-style both ways.

A stream is wire events (dicts) inside a framing, and the framing is the provider's
fact, in its edge (``Edge.framing``, read from ``_providers/<name>/stream_framing.py``
without the rest of the edge: :func:`~chatcodec._registry.get_framing`): SSE (with ``event:``
names or without, a ``[DONE]``-style sentinel or none, LF or CRLF line ends), one JSON
array whose items arrive over time (Gemini without ``alt=sse``), AWS event-stream binary
messages (:mod:`chatcodec.streams._event_stream`), or JSON Lines. A provider without an edge is
refused (:func:`~chatcodec._registry.get_edge`), never framed as another provider's.

:class:`WireEventReader` turns bytes (split anywhere) into wire events as they complete;
:class:`WireEventWriter` turns wire events into the bytes a client of that API reads;
:func:`to_sse` is the text form (JSON Lines for a server that does not speak SSE).
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, cast

from chatcodec._errors import StreamError
from chatcodec._payloads import JSONValueError, read_json_text
from chatcodec._providers.contract.framing import Framing, StreamFraming
from chatcodec._public_label import shown_as
from chatcodec._registry import get_framing
from chatcodec.streams._sse import SSEParser, as_typed_error, decode_utf8_chunk, format_sse

if TYPE_CHECKING:
    from chatcodec.streams._event_stream import EventStreamParser

__all__ = ["Framing", "WireEventReader", "WireEventWriter", "default_framing", "to_sse"]

_DONE = "[DONE]"
"""OpenAI's sentinel: read as the end of any SSE stream (compatible servers send it too)."""
_MEDIA_TYPES: dict[Framing, str] = {
    "sse": "text/event-stream",
    "json-array": "application/json",
    "event-stream": "application/vnd.amazon.eventstream",
    "jsonl": "application/jsonl",
}


def default_framing(provider: str) -> Framing:
    """The framing ``provider``'s own server sends (Gemini's with ``alt=sse``)."""
    return get_framing(provider).framing


_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
"""An event as compact JSON: one encoder made once (``json.dumps`` with options builds
a new encoder on every call, about a quarter of writing a small event)."""


def to_sse(provider: str, wire_events: Iterable[dict[str, Any]]) -> Iterator[str]:
    """``provider``'s wire events as the text its server sends: SSE as its edge frames it
    (named events for Anthropic and Responses, ``[DONE]`` after OpenAI Chat's chunks, CRLF
    for Gemini), or JSON Lines for a server that does not speak SSE (Bedrock)."""
    return _text(get_framing(provider), wire_events)


def _text(framing: StreamFraming, wire_events: Iterable[dict[str, Any]]) -> Iterator[str]:
    if framing.text == "jsonl":
        for event in wire_events:
            yield _json(event) + "\n"
        return
    for event in wire_events:
        yield _sse_event(framing, event)
    if framing.done is not None:
        yield format_sse(framing.done, line_end=framing.line_end)


def _sse_event(framing: StreamFraming, event: dict[str, Any]) -> str:
    name = str(event.get(framing.name_key, "message")) if framing.named_events else None
    return format_sse(_json(event), name, line_end=framing.line_end)


class WireEventWriter:
    """Wire events to bytes in ``provider``'s framing (or ``framing``), one event at a time."""

    def __init__(self, provider: str, framing: Framing | None = None) -> None:
        self._framing: Framing = framing or default_framing(provider)
        self._sse = get_framing(provider) if self._framing == "sse" else None
        self._written = 0

    @property
    def media_type(self) -> str:
        """The ``Content-Type`` of the framed stream."""
        return _MEDIA_TYPES[self._framing]

    def write(self, event: dict[str, Any]) -> bytes:
        """The bytes of one wire event."""
        self._written += 1
        match self._framing:
            case "sse":
                assert self._sse is not None, "an SSE writer holds its provider's framing"
                return _sse_event(self._sse, event).encode()
            case "json-array":
                return (("[" if self._written == 1 else ",\r\n") + _json(event)).encode()
            case "event-stream":
                from chatcodec.streams._event_stream import encode_event_message  # AWS's binary framing only

                return encode_event_message(event)
            case "jsonl":
                return (_json(event) + "\n").encode()

    def close(self) -> bytes:
        """What ends the stream: a sentinel (OpenAI's ``[DONE]``), the JSON array's ``]``."""
        if self._framing == "json-array":
            return b"]" if self._written else b"[]"
        if self._sse is not None and self._sse.done is not None:
            return format_sse(self._sse.done, line_end=self._sse.line_end).encode()
        return b""


def _binary_parser() -> EventStreamParser:
    """AWS event-stream's parser, its module (``zlib``, ``struct``, ``binascii``) imported for
    that framing only: an SSE or JSON stream loads none of it."""
    from chatcodec.streams._event_stream import EventStreamParser

    return EventStreamParser()


class WireEventReader:
    """Bytes in ``provider``'s framing (or ``framing``) to wire events, push-style: ``feed``
    chunks split anywhere, ``close`` at the end. OpenAI's ``[DONE]`` ends the events of any
    SSE stream; an SSE ``event: error`` whose data names no kind of its own is wrapped as
    ``{"type": "error", "error": data}`` (:func:`~chatcodec.streams._sse.as_typed_error`), as
    :func:`~chatcodec.streams._sse.iter_sse_json` does."""

    def __init__(self, provider: str, framing: Framing | None = None) -> None:
        self._framing: Framing = framing or default_framing(provider)
        self._sse = SSEParser()
        self._binary = _binary_parser() if self._framing == "event-stream" else None
        self._text = codecs.getincrementaldecoder("utf-8")()
        self._items = _JsonItems()
        self._done = False
        self._count = 0
        self._read = 0  # bytes of a text framing decoded so far, for an error's byte offset

    def feed(self, chunk: bytes) -> list[dict[str, Any]]:
        """The wire events ``chunk`` completes."""
        if self._done:
            return []
        if self._framing == "event-stream":
            assert self._binary is not None  # made for this framing
            return self._counted(self._binary.feed(chunk))
        if self._framing == "sse":
            return self._from_sse(self._sse.feed(chunk))
        text = decode_utf8_chunk(self._text, chunk, self._read)
        self._read += len(chunk)
        return self._json_items(text, final=False)

    def close(self) -> list[dict[str, Any]]:
        """The events still owed when the body ends."""
        if self._done:
            return []
        if self._framing == "event-stream":
            assert self._binary is not None  # made for this framing
            return self._counted(self._binary.close())
        if self._framing == "sse":
            return self._from_sse(self._sse.close())
        return self._json_items(decode_utf8_chunk(self._text, b"", self._read, final=True), final=True)

    def _counted(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        self._count += len(events)
        return events

    def _from_sse(self, events: Iterable[Any]) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for event in events:
            data = event.data.strip()
            if not data:
                continue
            if data == _DONE:
                self._done = True
                break
            found.append(as_typed_error(event.event, self._object(data)))
        return self._counted(found)

    def _json_items(self, text: str, *, final: bool) -> list[dict[str, Any]]:
        """Complete items of a JSON array (or lines of JSON Lines) that ``text`` completes."""
        found = [self._object(item) for item in self._items.feed(text)]
        if final and self._items.open:
            raise StreamError("the stream ends inside a JSON value", "$", self._count)
        return self._counted(found)

    def _object(self, text: str) -> dict[str, Any]:
        try:
            parsed: object = read_json_text(text)
        except ValueError as error:
            raise StreamError(f"event data is not valid JSON ({_reason(error)})", "$", self._count) from None
        if not isinstance(parsed, dict):
            raise StreamError(f"event data is a JSON {type(parsed).__name__}, not an object", "$", self._count)
        return cast("dict[str, Any]", parsed)


def _reason(error: ValueError) -> str:
    """What is wrong with an event's JSON, without the text (an answer's content)."""
    if isinstance(error, JSONValueError):
        return str(error)
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at column {error.colno}"
    return type(error).__name__


_SEPARATORS = " \t\r\n,[]\ufeff"
"""What lies between the items of a JSON array (its brackets, commas, white space) or
between JSON Lines."""
_STRUCTURE = re.compile(r'["{}\[\]]')
_IN_STRING = re.compile(r'["\\]')


class _JsonItems:
    """The items of a JSON array (or JSON Lines) as texts, from text fed in pieces.

    Each piece is scanned once, resuming where the last one stopped (inside a string,
    after a backslash, at a bracket depth), and an item is parsed once, when its closing
    brace arrives: one huge item sent in tiny chunks is linear work, not a re-parse of
    the unfinished item on every chunk (Gemini's ``streamGenerateContent`` without
    ``alt=sse`` sends one array whose items can be megabytes of inline media). A value
    that is not an object is passed on whole, up to the next separator, for the caller
    to refuse."""

    def __init__(self) -> None:
        self._pieces: list[str] = []  # the unfinished item's text so far
        self._depth = 0
        self._in_string = False
        self._escaped = False

    @property
    def open(self) -> bool:
        """Whether an item has begun and not ended."""
        return bool(self._pieces)

    def head(self) -> str:
        """The start of the unfinished item, for an error message."""
        return "".join(self._pieces)[:80]

    def feed(self, text: str) -> Iterator[str]:
        position = 0
        while position < len(text):
            start = position
            if not self._pieces:  # between items
                while position < len(text) and text[position] in _SEPARATORS:
                    position += 1
                if position == len(text):
                    return
                start = position
                if text[position] != "{":
                    end = _scalar_end(text, position)
                    yield text[position:end]
                    position = end
                    continue
                self._depth, self._in_string, self._escaped = 1, False, False
                position += 1
            position = self._scan(text, position)
            if self._depth:
                self._pieces.append(text[start:])
                return
            item = "".join([*self._pieces, text[start:position]])
            self._pieces.clear()
            yield item

    def _scan(self, text: str, position: int) -> int:
        """Where the item ends in ``text`` (depth 0), or ``len(text)`` with the state to resume."""
        if self._escaped:
            self._escaped, position = False, position + 1
        while self._depth and position < len(text):
            found = (_IN_STRING if self._in_string else _STRUCTURE).search(text, position)
            if found is None:
                return len(text)
            character, position = found.group(), found.end()
            if character == "\\":
                self._escaped = position == len(text)
                position += 1
            elif character == '"':
                self._in_string = not self._in_string
            else:
                self._depth += 1 if character in "{[" else -1
        return min(position, len(text))


def _scalar_end(text: str, position: int) -> int:
    """The end of a value that is not an object (refused by the caller): the next separator."""
    while position < len(text) and text[position] not in _SEPARATORS:
        position += 1
    return position


shown_as("chatcodec", to_sse)
