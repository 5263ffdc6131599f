"""What a LangChain history can carry, as data (``CAPABILITIES``): read by the shared history
rules, strict mode and the laws."""

from __future__ import annotations

from chatcodec.contract import Capabilities

CAPABILITIES = Capabilities(
    display_name="LangChain",
    tool_choice=frozenset(),
    system="messages",
    developer_role=False,
    freeform_calls=False,
    results_follow_calls=False,
    media=frozenset({"image", "audio", "document"}),
    tool_result_media=frozenset({"image", "audio", "document"}),
    reasoning=frozenset(),
    signed_thinking=True,
    cache_markers=False,
    multiple_choices=False,
    call_ids=True,
    strict_reading=False,
    tool_definitions=False,  # a stored history keeps calls and results, not the tools shown
    sampling_settings=frozenset(),  # nor the request's settings
    fitted_tool_names=False,  # its names are any string: no API reads them
)
"""A history keeps system messages in the list, media blocks, reasoning and Anthropic's signed
and redacted thinking as blocks, and calls by id; no cache markers, no tool definitions."""
