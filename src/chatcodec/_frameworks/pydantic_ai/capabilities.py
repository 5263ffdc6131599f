"""What a pydantic-ai history can carry, as data (``CAPABILITIES``): read by the shared history
rules, strict mode and the laws."""

from __future__ import annotations

from dataclasses import replace

from chatcodec._frameworks.history import STORED_HISTORY

CAPABILITIES = replace(STORED_HISTORY, display_name="pydantic-ai")
"""A history keeps system prompts among the parts, media by URL or bytes, thinking with its
provider's signature, cache points and calls by id; no tool definitions, no settings."""
