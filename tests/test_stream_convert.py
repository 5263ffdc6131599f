"""The library pieces a proxy is built from: push-style SSE parsing,
framing, stream conversion (sync, async, push), errors in the caller's shape, warm-up."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from botocore.eventstream import EventStreamBuffer

import chatcodec
from chatcodec.streams import _framing as stream_framing
from chatcodec.streams._event_stream import EventStreamParser, encode_event_message
from chatcodec.streams._framing import Framing, WireEventReader
from chatcodec.streams._sse import iter_sse

FIXTURES = Path(__file__).parent / "fixtures"


def _chunks(data: bytes, size: int) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


def _fixture(provider: str, name: str) -> bytes:
    return (FIXTURES / provider / "stream" / name).read_bytes()


# --- SSE parsing and framing -----------------------------------------------------


@pytest.mark.parametrize("size", [1, 2, 3, 5, 64])
def test_sse_parser_reads_chunks_split_inside_utf8_and_crlf(size: int) -> None:
    data = "event: x\r\ndata: héllo ✓\r\n\r\n: keep-alive\ndata: a\ndata: b\n\ndata: last".encode()
    parser = chatcodec.SSEParser()
    events = [event for chunk in _chunks(data, size) for event in parser.feed(chunk)]
    events += parser.close()
    assert events == list(iter_sse(data))
    assert [event.data for event in events] == ["héllo ✓", "a\nb", "last"]


def test_sse_parser_refuses_bytes_that_are_not_utf8() -> None:
    with pytest.raises(chatcodec.StreamError, match="not UTF-8"):
        chatcodec.SSEParser().feed(b"data: \xff\n\n")


@pytest.mark.parametrize(
    ("source", "framing", "body"),
    [
        # Ollama streams JSON Lines; Gemini without ``alt=sse`` one JSON array (both text framings)
        ("ollama", None, b'{"model":"m","message":{"role":"assistant","content":"\xff"},"done":false}\n'),
        ("gemini", "json-array", b'[{"candidates":[{"content":{"role":"model","parts":[{"text":"\xc3"}]}}]}]'),
        ("gemini", "json-array", b'[{"candidates":[{"content":{"role":"model","parts":[{"text":"a"}]}}]}\xe2\x82'),
    ],
)
@pytest.mark.parametrize("size", [1, 4096])
def test_stream_converter_refuses_bytes_that_are_not_utf8_in_a_text_framing(
    source: str, framing: Framing | None, body: bytes, size: int
) -> None:
    """RFC 8259 section 8.1: JSON exchanged between systems is UTF-8; a byte that is not is a
    ``StreamError`` at its byte offset, as the SSE parser gives, never a bare ``UnicodeDecodeError``."""
    converter = chatcodec.StreamConverter(source, "openai-chat", source_framing=framing)

    def feed_all() -> None:
        for chunk in _chunks(body, size):
            converter.feed(chunk)
        converter.close()

    with pytest.raises(chatcodec.StreamError, match="not UTF-8 text"):
        feed_all()


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*/stream/*.sse")), ids=lambda path: path.name)
def test_sse_parser_agrees_with_iter_sse_on_every_recording(path: Path) -> None:
    data = path.read_bytes()
    parser = chatcodec.SSEParser()
    events = [event for chunk in _chunks(data, 7) for event in parser.feed(chunk)] + parser.close()
    assert events == list(iter_sse(data))


def test_format_sse_splits_data_lines_and_names_the_event() -> None:
    assert chatcodec.format_sse("a\nb", "x") == "event: x\ndata: a\ndata: b\n\n"
    assert chatcodec.format_sse("{}", line_end="\r\n") == "data: {}\r\n\r\n"


def test_to_sse_frames_each_format_as_its_server_does() -> None:
    assert "".join(chatcodec.to_sse("openai-chat", [{"a": 1}])) == 'data: {"a":1}\n\ndata: [DONE]\n\n'
    assert "".join(chatcodec.to_sse("anthropic", [{"type": "ping"}])) == 'event: ping\ndata: {"type":"ping"}\n\n'
    assert "".join(chatcodec.to_sse("gemini", [{"a": 1}])) == 'data: {"a":1}\r\n\r\n'


# --- Bedrock's event-stream framing ------------------------------------------------


def test_event_stream_messages_read_by_botocore_and_back() -> None:
    events = [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "hé"}}},
        {"throttlingException": {"message": "slow down"}},
    ]
    data = b"".join(encode_event_message(event) for event in events)
    buffer = EventStreamBuffer()
    buffer.add_data(data)
    decoded = [(message.headers, json.loads(message.payload)) for message in buffer]
    assert [headers.get(":event-type", headers.get(":exception-type")) for headers, _ in decoded] == [
        "messageStart",
        "contentBlockDelta",
        "throttlingException",
    ]
    parser = EventStreamParser()
    assert [event for chunk in _chunks(data, 3) for event in parser.feed(chunk)] == events


def test_event_stream_checksum_mismatch_is_a_stream_error() -> None:
    data = bytearray(encode_event_message({"messageStop": {"stopReason": "end_turn"}}))
    data[-6] ^= 1
    with pytest.raises(chatcodec.StreamError, match="checksum"):
        EventStreamParser().feed(bytes(data))


# --- conversion ------------------------------------------------------------------


@pytest.mark.parametrize("target", chatcodec.PROVIDER_NAMES)
def test_push_conversion_in_tiny_chunks_equals_converting_the_events(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock is held still: a target that stamps ``created`` with the time of writing
    would otherwise differ when the two conversions fall in different seconds."""
    monkeypatch.setattr(time, "time", lambda: 1_795_000_000.0)
    data = _fixture("anthropic", "tool_use_input_json_delta.sse")
    converter = chatcodec.StreamConverter("anthropic", target, on_loss="ignore")
    converted = b"".join(converter.feed(chunk) for chunk in _chunks(data, 3)) + converter.close()
    expected = chatcodec.encode_stream(target, chatcodec.decode_stream("anthropic", data), on_loss="ignore")
    reader = WireEventReader(target)
    assert reader.feed(converted) + reader.close() == list(expected)
    assert converter.events_out > 0


