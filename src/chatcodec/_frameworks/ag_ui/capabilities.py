"""What an AG-UI conversation can carry, as data (``CAPABILITIES``): read by the shared history
rules, strict mode and the laws."""

from __future__ import annotations

from dataclasses import replace

from chatcodec._frameworks.history import STORED_HISTORY

CAPABILITIES = replace(
    STORED_HISTORY,
    display_name="AG-UI",
    developer_role=True,
    signed_thinking=False,
    cache_markers=False,
    empty_system=False,
    tool_definitions=True,
)
"""AG-UI 1.0 messages: a developer role of its own, media (by bytes, URL or provider file
handle) in user messages and tool results, reasoning messages with an opaque
``encryptedValue`` but no signature, calls by id; no cache markers, and a system or developer
message is one string (an empty one says nothing). The tools a run offers are
``RunAgentInput``'s ``tools`` (no tool choice, no strict flag, no settings)."""
