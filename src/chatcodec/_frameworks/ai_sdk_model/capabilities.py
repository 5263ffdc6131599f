"""What an AI SDK ``ModelMessage[]`` history can carry, as data (``CAPABILITIES``)."""

from __future__ import annotations

from chatcodec.contract import Capabilities

CAPABILITIES = Capabilities(
    display_name="AI SDK ModelMessage",
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
    tool_definitions=False,  # a stored history keeps calls and results, not the tools shown
    sampling_settings=frozenset(),  # nor the request's settings
    fitted_tool_names=False,  # its names are any string: no API reads them
)
"""System messages in the list, media as file parts, signed thinking and cache markers in
``providerOptions``, calls by id; no tool definitions or settings."""
