"""How the Interactions API frames a stream: SSE, each event named by an ``event:`` line
(``event: step.delta``; the streaming guide's REST example,
https://ai.google.dev/gemini-api/docs/interactions/streaming). The name is the event's
``event_type``, which the data holds too.

Its own module so a stream conversion reads it without importing ``edge.py``.
"""

from __future__ import annotations

from chatcodec.contract import StreamFraming

FRAMING = StreamFraming("sse", named_events=True, name_key="event_type")
"""The stream framing of this provider's server."""
