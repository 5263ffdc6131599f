"""What a pydantic-ai history can carry, as data (``CAPABILITIES``): read by the shared history
rules, strict mode and the laws."""

from __future__ import annotations

from chatcodec.contract import Capabilities

CAPABILITIES = Capabilities(
    display_name="pydantic-ai",
    tool_choice=frozenset(),
    system="messages",
    developer_role=False,
    freeform_calls=False,
    results_follow_calls=False,
    media=frozenset({"image", "audio", "video", "document"}),
    tool_result_media=frozenset({"image", "audio", "video", "document"}),
    reasoning=frozenset(),
    signed_thinking=True,
    cache_markers=True,
    multiple_choices=False,
    call_ids=True,
    strict_reading=False,
    tool_definitions=False,  # a stored history keeps calls and returns, not the agent's tools
    sampling_settings=frozenset(),  # nor its model settings
    fitted_tool_names=False,  # its names are any string: no API reads them
)
"""A history keeps system prompts among the parts, media by URL or bytes, thinking with its
provider's signature, cache points and calls by id; no tool definitions, no settings."""
