"""Reading a stream in whatever form the caller holds it.

An HTTP client gives raw SSE bytes in chunks; a recording is one SSE text or JSON lines;
an SDK gives parsed event dicts. All become one iterator of event dicts, lazily, so a
stream is decoded while it arrives.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, cast

from chatcodec._errors import StreamError
from chatcodec._narrow import as_dict, as_list
from chatcodec._payloads import read_json_text
from chatcodec._sdk_objects import SdkObject, is_sdk_object, sdk_json
from chatcodec.streams._event_stream import iter_event_stream, looks_like_event_stream
from chatcodec.streams._sse import iter_jsonl, iter_sse_json, looks_like_sse

StreamInput = (
    str | bytes | bytearray | Iterable[Mapping[str, Any]] | Iterable[SdkObject] | Iterable[str] | Iterable[bytes]
)
"""Raw SSE or JSON lines (whole, or as an iterable of chunks), parsed event dicts, or an
SDK's event objects (``client.chat.completions.create(stream=True)``)."""


_SNIFF_SIZE = 4096
"""How much of a stream's start is looked at to tell its format."""


def iter_event_payloads(events: StreamInput) -> Iterator[dict[str, Any]]:
    """Event dicts from any :data:`StreamInput`."""
    if isinstance(events, str | bytes | bytearray):
        whole = events if isinstance(events, str) else bytes(events)
        if isinstance(whole, bytes) and looks_like_event_stream(whole[:_PRELUDE_BYTES]):
            return iter_event_stream([whole])
        head = _sniff(whole)
        if head.lstrip("\ufeff \t\r\n").startswith("["):
            return _json_array(whole)
        return iter_sse_json(whole) if looks_like_sse(head) else iter_jsonl(whole)
    try:
        iterator = iter(events)
    except TypeError:  # callers without type checking pass anything
        kind = type(events).__name__
        raise StreamError(f"a stream must be SSE text, JSON lines or event dicts, got {kind}", "$") from None
    first = next(iterator, None)
    if first is None:
        return iter(())
    rest = itertools.chain([first], iterator)
    if isinstance(first, Mapping) or is_sdk_object(first):
        return _dicts(rest)
    _sniff(first)  # a first item that is neither text nor bytes nor an event is refused as such
    chunks = _text_chunks(rest)
    if not isinstance(first, str):
        binary, chunks = _opens_event_stream(chunks)
        if binary:
            return iter_event_stream(chunk if isinstance(chunk, bytes) else chunk.encode() for chunk in chunks)
    read, head = _first_line(chunks)
    chunks = itertools.chain(read, chunks)
    if head.lstrip("\ufeff \t\r\n").startswith("["):
        return _json_array(_joined(list(chunks)))
    return iter_sse_json(chunks) if looks_like_sse(head) or not head.strip() else iter_jsonl(chunks)


_PRELUDE_BYTES = 12
"""An event-stream message's prelude: total length, headers length, their CRC32."""


def _opens_event_stream(chunks: Iterator[str | bytes]) -> tuple[bool, Iterator[str | bytes]]:
    """Whether byte chunks open with an event-stream prelude (Bedrock's binary framing, as
    its HTTP API and ``StreamConverter`` write it), and the chunks again."""
    read: list[str | bytes] = []
    head = b""
    for chunk in chunks:
        read.append(chunk)
        head += chunk if isinstance(chunk, bytes) else chunk.encode()
        if len(head) >= _PRELUDE_BYTES:
            break
    return looks_like_event_stream(head[:_PRELUDE_BYTES]), itertools.chain(read, chunks)


def _first_line(chunks: Iterator[str | bytes]) -> tuple[list[str | bytes], str]:
    """The chunks read until the first non-blank line is whole (or the stream ended), and
    that text: a first chunk may hold only ``d`` of ``data:``, which tells SSE from JSON
    lines no better than nothing, so the format is decided on the line,
    the same rule as for a whole text."""
    read: list[str | bytes] = []
    head = ""
    for chunk in chunks:
        read.append(chunk)
        head += _sniff(chunk)
        stripped = head.lstrip("\ufeff \t\r\n")
        if stripped.startswith("[") or "\n" in stripped or "\r" in stripped or len(head) >= _SNIFF_SIZE:
            break
    return read, head[:_SNIFF_SIZE]


def _joined(chunks: list[str | bytes]) -> str | bytes:
    """A JSON array sent in chunks, as one text (it is parsed whole either way)."""
    if all(isinstance(chunk, str) for chunk in chunks):
        return "".join(chunk for chunk in chunks if isinstance(chunk, str))
    return b"".join(chunk.encode() if isinstance(chunk, str) else chunk for chunk in chunks)


def _json_array(whole: str | bytes) -> Iterator[dict[str, Any]]:
    """The events of a stream sent as one JSON array (Gemini's ``streamGenerateContent``
    without ``alt=sse``)."""
    try:
        parsed: object = read_json_text(whole.removeprefix("\ufeff") if isinstance(whole, str) else whole)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise StreamError(f"not a valid JSON array of events: {error}", "$") from None
    items = as_list(parsed)
    if items is None:
        raise StreamError("expected a JSON array of events", "$")
    return _dicts(items)


def _text_chunks(chunks: Iterable[object]) -> Iterator[str | bytes]:
    """The chunks of a raw stream, refusing a parsed event mixed in among them."""
    for index, chunk in enumerate(chunks):
        if isinstance(chunk, bytearray):
            yield bytes(chunk)
        elif isinstance(chunk, str | bytes):
            yield chunk
        else:
            kind = type(chunk).__name__
            raise StreamError(f"chunk {index} is a {kind}; a raw stream holds only text or bytes", "$")


def _dicts(events: Iterable[object]) -> Iterator[dict[str, Any]]:
    for index, given in enumerate(events):
        yield event_fields(given, index)


def event_fields(given: object, index: int) -> dict[str, Any]:
    """One parsed event (a dict, a mapping, or an SDK's event object, as the JSON the server
    sent), or a :class:`~chatcodec.StreamError` naming its place ``index`` in the stream."""
    event = sdk_json(given)
    fields = as_dict(event)
    if fields is not None:
        return fields
    if isinstance(event, Mapping):
        return dict(cast("Mapping[str, Any]", event))
    raise StreamError(f"expected an event object, got {type(event).__name__}", "$", index)


def _sniff(data: object) -> str:
    """The start of ``data`` as text, only to tell SSE from JSON lines (the parsers
    decode strictly and report bad UTF-8 themselves)."""
    if isinstance(data, str):
        return data[:_SNIFF_SIZE]
    if isinstance(data, bytes | bytearray):
        return bytes(data[:_SNIFF_SIZE]).decode("utf-8", errors="ignore")
    raise StreamError(f"a stream must be SSE text, JSON lines or event dicts, got {type(data).__name__}", "$", 0)
