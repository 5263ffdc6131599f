"""The AI SDK's ``ModelMessage`` history's law facts: the names that say the framework and what
its answer has no place for. (No documented rewrites yet: the single-hop law finds a ``KeyError``
for a base64 source without a media type in ``_frameworks/ai_sdk/media.py`` first.)"""

from __future__ import annotations

from functools import partial

from chatcodec.testing._laws.derived_entry import derived_entry

entry = partial(
    derived_entry,
    "ai-sdk-model",
    names_in_prose=("ai-sdk", "vercel"),
    # an answer is the assistant ModelMessages it adds to the history: no id, model or time
    unplaced_response_fields=("created", "id", "model"),
)
"""The facts the codec gives, for ``chatcodec check-codec ai-sdk-model``."""
