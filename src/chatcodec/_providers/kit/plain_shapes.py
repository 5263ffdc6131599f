"""The plain shapes of canonical data, by their number of keys: a part or message holding
only the keys its type requires (no bag, no cache marker, no name), which every writer
writes as it is, first and without a look at anything else.

A writer tests ``len(part) == PLAIN_TEXT and part["type"] == "text"`` inline, not through
a function: the test runs for every part of every conversion, and a call costs more than
the test itself (measured on the 50-turn agent sessions of ``bench/``). The counts are the
required keys of the canonical types (``_model/canonical_types.py``: ``TextPartData`` and the
others), which ``tests/test_plain_shapes.py`` checks, so a new required key fails there.
"""

from __future__ import annotations

from typing import Final

PLAIN_TEXT: Final = 2
"""A text part of ``type`` and ``text`` alone."""

PLAIN_TOOL_USE: Final = 4
"""A tool call of ``type``, ``id``, ``name`` and ``arguments`` alone (a function call: no
``kind``); a writer also tests ``"arguments" in part`` where the kind is not known yet."""

PLAIN_TOOL_RESULT: Final = 3
"""A tool result of ``type``, ``tool_use_id`` and ``content`` alone."""

PLAIN_MESSAGE: Final = 2
"""A message of ``role`` and ``content`` alone."""
