"""The ``langchain`` format's name, its kit, its encoder options and the markers it keeps.

Markers are keys starting with exactly one ``_`` in a bag (``provider_metadata["langchain"]``),
never written out.

Pure spelling (another format drops them without a report): ``_string`` on a message (its
content was one string, not a list of blocks), ``_bare`` on a text part (a plain string item of
a content list), ``_lc`` on a message (it was stored by ``dumpd``: the constructor envelope's
``lc`` and ``id``), ``_status`` on a tool result (``status: "success"`` was written out), ``_empty`` on a message
(the fields ``messages_to_dict`` writes holding their defaults: ``{}``, ``null``, ``[]``),
``_image_url``, ``_input_audio`` (the ``format`` as given) and ``_file`` on a media part (it was
that OpenAI Chat block; the nested object's other keys ride in the bag under its key, a wire
value another format reports), ``_text_plain`` on a document (a ``text-plain`` block of
``base64``, ``url`` or ``file_id``), ``_no_mime_type`` on one (its block had none), ``_data_url``
on inline media (a standard block's ``url`` was this ``data:`` URL; ``"mime_type"`` when the
block also named its media type), ``_extras_cache`` on a part (its block held its cache marker
in ``extras``), ``_chat`` on
a message (it was a ``ChatMessage``, of that ``role``).

Carry meaning: ``_invalid`` on a tool call (LangChain could not parse its arguments: an
``invalid_tool_calls`` entry, with its ``error``), ``_role`` on a message (a ``ChatMessage``'s
role no canonical role stands for: read as a user message).
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "langchain"
"""Registry name, and the key of this format's ``provider_metadata`` bags."""

KIT = ProviderKit(
    PROVIDER,
    meaningful_markers={
        "_invalid": "LangChain could not parse this call's arguments (invalid_tool_calls)",
        "_role": "a LangChain ChatMessage's role no other format has, read as a user message",
    },
)
"""The shared bag operations bound to this format."""

OPTIONS = OptionTable.of(MODEL_OPTION, *RULE_OPTIONS)
"""Taken as every encoder takes them (a history has no target rules to skip), so `convert --storage` works."""

MESSAGE_CLASSES = {
    "human": "HumanMessage",
    "ai": "AIMessage",
    "system": "SystemMessage",
    "tool": "ToolMessage",
    "chat": "ChatMessage",
}
"""``messages_to_dict``'s ``type`` -> the class ``dumpd`` names in its constructor ``id``."""

KIND_OF_CLASS = {name: kind for kind, name in MESSAGE_CLASSES.items()}
"""The reverse: ``dumpd``'s class name -> the message type."""
