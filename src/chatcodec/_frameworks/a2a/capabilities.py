"""What an A2A conversation can carry, as data (``CAPABILITIES``): read by the shared history
rules, strict mode and the laws."""

from __future__ import annotations

from dataclasses import replace

from chatcodec._frameworks.a2a.markers import DISPLAY
from chatcodec._frameworks.history import STORED_HISTORY

CAPABILITIES = replace(
    STORED_HISTORY,
    display_name=DISPLAY,
    tool_result_media=frozenset(),
    signed_thinking=False,
    cache_markers=False,
    call_ids=False,
)
"""A message is a user's or an agent's parts: text, files by bytes or URL (any media type),
JSON data; no system message, tool calls or results, thinking or cache markers (each a loss,
:mod:`.messages`), no tool definitions or settings."""