def test_a_whole_body_given_as_bytes_or_text_is_one_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    """A recorded stream is held whole; iterating ``bytes`` would feed integers."""
    monkeypatch.setattr(time, "time", lambda: 1_795_000_000.0)
    data = _fixture("anthropic", "tool_use_input_json_delta.sse")
    chunked = b"".join(chatcodec.convert_stream([data], source="anthropic", target="openai-chat", on_loss="ignore"))
    whole = b"".join(chatcodec.convert_stream(data, source="anthropic", target="openai-chat", on_loss="ignore"))
    text = b"".join(chatcodec.convert_stream(data.decode(), source="anthropic", target="openai-chat", on_loss="ignore"))
    assert whole == chunked == text
    assert b"tool_calls" in whole


def test_a_chunk_that_is_not_bytes_is_a_stream_error() -> None:
    converter = chatcodec.StreamConverter("anthropic", "openai-chat")
    with pytest.raises(chatcodec.StreamError, match="bytes, not int"):
        converter.feed(7)  # type: ignore[arg-type]


def test_async_conversion_streams_without_a_thread() -> None:
    data = _fixture("openai-chat", "parallel_tool_calls.sse")

    async def source() -> AsyncIterator[bytes]:
        for chunk in _chunks(data, 11):
            yield chunk

    async def collect() -> list[bytes]:
        return [
            chunk
            async for chunk in chatcodec.aconvert_stream(
                source(), source="openai-chat", target="anthropic", on_loss="ignore"
            )
        ]

    converted = b"".join(asyncio.run(collect()))
    response = chatcodec.accumulate_stream("anthropic", converted)
    assert [part.type for part in response.message.parts] == ["tool_use", "tool_use"]


def test_gemini_json_array_framing_both_ways() -> None:
    data = _fixture("gemini", "text.sse")
    events = list(chatcodec.decode_stream("gemini", data))
    wire = list(chatcodec.encode_stream("gemini", events))
    array = json.dumps(wire).encode()
    converted = b"".join(
        chatcodec.convert_stream(
            _chunks(array, 5),
            source="gemini",
            target="gemini",
            source_framing="json-array",
            target_framing="json-array",
        )
    )
    assert json.loads(converted) == wire


