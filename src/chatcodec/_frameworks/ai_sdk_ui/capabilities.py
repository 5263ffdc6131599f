"""What an AI SDK ``UIMessage[]`` history can carry, as data (``CAPABILITIES``)."""

from __future__ import annotations

from dataclasses import replace

from chatcodec._frameworks.history import STORED_HISTORY

CAPABILITIES = replace(STORED_HISTORY, display_name="AI SDK UIMessage", tool_result_media=frozenset())
"""System messages in the list, media as file parts (URLs or data URLs), signed thinking and
cache markers in ``providerMetadata`` (which ``convertToModelMessages`` passes on), calls by id
with their output as a JSON value on the call's part; no media in tool outputs, no tool
definitions or settings."""
