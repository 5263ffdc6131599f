"""What a Google ADK session can carry, as data (``CAPABILITIES``): read by the shared history
rules, strict mode and the laws."""

from __future__ import annotations

from dataclasses import replace

from chatcodec._frameworks.history import STORED_HISTORY

CAPABILITIES = replace(STORED_HISTORY, display_name="Google ADK", system="top_level", cache_markers=False)
"""An event's content is a Gemini ``Content``: media inline or by URI, thoughts with their
signatures, calls and results by id; no system message (ADK's instruction belongs to the agent,
never to the session), no cache markers, no tool definitions or settings."""
