"""This codec's name, its kit, its encoder options, and the spelling markers it keeps.

Pure spelling: ``_string`` (a message's content written as one string rather than a list of
text blocks: the API takes both, with one meaning).

Carry meaning: ``_document`` on a text part: the text is a ``document`` block's ``data``
(``"object"``: its compact JSON, written back as the object; ``"text"``: the text itself),
which another format sends as plain text, reported.

Data keys (reported by another format): a message's ``tool_plan`` and ``citations``; a
document's ``id``; an image's ``detail`` beyond the canonical one; the request's
``documents``, ``citation_options``, ``safety_mode``, ``strict_tools``, ``thinking``,
``response_format``, ``logprobs``, ``priority``; the response's ``logprobs`` and billed units.
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "cohere-chat"
"""Registry name, and the key of this codec's ``provider_metadata`` / ``provider_options`` bags."""

DISPLAY = "Cohere Chat"
"""How loss texts name the format."""

STRING = "_string"
"""Marker: a message's content came as one string."""

DOCUMENT = "_document"
"""Marker: a text part is a ``document`` block's data (``"object"`` or ``"text"``)."""

KIT = ProviderKit(
    PROVIDER,
    meaningful_markers={DOCUMENT: "the text is a Cohere document's data: a tool's structured output"},
)
"""The shared bag operations bound to this codec."""

OPTIONS = OptionTable.of(MODEL_OPTION, *RULE_OPTIONS)
"""This encoder's options: the model, and the target rules'."""
