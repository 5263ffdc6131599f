"""How a provider's server frames a stream: the one part of its edge a stream conversion reads.

A provider folder's ``stream_framing.py`` holds its :class:`StreamFraming` (``FRAMING``),
which its ``edge.py`` hands to its :class:`~chatcodec._providers.contract.edge.Edge`; so
the framing is described once, and a stream conversion reads it
(:func:`~chatcodec._registry.get_framing`) without importing the edge and its ten frozen
dataclasses (routes, upstream, error shapes: facts a conversion never reads; about a
twentieth of a fresh process's first stream).

Framing, the one word the framing readers and writers share (:mod:`chatcodec.streams._framing`):

==================  ===============================================================
``sse``             Server-Sent Events: ``data:`` lines (``event:`` names when the
                    framing says so), maybe a sentinel (OpenAI's ``[DONE]``) at the end
``json-array``      one JSON array whose items arrive over time (Gemini without ``alt=sse``)
``event-stream``    AWS event-stream binary messages (Bedrock)
``jsonl``           JSON Lines: one event object per line (Ollama's ``/api/chat``)
==================  ===============================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from chatcodec._public_label import shown_as

__all__ = ["Framing", "StreamFraming"]

Framing: TypeAlias = Literal["sse", "json-array", "event-stream", "jsonl"]
"""A stream's framing: SSE, a JSON array, AWS event-stream, or JSON Lines."""


@dataclass(frozen=True, slots=True)
class StreamFraming:
    """How the provider's server frames a stream of wire events."""

    framing: Framing = "sse"
    """What the provider's own server sends (Gemini's with ``alt=sse``)."""
    named_events: bool = False
    """SSE only: each event is preceded by ``event: <its "type">`` (its :attr:`name_key`)."""
    done: str | None = None
    """SSE only: the data of a last event that ends the stream (OpenAI's ``[DONE]``)."""
    line_end: str = "\n"
    """SSE only: the line end the server writes (Gemini's ``alt=sse`` uses CRLF)."""
    name_key: str = "type"
    """SSE with named events only: the event's key that holds its name (Gemini Interactions'
    ``event_type``)."""

    @property
    def text(self) -> Literal["sse", "jsonl"]:
        """The text form of the stream (``to_sse``): SSE, or JSON Lines for a server that
        does not speak SSE (Bedrock's binary event-stream, Ollama's JSON Lines)."""
        return "sse" if self.framing == "sse" else "jsonl"


shown_as("chatcodec.contract", StreamFraming)
