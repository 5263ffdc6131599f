"""What a sampling message can carry (``CAPABILITIES``), as the 2025-11-25 schema has it:
text, image and audio content, tool use and tool results with ids, a top-level
``systemPrompt``, a ``toolChoice`` mode, and nothing for reasoning, caches or several answers."""

from __future__ import annotations

from chatcodec._frameworks.mcp_sampling.markers import DISPLAY
from chatcodec.contract import Capabilities

CAPABILITIES = Capabilities(
    display_name=DISPLAY,
    tool_choice=frozenset({"auto", "none", "required"}),
    system="top_level",
    empty_system=True,
    developer_role=False,
    freeform_calls=False,
    results_follow_calls=True,  # "tool results MUST be in the user message right after the tool use" (spec)
    media=frozenset({"image", "audio"}),
    tool_result_media=frozenset({"image", "audio"}),
    reasoning=frozenset(),
    signed_thinking=False,
    cache_markers=False,
    multiple_choices=False,
    call_ids=True,
    strict_reading=False,
    sampling_settings=frozenset({"temperature"}),  # no topP in CreateMessageRequest's params
)
