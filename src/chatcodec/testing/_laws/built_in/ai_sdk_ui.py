"""The AI SDK's ``UIMessage`` history's law facts: it rewrites nothing without a report (its
``_state``, ``_steps`` and ``_cont`` markers are spelling), the names that say the framework and
what its answer has no place for."""

from __future__ import annotations

from functools import partial

from chatcodec.testing._laws import rewrites as r
from chatcodec.testing._laws.derived_entry import derived_entry

entry = partial(
    derived_entry,
    "ai-sdk-ui",
    names_in_prose=("ai-sdk", "vercel"),
    silent_rewrites=r.nothing_rewritten,
    unplaced_response_fields=("created",),
)
"""The facts the codec gives, for ``chatcodec check-codec ai-sdk-ui``."""
