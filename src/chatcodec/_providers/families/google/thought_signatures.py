"""A Gemini thought signature held in a call's ``gemini`` bag (a Google family fact).

Gemini carries the signature of a function call as ``thoughtSignature`` on the
``functionCall`` part, and Gemini 3 refuses a tool loop whose call comes back without it
(https://ai.google.dev/gemini-api/docs/thought-signatures). Canonical keeps it in the call's
``gemini`` bag under that key, where the Gemini writer finds it; a format with its own
carrier takes it out of that bag and puts it back on reading: OpenAI Chat's
``extra_content.google.thought_signature`` (Gemini's OpenAI-compatible endpoint),
Anthropic's tool id (``_providers/anthropic/tool_ids.py``).

Not to the Interactions API (``gemini_interactions/``): it carries a signature on a ``thought``
step alone, "an encrypted representation of the model's internal reasoning state"
(https://ai.google.dev/gemini-api/docs/interactions/thinking), and no Google page says it takes
one ``generateContent`` wrote, while a signature the backend cannot use is refused
(400 ``INVALID_ARGUMENT`` for a corrupted one, https://docs.cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures).
So its writer reports a ``gemini`` signature (a call's bag, a thought part) rather than moving it
onto a step it was not made for (``tests/providers/gemini_interactions/test_requests.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

GEMINI = "gemini"
"""The Gemini codec's bag name (its provider name)."""
GEMINI_KEY = "thoughtSignature"
"""The signature's key in that bag, as Gemini spells the part field."""


def attach_signature(part: dict[str, Any], signature: str | None) -> dict[str, Any]:
    """``part`` with ``signature`` in its ``gemini`` bag."""
    if signature is not None:
        metadata: dict[str, Any] = part.setdefault("provider_metadata", {})
        metadata[GEMINI] = {**metadata.get(GEMINI, {}), GEMINI_KEY: signature}
    return part


def split_signature(metadata: Mapping[str, Any] | None) -> tuple[str | None, Mapping[str, Any] | None]:
    """The signature a tool call's ``gemini`` bag holds, and the metadata without it (what
    is left of another provider's data is reported as usual)."""
    bag = (metadata or {}).get(GEMINI)
    signature = bag.get(GEMINI_KEY) if bag is not None else None
    if metadata is None or bag is None or not isinstance(signature, str):
        return None, metadata
    rest = {key: value for key, value in bag.items() if key != GEMINI_KEY}
    others = {name: value for name, value in metadata.items() if name != GEMINI}
    return signature, {**others, GEMINI: rest} if rest else others
