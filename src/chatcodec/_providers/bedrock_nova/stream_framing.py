"""How Bedrock InvokeModelWithResponseStream for Nova frames a stream: AWS event-stream binary
messages (``application/vnd.amazon.eventstream``).

Its own module so a stream conversion reads it (:func:`~chatcodec._registry.get_framing`)
without importing ``edge.py``, which hands the same value to its ``Edge``.
"""

from __future__ import annotations

from chatcodec.contract import StreamFraming

FRAMING = StreamFraming("event-stream")
"""The stream framing of this provider's server."""
