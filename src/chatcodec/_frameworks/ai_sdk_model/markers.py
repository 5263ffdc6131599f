"""The ``ai-sdk-model`` format's name, its kit, its encoder options and the markers it keeps.

Markers are keys starting with exactly one ``_`` in a bag (``provider_metadata["ai-sdk-model"]``),
never written out.

Pure spelling (another format drops them without a report): ``_file`` on an image (it was a
``file`` part of an image type, not an ``image`` part), ``_no_media_type`` on an image (its
``image`` part gave no ``mediaType``), ``_data_url`` on a media part (its data was a ``data:``
URL; ``_url_type`` its own media type when not the canonical one, :mod:`..ai_sdk.media`),
``_output`` on a tool result (its ``output`` type when the content does not say it:
``json`` / ``error-json``, whose value is written as JSON text, and ``execution-denied``),
``_no_reason`` on a denied result (no ``reason`` was given), ``_string_input`` on a call (its
``input`` was a JSON string, not an object).
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "ai-sdk-model"
"""Registry name, and the key of this format's ``provider_metadata`` bags."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations bound to this format."""

OPTIONS = OptionTable.of(MODEL_OPTION, *RULE_OPTIONS)
"""Taken as every encoder takes them (a history has no target rules to skip), so `convert --storage` works."""

DENIED = "execution-denied"
"""The ``output`` type of a call the user did not approve: an error result elsewhere."""

ROLES = {
    "finish_reason": "chatcodec._frameworks.ai_sdk.finish_reason",
    "usage": "chatcodec._frameworks.ai_sdk.usage",
}
"""The roles both AI SDK formats share, played by :mod:`chatcodec._frameworks.ai_sdk`."""
