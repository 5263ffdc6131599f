"""``accumulate_stream`` and ``decode_stream`` read Bedrock's AWS event-stream binary (what
``ConverseStream``'s HTTP body is, and what ``StreamConverter`` writes for Bedrock), whole
or in chunks split anywhere, as they read SSE and JSON lines."""

from __future__ import annotations

from pathlib import Path

import pytest

import chatcodec

FORMAT = "bedrock-converse"
ANTHROPIC_STREAM = Path(__file__).parent / "fixtures" / "anthropic" / "stream" / "text_basic.sse"


def _converted() -> bytes:
    converter = chatcodec.StreamConverter("anthropic", FORMAT, on_loss="ignore")
    return converter.feed(ANTHROPIC_STREAM.read_bytes()) + converter.close()


def test_the_event_stream_bytes_stream_converter_writes_accumulate_as_bedrock() -> None:
    binary = _converted()
    assert binary[:1] == b"\x00"  # a prelude's length, not SSE
    expected = chatcodec.accumulate_stream("anthropic", ANTHROPIC_STREAM.read_bytes())
    accumulated = chatcodec.accumulate_stream(FORMAT, binary)
    assert accumulated.choices[0].message.text == expected.choices[0].message.text
    assert accumulated.choices[0].finish_reason == expected.choices[0].finish_reason


@pytest.mark.parametrize("size", [1, 5, 13, 4096])
def test_event_stream_bytes_in_chunks_split_anywhere_decode_the_same(size: int) -> None:
    binary = _converted()
    chunks = [binary[start : start + size] for start in range(0, len(binary), size)]
    assert list(chatcodec.decode_stream(FORMAT, chunks)) == list(chatcodec.decode_stream(FORMAT, binary))


def test_event_stream_bytes_cut_inside_a_message_are_an_error() -> None:
    with pytest.raises(chatcodec.StreamError, match="inside a message"):
        chatcodec.accumulate_stream(FORMAT, _converted()[:-3])
