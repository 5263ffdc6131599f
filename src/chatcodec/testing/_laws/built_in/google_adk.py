"""Google ADK's law facts (a stored history: a session's ``Event`` dumps): the names that say the
framework, what its answer has no place for, and what it rewrites without a report: an event's
content is a Gemini ``Content``, read and written by the ``gemini`` codec, so its rewrites of a
conversation's messages are Gemini's (a string is one text part, a result names its function,
consecutive results are one turn), stated once in Gemini's facts and taken from there."""

from __future__ import annotations

from functools import partial

import chatcodec
from chatcodec.testing._laws import rewrites as r
from chatcodec.testing._laws.built_in.gemini import gemini_messages, gemini_result
from chatcodec.testing._laws.derived_entry import derived_entry


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report, because the conversation means the same after it."""
    return r.rewritten(
        request,
        r.results_named,  # a result names its function
        r.in_messages(gemini_messages),
        r.everywhere(r.COMPACT_CALLS, r.AUTO_DETAIL, ({"type": "tool_result"}, gemini_result)),
    )


entry = partial(
    derived_entry,
    "google-adk",
    names_in_prose=("Google ADK", "google-adk", "ADK"),
    unplaced_response_fields=("created", "id"),
    silent_rewrites=silent_rewrites,
)
"""The facts the codec gives, for ``chatcodec check-codec google-adk``."""
