"""A2A's law facts (a conversation of ``Message`` objects, or a task's): the names that say the
protocol, what its answer has no place for (the clock, token counts and the model), and what
it rewrites without a report: a message's content is its parts, so a string is one text part."""

from __future__ import annotations

from functools import partial
from typing import Any

import chatcodec
from chatcodec.testing._laws import rewrites as r
from chatcodec.testing._laws.derived_entry import derived_entry


def _as_parts(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A user's or an agent's string content is one text part."""
    return [
        {**message, "content": [{"type": "text", "text": message["content"]}]}
        if isinstance(message["content"], str) and message["role"] in ("user", "assistant")
        else message
        for message in messages
    ]


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report, because the conversation means the same after it."""
    return r.rewritten(request, r.in_messages(_as_parts))


entry = partial(
    derived_entry,
    "a2a",
    names_in_prose=("A2A", "a2a"),
    unplaced_response_fields=("created", "usage", "model"),
    silent_rewrites=silent_rewrites,
)
"""The facts the codec gives, for ``chatcodec check-codec a2a``."""
