"""How Ollama's ``/api/chat`` frames a stream: JSON Lines: one event object per line.

Its own module so a stream conversion reads it (:func:`~chatcodec._registry.get_framing`)
without importing ``edge.py``, which hands the same value to its ``Edge``.
"""

from __future__ import annotations

from chatcodec.contract import StreamFraming

FRAMING = StreamFraming("jsonl")
"""The stream framing of this provider's server."""