def test_a_huge_json_array_item_in_small_chunks_is_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gemini's JSON-array stream: a 2 MB item (inline media) fed in 64-byte chunks is
    parsed once, when it completes, not re-parsed on each of its 32,000 chunks (linear
    work, counted in parse calls rather than seconds)."""
    calls: list[int] = []
    real_loads, real_raw_decode = stream_framing.read_json_text, json.JSONDecoder.raw_decode

    def counting_loads(text: str | bytes) -> object:
        calls.append(len(text))
        return real_loads(text)

    def counting_raw_decode(self: json.JSONDecoder, text: str, index: int = 0) -> tuple[Any, int]:
        calls.append(len(text) - index)
        return real_raw_decode(self, text, index)

    monkeypatch.setattr(stream_framing, "read_json_text", counting_loads)
    monkeypatch.setattr(json.JSONDecoder, "raw_decode", counting_raw_decode)
    media = 'x\\"}{[' * (2_000_000 // 6)  # escapes, quotes and brackets inside the string
    items = [{"small": 1}, {"inlineData": {"mimeType": "image/png", "data": media}}, {"small": 2}]
    data = ("[" + ",\r\n".join(json.dumps(item) for item in items) + "]").encode()
    reader = WireEventReader("gemini", "json-array")
    read = [event for chunk in _chunks(data, 64) for event in reader.feed(chunk)] + reader.close()
    assert read == items
    assert len(calls) == len(items)
    assert sum(calls) == len(data) - len("[,\r\n,\r\n]")


def test_an_upstream_stream_error_reaches_an_openai_client_in_its_shape() -> None:
    data = (
        b'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant",'
        b'"model":"claude","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":0}}}\n\n'
        b'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'
    )
    converted = b"".join(chatcodec.convert_stream([data], source="anthropic", target="openai-chat", on_loss="ignore"))
    error_chunks = [json.loads(event.data) for event in iter_sse(converted) if event.data.startswith('{"error"')]
    assert error_chunks == [
        {"error": {"message": "Overloaded", "type": "server_error", "param": None, "code": None}},
    ]


# --- errors ----------------------------------------------------------------------

_ANTHROPIC_429 = {"type": "error", "error": {"type": "rate_limit_error", "message": "Slow down"}}


def test_read_error_gives_status_and_message() -> None:
    error = chatcodec.read_error("anthropic", _ANTHROPIC_429)
    assert (error.status_code, error.message, error.error_type) == (429, "Slow down", "rate_limit_error")
    assert chatcodec.ProviderAPIError("x", "overloaded_error").status_code == 529
    assert chatcodec.ProviderAPIError("x").status_code is None


@pytest.mark.parametrize(
    ("provider", "body"),
    [
        ("openai-chat", {"error": {"message": "Slow down", "type": "rate_limit_error", "param": None, "code": None}}),
        ("anthropic", _ANTHROPIC_429),
        ("gemini", {"error": {"code": 429, "message": "Slow down", "status": "RESOURCE_EXHAUSTED"}}),
        ("bedrock-converse", {"message": "Slow down"}),
    ],
)
def test_error_bodies_in_each_shape_read_back(provider: str, body: dict[str, Any]) -> None:
    assert chatcodec.error_body(provider, "Slow down", 429) == body
    assert chatcodec.read_error(provider, body, 429).message == "Slow down"


def test_mid_stream_error_events_in_each_shape() -> None:
    assert chatcodec.error_event("openai-responses", "boom", 500)["type"] == "error"
    assert chatcodec.error_event("bedrock-converse", "boom", 429) == {"throttlingException": {"message": "boom"}}
    assert chatcodec.error_event("anthropic", "boom", 529)["error"]["type"] == "overloaded_error"


# --- warm-up ---------------------------------------------------------------------

_COLD = """
import json, sys, warnings
warnings.simplefilter("ignore")
import chatcodec
if sys.argv[1] == "warm":
    chatcodec.warm_up()
request = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
before = set(sys.modules)
chatcodec.convert_request(request, source="openai-chat", target="anthropic")
print(json.dumps(sorted(name for name in set(sys.modules) - before if name.startswith("chatcodec"))))
"""


def test_warm_up_leaves_the_first_conversion_nothing_to_load() -> None:
    """What a first conversion pays once (chatcodec's modules imported, a direct path among
    them) is paid by ``warm_up``: after it the first conversion imports no chatcodec module.
    Counted by the modules, not timed (a loaded machine moves any time)."""
    source = str(Path(chatcodec.__file__).parent.parent)
    loaded = {}
    for mode in ("cold", "warm"):
        result = subprocess.run(
            [sys.executable, "-c", _COLD, mode], capture_output=True, text=True, check=True, env={"PYTHONPATH": source}
        )
        loaded[mode] = json.loads(result.stdout)
    assert "chatcodec._direct.openai_chat_to_anthropic" in loaded["cold"]
    assert loaded["warm"] == []
