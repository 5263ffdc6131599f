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
    sampling_settings=frozenset(
        {"temperature", "top_p"}
    ),  # of the two the laws carry; the rest too (.request_settings)
)
"""Instructions apart (``gen_ai.system_instructions``) and system turns inline, media as
``blob``/``uri``/``file`` parts, reasoning as text (no signature), calls by id, the tools
offered (``gen_ai.tool.definitions``) and the sampling settings (``gen_ai.request.*``); no cache
markers, tool choice, reasoning or response format."""
