"""What an AI SDK ``ModelMessage[]`` history can carry, as data (``CAPABILITIES``)."""

from __future__ import annotations

from dataclasses import replace

from chatcodec._frameworks.history import STORED_HISTORY

CAPABILITIES = replace(STORED_HISTORY, display_name="AI SDK ModelMessage")
"""System messages in the list, media as file parts, signed thinking and cache markers in
``providerOptions``, calls by id; no tool definitions or settings."""
