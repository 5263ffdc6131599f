"""Bedrock ConverseStream readings from recorded traffic: empty block starts, redacted reasoning never stopped."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec

FORMAT = "bedrock-converse"
START = {"messageStart": {"role": "assistant"}}
STOP = {"messageStop": {"stopReason": "end_turn"}}


def delta(index: int, value: dict[str, Any]) -> dict[str, Any]:
    return {"contentBlockDelta": {"contentBlockIndex": index, "delta": value}}


def test_content_block_start_with_an_empty_start_is_a_text_block() -> None:
    stream = [
        START,
        {"contentBlockStart": {"contentBlockIndex": 0, "start": {}}},
        delta(0, {"text": "Hi"}),
        {"contentBlockStop": {"contentBlockIndex": 0}},
        STOP,
    ]
    response = chatcodec.accumulate_stream(FORMAT, stream)
    assert response.choices[0].message.content == [chatcodec.TextPart(text="Hi")]


REDACTED = delta(0, {"reasoningContent": {"redactedContent": "QUJD"}})


def test_redacted_reasoning_never_stopped_is_kept_at_the_finish() -> None:
    stream = [START, REDACTED, delta(1, {"text": "Hi"}), {"contentBlockStop": {"contentBlockIndex": 1}}, STOP]
    content = chatcodec.accumulate_stream(FORMAT, stream).choices[0].message.content
    assert isinstance(content, list)
    assert [part.type for part in content] == ["thinking", "text"]
    assert content[0].encrypted == "QUJD"  # type: ignore[union-attr]
    assert content[0].redacted is True  # type: ignore[union-attr]


def test_redacted_reasoning_of_a_cut_off_stream_is_kept() -> None:
    events = list(chatcodec.decode_stream(FORMAT, [START, REDACTED], partial=True))
    parts = [event for event in events if isinstance(event, chatcodec.PartEvent)]
    assert len(parts) == 1
    assert parts[0].part.encrypted == "QUJD"  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["bedrock-converse", "bedrock-nova"])
def test_a_block_start_member_that_is_no_object_is_named_at_a_path_the_event_has(name: str) -> None:
    """A fuzz find (accumulate_stream_strict[bedrock-nova], seed 0): the member's name was
    pasted into the path (``$.contentBlockStart.start.é. ]/``), which names no place when the
    key is not an identifier; a path names such a key in brackets."""
    events = [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockStart": {"contentBlockIndex": 0, "start": {"é. ]/": 5}}},
    ]
    with pytest.raises(chatcodec.StreamError) as raised:
        chatcodec.accumulate_stream(name, events)
    assert raised.value.path == "$.contentBlockStart.start['é. ]/']"
