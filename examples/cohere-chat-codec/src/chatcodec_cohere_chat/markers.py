"""This codec's name, its kit, its encoder options, and the spelling markers it keeps.

Pure spelling: ``_content`` on an assistant turn, where its content's spelling is not the one
the writer would choose: ``"string"`` (one string beside calls, rather than a list of one text
block), ``"absent"`` (no ``content`` and no calls), ``"empty"`` (an empty list beside calls).

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

CONTENT = "_content"
"""Marker: how an assistant turn's content was spelled, where the writer would spell it otherwise."""

DOCUMENT = "_document"
"""Marker: a text part is a ``document`` block's data (``"object"`` or ``"text"``)."""

KIT = ProviderKit(
    PROVIDER,
    meaningful_markers={DOCUMENT: "the text is a Cohere document's data: a tool's structured output"},
)
"""The shared bag operations bound to this codec."""

OPTIONS = OptionTable.of(MODEL_OPTION, *RULE_OPTIONS)
"""This encoder's options: the model, and the target rules'."""
