"""Read recorded and live provider streams without tripping over how they arrive.

Provider streams are Server-Sent Events in theory and a little looser in practice:
Anthropic pads its JSON with runs of spaces, proxies and some SDKs rewrite line ends
to CRLF (or split a CRLF across two network reads), OpenRouter interleaves ``: comment``
keep-alives, and a recording cut off mid-stream often lacks the final blank line. A
parser that is strict about any of these drops events or fails on otherwise usable
captures, so this one follows the WHATWG event-stream rules for framing and is
forgiving only where the rules would throw data away (a last event with no blank line
after it). The JSON layer strips padding, stops at OpenAI's ``[DONE]`` sentinel and
reports a bad event by its position, because "invalid JSON" alone is useless in a
stream of hundreds of events.

Work is linear in the input: chunks are decoded incrementally and only the pieces of
the current, unfinished line are kept, so a large stream read in tiny chunks costs no
more than one read whole.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeAlias, cast

from chatcodec._errors import StreamError
from chatcodec._payloads import JSONValueError, read_json_text
from chatcodec._public_label import shown_as

__all__ = [
    "SSEEvent",
    "SSEParser",
    "StreamSource",
    "as_typed_error",
    "format_sse",
    "iter_jsonl",
    "iter_sse",
    "iter_sse_json",
    "looks_like_sse",
]

StreamSource: TypeAlias = str | bytes | bytearray | Iterable[str | bytes]
"""A whole stream as text or bytes, or its chunks split anywhere (as read from a socket)."""

_BOM = "\ufeff"
_DONE = "[DONE]"
_LINE_END = re.compile(r"\r\n|\r|\n")
_SSE_LINE_STARTS = ("data:", "event:", "id:", "retry:", ":")
_PREVIEW_LENGTH = 80
_JSON_TYPE_NAMES: dict[type, str] = {
    list: "array",
    str: "string",
    int: "number",
    float: "number",
    bool: "boolean",
    type(None): "null",
}


@dataclass(frozen=True, slots=True)
class SSEEvent:
    """One dispatched event: its ``event:`` name (None when absent), joined data, last id and retry."""

    event: str | None
    data: str
    id: str | None = None
    retry: int | None = None


class _EventBuffer:
    """The fields of the event being read, per the WHATWG buffers (the last id survives dispatch)."""

    __slots__ = ("data_lines", "event_name", "last_id", "retry")

    def __init__(self) -> None:
        self.data_lines: list[str] = []
        self.event_name: str | None = None
        self.last_id: str | None = None
        self.retry: int | None = None

    def add_field(self, name: str, value: str) -> None:
        if name == "data":
            self.data_lines.append(value)
        elif name == "event":
            self.event_name = value or None
        elif name == "id" and "\0" not in value:
            self.last_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self.retry = int(value)

    def dispatch(self) -> SSEEvent | None:
        """The finished event, or None when it had no data; either way start a new one."""
        event: SSEEvent | None = None
        if self.data_lines:
            event = SSEEvent(self.event_name, "\n".join(self.data_lines), self.last_id, self.retry)
        self.data_lines = []
        self.event_name = None
        self.retry = None
        return event


def iter_sse(source: StreamSource) -> Iterator[SSEEvent]:
    """Parse an event stream, whole or in chunks, into events (a final unterminated event included)."""
    buffer = _EventBuffer()
    for line in _lines(_decoded(source)):
        if not line:
            event = buffer.dispatch()
            if event is not None:
                yield event
        elif not line.startswith(":"):
            buffer.add_field(*_split_field(line))
    event = buffer.dispatch()
    if event is not None:
        yield event


class SSEParser:
    """Push-style SSE parsing for an async server or client: ``feed`` each chunk as it is
    read (bytes split anywhere, inside a UTF-8 sequence or between the CR and LF of a
    CRLF), get back the events it completed; ``close`` at the end gives a last event that
    had no blank line after it. The same framing rules as :func:`iter_sse`.

    >>> parser = SSEParser()
    >>> parser.feed(b"data: {\\"a\\"")
    []
    >>> parser.feed(b": 1}\\r")
    []
    >>> parser.feed(b"\\n\\r\\n")
    [SSEEvent(event=None, data='{"a": 1}', id=None, retry=None)]
    """

    __slots__ = ("_at_start", "_buffer", "_decoder", "_read", "_splitter")

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._buffer = _EventBuffer()
        self._splitter = _LineSplitter()
        self._at_start = True
        self._read = 0

    def feed(self, chunk: bytes | str) -> list[SSEEvent]:
        """The events ``chunk`` completes (often none, sometimes several)."""
        if isinstance(chunk, str):
            text = chunk
        else:
            text = decode_utf8_chunk(self._decoder, chunk, self._read)
            self._read += len(chunk)
        if self._at_start and text:
            text = text.removeprefix(_BOM)
            self._at_start = False
        return self._lines(text)

    def close(self) -> list[SSEEvent]:
        """The events still owed at the end of the stream (an unterminated last one)."""
        events = self._lines(decode_utf8_chunk(self._decoder, b"", self._read, final=True))
        last = self._splitter.close()
        if last is not None:
            events.extend(self._line(last))
        event = self._buffer.dispatch()
        return [*events, event] if event is not None else events

    def _lines(self, text: str) -> list[SSEEvent]:
        events: list[SSEEvent] = []
        for line in self._splitter.feed(text):
            events.extend(self._line(line))
        return events

    def _line(self, line: str) -> list[SSEEvent]:
        if not line:
            event = self._buffer.dispatch()
            return [] if event is None else [event]
        if not line.startswith(":"):
            self._buffer.add_field(*_split_field(line))
        return []


def format_sse(data: str, event: str | None = None, *, line_end: str = "\n") -> str:
    """One SSE event as text: an ``event:`` line when named, a ``data:`` line per line of
    ``data`` (a newline inside data would otherwise end the field), then a blank line.
    ``line_end`` is ``"\\r\\n"`` for Gemini, which frames its ``alt=sse`` stream that way."""
    if "\n" not in data and "\r" not in data:  # one line (JSON text always is): no regex split
        head = "" if event is None else f"event: {event}{line_end}"
        return f"{head}data: {data}{line_end}{line_end}"
    lines = [f"event: {event}"] if event is not None else []
    lines.extend(f"data: {line}" for line in _LINE_END.split(data))
    return line_end.join(lines) + line_end + line_end


def iter_sse_json(source: StreamSource) -> Iterator[dict[str, Any]]:
    """The JSON object of each event, padding stripped, up to ``[DONE]``; ``event: error`` bodies are wrapped.

    Raises StreamError, naming the event's index, for data that is not a JSON object.
    """
    for event_index, event in enumerate(iter_sse(source)):
        data = event.data.strip()
        if not data:
            continue
        if data == _DONE:
            return
        yield as_typed_error(event.event, _parse_object(data, event_index, "event data"))


def as_typed_error(name: str | None, parsed: dict[str, Any]) -> dict[str, Any]:
    """An ``event: error`` whose data names no kind of its own, wrapped as ``{"type": "error",
    "error": data}``; data naming itself (a ``type``, or its event's name as the value of
    another key, as ``{"event_type": "error", "error": {...}}`` does) is left as it came."""
    if name != "error" or "type" in parsed or any(value == "error" for value in parsed.values()):
        return parsed
    return {"type": "error", "error": parsed}


def iter_jsonl(source: StreamSource) -> Iterator[dict[str, Any]]:
    """The JSON object on each non-blank line; a bad line raises StreamError naming its line number."""
    object_index = 0
    for line_number, line in enumerate(_lines(_decoded(source)), start=1):
        text = line.strip()
        if text:
            yield _parse_object(text, object_index, f"line {line_number}")
            object_index += 1


def looks_like_sse(text: str) -> bool:
    """Whether the first non-blank line is an SSE field or comment (JSON Lines start with ``{`` or ``[``)."""
    for line in _lines((text.removeprefix(_BOM),)):
        if line.strip():
            return line.startswith(_SSE_LINE_STARTS)
    return False


def _decoded(source: StreamSource) -> Iterator[str]:
    """Text chunks of the source, bytes decoded as UTF-8 across chunk splits, a leading BOM dropped."""
    chunks: Iterable[str | bytes]
    if isinstance(source, str):
        chunks = (source,)
    elif isinstance(source, bytes | bytearray):
        chunks = (bytes(source),)
    else:
        chunks = source
    decoder = codecs.getincrementaldecoder("utf-8")()
    at_start = True
    read = 0
    for chunk in chunks:
        text = chunk if isinstance(chunk, str) else decode_utf8_chunk(decoder, chunk, read)
        read += len(chunk) if not isinstance(chunk, str) else 0
        if at_start and text:
            text = text.removeprefix(_BOM)
            at_start = False
        yield text
    yield decode_utf8_chunk(decoder, b"", read, final=True)


def decode_utf8_chunk(decoder: codecs.IncrementalDecoder, chunk: bytes, read: int, *, final: bool = False) -> str:
    """The text of ``chunk``; bytes that are not UTF-8 are refused, not
    replaced by U+FFFD: a stream is read exactly or not at all."""
    try:
        return decoder.decode(chunk, final)
    except UnicodeDecodeError as error:
        raise StreamError(f"the stream is not UTF-8 text: {error.reason} at byte {read + error.start}") from None


class _LineSplitter:
    """Text chunks into lines ended by LF, CRLF or CR, even when a CRLF is split between two
    chunks: what the SSE parser, :func:`iter_sse` and JSON Lines share. A chunk with no CR
    (most servers end lines with LF alone) is split by ``str.split``, not a regular
    expression searched a line at a time (a fifth of converting a streamed event)."""

    __slots__ = ("_after_cr", "_pending")

    def __init__(self) -> None:
        self._pending: list[str] = []  # the start of a line the chunks so far have not ended
        self._after_cr = False

    def feed(self, text: str) -> list[str]:
        """The lines ``text`` ends (a line begun in an earlier chunk joined whole)."""
        if not text:
            return []
        pending = self._pending
        start = 1 if self._after_cr and text[0] == "\n" else 0
        if "\r" not in text:
            *ended, rest = text[start:].split("\n") if start else text.split("\n")
            if pending and ended:
                pending.append(ended[0])
                ended[0] = "".join(pending)
                pending.clear()
            if rest:
                pending.append(rest)
            self._after_cr = False
            return ended
        lines: list[str] = []
        for match in _LINE_END.finditer(text, start):
            pending.append(text[start : match.start()])
            lines.append("".join(pending))
            pending.clear()
            start = match.end()
        self._after_cr = text.endswith("\r")
        if start < len(text):
            pending.append(text[start:])
        return lines

    def close(self) -> str | None:
        """The last line, when the text ended inside one (no line end after it)."""
        if not self._pending:
            return None
        line = "".join(self._pending)
        self._pending.clear()
        return line


def _lines(texts: Iterable[str]) -> Iterator[str]:
    """Lines ended by LF, CRLF or CR, even when a CRLF is split between two chunks."""
    splitter = _LineSplitter()
    for text in texts:
        yield from splitter.feed(text)
    last = splitter.close()
    if last is not None:
        yield last


def _split_field(line: str) -> tuple[str, str]:
    """Field name and value; one space after the colon is dropped, no colon means an empty value."""
    name, colon, value = line.partition(":")
    if colon and value.startswith(" "):
        value = value[1:]
    return name, value


def _parse_object(text: str, event_index: int, what: str) -> dict[str, Any]:
    preview = text[:_PREVIEW_LENGTH]
    try:
        parsed: object = read_json_text(text)
    except JSONValueError as error:
        raise StreamError(f"{what} cannot be kept: {error.reason}", error.path, event_index) from None
    except ValueError as error:
        raise StreamError(f"{what} is not valid JSON ({error}): {preview!r}", event_index=event_index) from error
    if not isinstance(parsed, dict):
        kind = _JSON_TYPE_NAMES.get(type(parsed), type(parsed).__name__)
        raise StreamError(f"{what} is a JSON {kind}, not an object: {preview!r}", event_index=event_index)
    return cast("dict[str, Any]", parsed)


shown_as("chatcodec", SSEEvent, format_sse, SSEParser)
