"""Bedrock's stream framing: the AWS event-stream binary format, both ways.

``ConverseStream`` does not send SSE: its HTTP body is a run of binary messages
(``application/vnd.amazon.eventstream``), each a prelude (total length, headers length,
CRC32 of the two), typed headers, a JSON payload and a CRC32 of the whole message
(https://docs.aws.amazon.com/AmazonS3/latest/API/RESTSelectObjectAppendix.html, the
same encoding). boto3 reads it for you and yields one dict per message, named by the
``:event-type`` header: ``{"contentBlockDelta": {...payload}}``. That dict is what
chatcodec calls a Bedrock wire event, so this module turns message bytes into those
dicts (:class:`EventStreamParser`) and back (:func:`encode_event_message`); "the bytes
of a Bedrock stream" in :mod:`chatcodec.streams._convert` means this binary framing, and
``accumulate_stream`` / ``decode_stream`` read it when given such bytes
(:func:`looks_like_event_stream`, :mod:`chatcodec.streams._input`).

An ``exception`` message (``:exception-type`` ``throttlingException`` ...) becomes the
dict boto3 would raise from, ``{"throttlingException": {"message": ...}}``, which the
Bedrock stream decoder reads as an error event; an ``error`` message (``:error-code``,
``:error-message``) becomes ``{"internalServerException": {"message": ...}}`` with the
code kept. No dependency: the format is 40 lines of ``struct`` and ``zlib.crc32``.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Iterable, Iterator
from typing import Any

from chatcodec._errors import StreamError
from chatcodec._payloads import read_json_text

__all__ = ["CONTENT_TYPE", "EventStreamParser", "encode_event_message", "iter_event_stream", "looks_like_event_stream"]

CONTENT_TYPE = "application/vnd.amazon.eventstream"
"""The ``Content-Type`` of a Bedrock ``ConverseStream`` response body."""

_PRELUDE = struct.Struct(">III")
_PRELUDE_LENGTH = 8
_MINIMUM_LENGTH = 16  # prelude (12) and the message CRC (4)
_MAXIMUM_LENGTH = 24 * 1024 * 1024  # the format's own limit on one message
_STRING = 7
_FIXED_SIZES = {0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16}
"""Header value types of fixed size (booleans carry none); 6 (bytes) and 7 (string) are sized."""


class EventStreamParser:
    """Push-style reading of event-stream bytes: ``feed`` chunks split anywhere, get back
    the wire event dicts of the messages they complete."""

    __slots__ = ("_buffer", "_read")

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._read = 0

    def feed(self, chunk: bytes) -> list[dict[str, Any]]:
        """The events of the messages ``chunk`` completes."""
        self._buffer += chunk
        events: list[dict[str, Any]] = []
        while len(self._buffer) >= _MINIMUM_LENGTH:
            total, headers_length, prelude_crc = _PRELUDE.unpack_from(self._buffer)
            if zlib.crc32(self._buffer[:_PRELUDE_LENGTH]) != prelude_crc:
                raise StreamError(f"event-stream prelude checksum mismatch at byte {self._read}")
            if not _MINIMUM_LENGTH <= total <= _MAXIMUM_LENGTH or headers_length > total - _MINIMUM_LENGTH:
                raise StreamError(f"event-stream message of impossible length {total} at byte {self._read}")
            if len(self._buffer) < total:
                break
            message = bytes(self._buffer[:total])
            del self._buffer[:total]
            events.append(self._message(message, headers_length))
            self._read += total
        return events

    def close(self) -> list[dict[str, Any]]:
        """Nothing is owed at the end; bytes of an unfinished message are an error."""
        if self._buffer:
            raise StreamError(f"event-stream ended inside a message ({len(self._buffer)} bytes at byte {self._read})")
        return []

    def _message(self, message: bytes, headers_length: int) -> dict[str, Any]:
        (message_crc,) = struct.unpack_from(">I", message, len(message) - 4)
        if zlib.crc32(message[:-4]) != message_crc:
            raise StreamError(f"event-stream message checksum mismatch at byte {self._read}")
        headers = _headers(message[12 : 12 + headers_length])
        payload = message[12 + headers_length : -4]
        body: object = read_json_text(payload) if payload else {}
        kind = headers.get(":message-type", "event")
        if kind == "exception":
            return {headers.get(":exception-type", "internalServerException"): body}
        if kind == "error":
            error = {"message": headers.get(":error-message", ""), "code": headers.get(":error-code", "")}
            return {"internalServerException": error}
        return {headers.get(":event-type", "unknown"): body}


def looks_like_event_stream(head: bytes) -> bool:
    """Whether ``head`` (a stream's first bytes, 12 or more) opens an event-stream message:
    its prelude's CRC32 matches, which no SSE, JSON or text start does by chance."""
    if len(head) < _PRELUDE_LENGTH + 4:
        return False
    total, headers_length, prelude_crc = _PRELUDE.unpack_from(head)
    matches: bool = zlib.crc32(head[:_PRELUDE_LENGTH]) == prelude_crc
    return matches and total >= _MINIMUM_LENGTH and headers_length < total


def iter_event_stream(chunks: Iterable[bytes]) -> Iterator[dict[str, Any]]:
    """The wire event dicts of event-stream bytes given in chunks (split anywhere), lazily."""
    parser = EventStreamParser()
    for chunk in chunks:
        yield from parser.feed(chunk)
    yield from parser.close()


def _headers(data: bytes) -> dict[str, str]:
    """The string headers (the only type Bedrock sends); values of other types are skipped."""
    headers: dict[str, str] = {}
    position = 0
    while position < len(data):
        name_length = data[position]
        name = data[position + 1 : position + 1 + name_length].decode("utf-8")
        position += 1 + name_length
        value_type = data[position]
        position += 1
        if value_type in _FIXED_SIZES:
            position += _FIXED_SIZES[value_type]
            continue
        if value_type not in (6, _STRING):
            raise StreamError(f"event-stream header {name!r} has unknown type {value_type}")
        (length,) = struct.unpack_from(">H", data, position)
        value = data[position + 2 : position + 2 + length]
        position += 2 + length
        if value_type == _STRING:
            headers[name] = value.decode("utf-8")
    return headers


def encode_event_message(event: dict[str, Any]) -> bytes:
    """One wire event dict (``{"messageStart": {...}}``) as an event-stream message, as
    Bedrock sends it; an ``...Exception`` key becomes an ``exception`` message."""
    if len(event) != 1:
        raise StreamError(f"a Bedrock stream event has one key, not {sorted(event)}")
    ((name, body),) = event.items()
    if name.endswith("Exception"):
        headers = {":message-type": "exception", ":exception-type": name, ":content-type": "application/json"}
    else:
        headers = {":message-type": "event", ":event-type": name, ":content-type": "application/json"}
    header_bytes = b"".join(_header(key, value) for key, value in headers.items())
    payload = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    total = _MINIMUM_LENGTH + len(header_bytes) + len(payload)
    prelude = struct.pack(">II", total, len(header_bytes))
    start = prelude + struct.pack(">I", zlib.crc32(prelude)) + header_bytes + payload
    return start + struct.pack(">I", zlib.crc32(start))


def _header(name: str, value: str) -> bytes:
    encoded_name = name.encode()
    encoded_value = value.encode()
    return (
        bytes([len(encoded_name)])
        + encoded_name
        + bytes([_STRING])
        + struct.pack(">H", len(encoded_value))
        + encoded_value
    )
