"""What a Cohere Chat v2 request can carry (``CAPABILITIES``): system turns in the message
list, images by URL in user turns, calls with ids and JSON-text arguments, results as text or
documents, ``tool_choice`` ``REQUIRED`` or ``NONE`` (absent: the model chooses), thinking
content in assistant turns, and nothing for caches or several answers."""

from __future__ import annotations

from chatcodec.contract import Capabilities
from chatcodec_cohere_chat.markers import DISPLAY

CAPABILITIES = Capabilities(
    display_name=DISPLAY,
    tool_choice=frozenset({"auto", "none", "required"}),
    system="messages",
    developer_role=False,
    freeform_calls=False,
    results_follow_calls=True,  # a tool message answers the assistant turn's tool_calls by id
    media=frozenset({"image"}),
    tool_result_media=frozenset(),
    reasoning=frozenset(),
    signed_thinking=False,
    cache_markers=False,
    multiple_choices=False,
    call_ids=True,
    strict_reading=False,
)
