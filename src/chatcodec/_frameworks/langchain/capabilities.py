"""What a LangChain history can carry, as data (``CAPABILITIES``): read by the shared history
rules, strict mode and the laws."""

from __future__ import annotations

from dataclasses import replace

from chatcodec._frameworks.history import STORED_HISTORY

CAPABILITIES = replace(
    STORED_HISTORY,
    display_name="LangChain",
    media=frozenset({"image", "audio", "document"}),
    tool_result_media=frozenset({"image", "audio", "document"}),
    cache_markers=False,
    developer_role=True,  # as a ChatMessage of that role, which the reader keeps; any other is reported by the writer
)
"""A history keeps system messages in the list, media blocks, reasoning and Anthropic's signed
and redacted thinking as blocks, and calls by id; no cache markers, no tool definitions."""
