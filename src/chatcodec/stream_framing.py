"""How each provider frames its stream on the wire, push-style both ways.

A stream is wire events (dicts) inside a framing, and the framing differs:

============================  ==================================================
``openai-chat``               SSE ``data: {json}`` lines, then ``data: [DONE]``
``anthropic``                 SSE with ``event: <type>`` before each ``data:``
``openai-responses``          SSE with ``event: <type>`` before each ``data:``
``gemini``                    SSE ``data:`` lines ended by CRLF (``?alt=sse``), or, without
                              ``alt=sse``, one JSON array whose items arrive over time
``bedrock-converse``          AWS event-stream binary messages (:mod:`chatcodec.event_stream`);
                              boto3 hands you the same events as dicts
============================  ==================================================

:class:`WireEventReader` turns bytes (split anywhere) into wire events as they complete;
:class:`WireEventWriter` turns wire events into the bytes a client of that API reads;
:func:`to_sse` is the text form for the SSE framings.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable, Iterator
from typing import Any, Literal, TypeAlias, cast

from chatcodec.errors import StreamError
from chatcodec.event_stream import EventStreamParser, encode_event_message
from chatcodec.payloads import loads
from chatcodec.sse import SSEParser, format_sse

__all__ = ["Framing", "WireEventReader", "WireEventWriter", "default_framing", "to_sse"]

Framing: TypeAlias = Literal["sse", "json-array", "event-stream", "jsonl"]
"""A stream's framing: SSE, Gemini's JSON array, AWS event-stream, or JSON Lines."""

_DONE = "[DONE]"
_NAMED_EVENTS = frozenset({"anthropic", "openai-responses"})
"""Formats whose SSE names each event (``event: <type>``)."""


def default_framing(provider: str) -> Framing:
    """The framing ``provider``'s own server sends (Gemini's with ``alt=sse``)."""
    return "event-stream" if provider == "bedrock-converse" else "sse"


def _json(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def to_sse(provider: str, wire_events: Iterable[dict[str, Any]]) -> Iterator[str]:
    """``provider``'s wire events as the SSE text its server sends: named events for
    Anthropic and Responses, ``[DONE]`` after OpenAI Chat's chunks, CRLF for Gemini.
    Bedrock has no SSE form; its events are written as JSON Lines."""
    if provider == "bedrock-converse":
        for event in wire_events:
            yield _json(event) + "\n"
        return
    line_end = "\r\n" if provider == "gemini" else "\n"
    named = provider in _NAMED_EVENTS
    for event in wire_events:
        yield format_sse(_json(event), str(event.get("type", "message")) if named else None, line_end=line_end)
    if provider == "openai-chat":
        yield format_sse(_DONE)


class WireEventWriter:
    """Wire events to bytes in ``provider``'s framing, one event at a time."""

    def __init__(self, provider: str, framing: Framing | None = None) -> None:
        self._provider = provider
        self._framing: Framing = framing or default_framing(provider)
        self._written = 0

    @property
    def media_type(self) -> str:
        """The ``Content-Type`` of the framed stream."""
        return {
            "sse": "text/event-stream",
            "json-array": "application/json",
            "event-stream": "application/vnd.amazon.eventstream",
            "jsonl": "application/jsonl",
        }[self._framing]

    def write(self, event: dict[str, Any]) -> bytes:
        """The bytes of one wire event."""
        self._written += 1
        match self._framing:
            case "sse":
                return "".join(to_sse(self._provider, [event])).removesuffix(format_sse(_DONE)).encode()
            case "json-array":
                return (("[" if self._written == 1 else ",\r\n") + _json(event)).encode()
            case "event-stream":
                return encode_event_message(event)
            case "jsonl":
                return (_json(event) + "\n").encode()

    def close(self) -> bytes:
        """What ends the stream: OpenAI's ``[DONE]``, the JSON array's ``]``."""
        if self._framing == "json-array":
            return b"]" if self._written else b"[]"
        if self._framing == "sse" and self._provider == "openai-chat":
            return format_sse(_DONE).encode()
        return b""


class WireEventReader:
    """Bytes in ``provider``'s framing to wire events, push-style: ``feed`` chunks split
    anywhere, ``close`` at the end. OpenAI's ``[DONE]`` ends the events; an SSE ``event:
    error`` whose data has no ``type`` is wrapped as ``{"type": "error", "error": data}``,
    as :func:`~chatcodec.sse.iter_sse_json` does."""

    def __init__(self, provider: str, framing: Framing | None = None) -> None:
        self._framing: Framing = framing or default_framing(provider)
        self._sse = SSEParser()
        self._binary = EventStreamParser()
        self._text = codecs.getincrementaldecoder("utf-8")()
        self._pending = ""
        self._done = False
        self._count = 0

    def feed(self, chunk: bytes) -> list[dict[str, Any]]:
        """The wire events ``chunk`` completes."""
        if self._done:
            return []
        if self._framing == "event-stream":
            return self._counted(self._binary.feed(chunk))
        if self._framing == "sse":
            return self._from_sse(self._sse.feed(chunk))
        self._pending += self._text.decode(chunk)
        return self._json_items(final=False)

    def close(self) -> list[dict[str, Any]]:
        """The events still owed when the body ends."""
        if self._done:
            return []
        if self._framing == "event-stream":
            return self._counted(self._binary.close())
        if self._framing == "sse":
            return self._from_sse(self._sse.close())
        self._pending += self._text.decode(b"", True)
        return self._json_items(final=True)

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
            parsed = self._object(data)
            found.append(
                {"type": "error", "error": parsed} if event.event == "error" and "type" not in parsed else parsed
            )
        return self._counted(found)

    def _json_items(self, *, final: bool) -> list[dict[str, Any]]:
        """Complete items of a JSON array (or lines of JSON Lines) read so far."""
        decoder = json.JSONDecoder()
        found: list[dict[str, Any]] = []
        position = 0
        text = self._pending
        while True:
            while position < len(text) and text[position] in " \t\r\n,[]\ufeff":
                position += 1
            if position >= len(text):
                break
            try:
                _, end = decoder.raw_decode(text, position)
            except json.JSONDecodeError:
                if final:
                    raise StreamError(
                        f"the stream ends inside a JSON value: {text[position : position + 80]!r}", "$", self._count
                    ) from None
                break  # the value is not complete yet
            found.append(self._object(text[position:end]))
            position = end
        self._pending = text[position:]
        return self._counted(found)

    def _object(self, text: str) -> dict[str, Any]:
        try:
            parsed: object = loads(text)
        except ValueError as error:
            raise StreamError(f"event data is not valid JSON ({error}): {text[:80]!r}", "$", self._count) from None
        if not isinstance(parsed, dict):
            raise StreamError(f"event data is not a JSON object: {text[:80]!r}", "$", self._count)
        return cast("dict[str, Any]", parsed)
