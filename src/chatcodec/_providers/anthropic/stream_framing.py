"""How the Anthropic Messages API frames a stream: SSE with ``event: <type>`` before each
``data:`` (https://docs.anthropic.com/en/api/messages-streaming).

Its own module so a stream conversion reads it (:func:`~chatcodec._registry.get_framing`)
without importing ``edge.py``, which hands the same value to its ``Edge``.
"""

from __future__ import annotations

from chatcodec.contract import StreamFraming

FRAMING = StreamFraming("sse", named_events=True)
"""The stream framing of this provider's server."""
