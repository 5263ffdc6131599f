"""How the Gemini API frames a stream: SSE with ``alt=sse``, its lines ended by CRLF (without
``alt=sse``, one JSON array whose items arrive over time: the ``json-array`` framing a
caller names).

Its own module so a stream conversion reads it (:func:`~chatcodec._registry.get_framing`)
without importing ``edge.py``, which hands the same value to its ``Edge``.
"""

from __future__ import annotations

from chatcodec.contract import StreamFraming

FRAMING = StreamFraming("sse", line_end="\r\n")
"""The stream framing of this provider's server."""
