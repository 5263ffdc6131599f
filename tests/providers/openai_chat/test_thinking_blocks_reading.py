"""litellm's ``thinking_blocks`` read by ``decode_blocks``: the one reading of those blocks and the
``reasoning_content`` that repeats them, which ``decode_reasoning`` and the OpenAI Chat -> Anthropic
direct path both call (issue 107)."""

from __future__ import annotations

from typing import Any

import pytest

from chatcodec._providers.openai_chat.reasoning import decode_blocks, decode_reasoning

_BLOCKS = [
    {"type": "thinking", "thinking": "First, read the file. ", "signature": "c2lnLTE="},
    {"type": "thinking", "thinking": "Then run the tests.", "signature": "c2lnLTI="},
]


def test_a_repeating_reasoning_content_is_marked_on_the_blocks() -> None:
    parts, copied = decode_blocks(_BLOCKS, "First, read the file. Then run the tests.")
    assert copied is True
    assert [part["text"] for part in parts] == [block["thinking"] for block in _BLOCKS]
    assert [part["signature"] for part in parts] == [block["signature"] for block in _BLOCKS]
    assert all(part["provider_metadata"]["openai-chat"]["_also"] == ["reasoning_content"] for part in parts)


@pytest.mark.parametrize("content", [None, "Another thought.", "", 3])
def test_another_reasoning_content_is_no_copy(content: Any) -> None:
    parts, copied = decode_blocks(_BLOCKS, content)
    assert copied is False
    assert all("_also" not in part["provider_metadata"]["openai-chat"] for part in parts)


def test_no_blocks_copy_nothing() -> None:
    assert decode_blocks([], "") == ([], False)


@pytest.mark.parametrize("content", ["First, read the file. Then run the tests.", "Another thought."])
def test_decode_reasoning_reads_the_blocks_by_it(content: str) -> None:
    """A turn of the two fields: ``decode_reasoning``'s parts are the blocks' (after the
    content's own part when it is no copy)."""
    parts, fields = decode_reasoning({"reasoning_content": content, "thinking_blocks": _BLOCKS})
    blocks, copied = decode_blocks(_BLOCKS, content)
    assert parts == (blocks if copied else [parts[0], *blocks])
    assert fields == ["reasoning_content", "thinking_blocks"]
