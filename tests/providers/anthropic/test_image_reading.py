"""Reading an Anthropic image block: the common one (an agent's screenshot, ``type`` and a
base64 ``source`` of its three keys, in a user turn or a tool result) is read by a shortcut in
``parts._decode_image``; an image with anything more (a cache marker, another field, a source
of another type or with another key, an empty media type) takes the full reading. Both must
give what the full reading gives: the shortcut is a cost, never a behaviour."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec._providers.anthropic import parts

_DATA = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
_SCREENSHOT = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": _DATA}}


def _full_reading(block: dict[str, Any]) -> dict[str, Any] | None:
    """What ``_decode_image`` gives without its shortcut: the source read, then the part's bag."""
    source = parts._decode_source(block["source"], parts._IMAGE_SOURCES)
    if source is None:
        return None
    return parts._decoded_part({"type": "image", "source": source}, block, parts._IMAGE_FIELDS)


_BLOCKS = [
    _SCREENSHOT,
    {"type": "image", "source": {"data": _DATA, "type": "base64", "media_type": "image/png"}},  # key order kept
    {**_SCREENSHOT, "cache_control": {"type": "ephemeral"}},
    {**_SCREENSHOT, "citations": None},
    {"type": "image", "source": {"type": "base64", "media_type": "", "data": _DATA}},
    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": _DATA, "detail": "low"}},
    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "url": "https://x.test/a.png"}},
    {"type": "image", "source": {"type": "base64", "media_type": 7, "data": _DATA}},
    {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
    {"type": "image", "source": {"type": "file", "file_id": "file_011"}},
    {"type": "image", "source": {"type": "text", "media_type": "text/plain", "data": "hi"}},
]


@pytest.mark.parametrize("block", _BLOCKS)
def test_an_image_reads_as_the_full_reading_reads_it(block: dict[str, Any]) -> None:
    assert parts._decode_image(block, None) == _full_reading(block)


def test_the_shortcut_copies_the_source() -> None:
    """The part holds a source of its own (the validated copy is the reader's, but the part is
    canonical data a caller may change)."""
    part = parts._decode_image(_SCREENSHOT, None)
    assert part == _SCREENSHOT
    assert part is not None
    assert part["source"] is not _SCREENSHOT["source"]


def test_screenshots_in_a_user_turn_and_a_tool_result_reach_openai_chat() -> None:
    """An agent's request as Anthropic's SDK sends it: a screenshot in a tool result and one
    beside the user's words, read and written to OpenAI Chat as data URLs."""
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "what is on screen?"}, _SCREENSHOT]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01", "name": "shot", "input": {}}]},
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_01", "content": [_SCREENSHOT]},
                    {**_SCREENSHOT, "cache_control": {"type": "ephemeral"}},
                ],
            },
        ],
    }
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(body, source="anthropic", target="openai-chat", on_loss="ignore", losses=losses)
    url = f"data:image/png;base64,{_DATA}"
    assert written["messages"][0]["content"][1] == {"type": "image_url", "image_url": {"url": url}}
    assert written["messages"][2] == {"role": "tool", "tool_call_id": "toolu_01", "content": ""}
    assert written["messages"][3]["content"][0] == {"type": "image_url", "image_url": {"url": url}}
    assert [loss.what for loss in losses] == ["image part in a tool result"]
