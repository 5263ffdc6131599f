"""pydantic-ai's law facts (a stored history: ``ModelMessagesTypeAdapter`` dumps): the names that
say the framework and what its answer has no place for. No documented rewrites yet: stated, they
turn the single-hop law's normal form from "without any bag" to "without spelling markers", under
which it finds what the reader adds to a bag (an error result's ``outcome: "failed"``, a redacted
thought's ``id``) before the rewrites are all written down."""

from __future__ import annotations

from functools import partial

from chatcodec.testing._laws.derived_entry import derived_entry

entry = partial(
    derived_entry,
    "pydantic-ai",
    names_in_prose=("pydantic-ai", "pydantic_ai"),
    unplaced_response_fields=("created",),
)
"""The facts the codec gives, for ``chatcodec check-codec pydantic-ai``."""
