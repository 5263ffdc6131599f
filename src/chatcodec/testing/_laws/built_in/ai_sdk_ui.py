"""The AI SDK's ``UIMessage`` history's law facts: the names that say the framework and what its
answer has no place for. (No documented rewrites yet: stated as "none", the single-hop law's
stricter normal form finds changes a random run of ``check-codec`` shows and a derandomized one
does not, to be written down first.)"""

from __future__ import annotations

from functools import partial

from chatcodec.testing._laws.derived_entry import derived_entry

entry = partial(
    derived_entry,
    "ai-sdk-ui",
    names_in_prose=("ai-sdk", "vercel"),
    unplaced_response_fields=("created",),
)
"""The facts the codec gives, for ``chatcodec check-codec ai-sdk-ui``."""
