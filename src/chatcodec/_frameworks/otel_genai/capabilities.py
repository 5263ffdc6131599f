"""What a trace's GenAI messages can carry, as data (``CAPABILITIES``)."""

from __future__ import annotations

from dataclasses import replace

from chatcodec._frameworks.history import STORED_HISTORY

CAPABILITIES = replace(
    STORED_HISTORY,
    display_name="OpenTelemetry GenAI",
    signed_thinking=False,
    cache_markers=False,
    system="top_level_and_turns",
    tool_definitions=True,
)
"""Instructions apart (``gen_ai.system_instructions``) and system turns inline, media as
``blob``/``uri``/``file`` parts, reasoning as text (no signature), calls by id, the tools
offered (``gen_ai.tool.definitions``); no cache markers, tool choice or settings."""
