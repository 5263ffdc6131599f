"""Gemini Interactions' law facts: what the codec rewrites without a report (``request.py``,
``messages.py``, ``parts.py``), what a stream and a body of one answer share."""

from __future__ import annotations

from functools import partial
from typing import Any

import chatcodec
from chatcodec.codec_kit import is_dict, is_list
from chatcodec.testing._laws import rewrites as r
from chatcodec.testing._laws.derived_entry import derived_entry

PROVIDER = "gemini-interactions"


def _plain_text(part: dict[str, Any]) -> bool:
    """A text part with nothing but its text."""
    return part.get("type") == "text" and not part.get("cache_control") and not part.get("provider_metadata")


def _content(message: dict[str, Any]) -> dict[str, Any]:
    """A turn of one plain text part reads back as that text (canonical's spelling of it)."""
    content: object = message["content"]
    first = content[0] if is_list(content) and len(content) == 1 else None
    if is_dict(first) and _plain_text(first) and not first.get("citations"):
        return {**message, "content": first["text"]}
    return message


def _messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive tool messages are one run of ``function_result`` steps, and consecutive
    assistant messages one run of the model's steps: each reads back as one message."""
    listed = [
        {**message, "content": [{"type": "text", "text": message["content"]}]}
        if isinstance(message["content"], str)
        else message
        for message in messages
    ]
    joined = r.joined(
        lambda before, message: r.tool_runs(before, message) or message["role"] == before[-1]["role"] == "assistant",
        listed,
    )
    return [_content(message) for message in joined]


def _reasoning(top: dict[str, Any]) -> dict[str, Any]:
    """Thinking on is the API's default (only a level or summaries are sent), so a switch on
    says nothing, and a config of nothing is none."""
    reasoning = {key: value for key, value in top["reasoning"].items() if value is not None}
    if reasoning.get("enabled") is True:
        del reasoning["enabled"]
    return {"reasoning": reasoning or None}


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report, because the request means the same after it."""
    return r.rewritten(
        request,
        r.in_messages(_messages),
        r.everywhere(
            r.COMPACT_CALLS,  # sent as the parsed ``arguments`` object
            r.AUTO_DETAIL,  # the API's own default resolution: none sent (``parts._media``)
            ({"type": "tool_result", "is_error": False}, {"is_error": None}),  # is_error is sent only when true
        ),
        r.at_top(
            ({"response_format": {"type": "text"}}, {"response_format": None}),  # text is the default: not sent
            ({"reasoning": {}}, _reasoning),
            ({"logprobs": False}, {"logprobs": None}),  # asks for nothing
            ({"top_logprobs": 0}, {"top_logprobs": None}),
        ),
    )


ECHOED_ANSWER: dict[str, Any] = {
    "id": "int_1",
    "model": "gemini-3-flash",
    "status": "completed",
    "steps": [
        {"type": "user_input", "content": [{"type": "text", "text": "Hi"}]},
        {"type": "model_output", "content": [{"type": "text", "text": "Hello!"}]},
    ],
}
"""An Interaction whose steps echo the turn it answered (``_echoed_turns``, a response marker:
the caller's turn, kept out of the answer and written back in its place only here)."""


entry = partial(
    derived_entry,
    PROVIDER,
    names_in_prose=("gemini", "google", "interactions"),
    silent_rewrites=silent_rewrites,
    # an Interaction's ``created`` is its own ISO time, kept in its bag: the server's clock, nothing a user sent
    unplaced_response_fields=("created", "usage.cache_write_tokens"),  # no such count: a nonzero one is reported
    marker_responses={"_echoed_turns": ECHOED_ANSWER},
)
"""The facts the codec gives, for ``chatcodec check-codec gemini-interactions``."""
