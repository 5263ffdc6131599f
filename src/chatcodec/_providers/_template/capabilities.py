"""What this wire can carry, as data (``CAPABILITIES``).

The shared history rules (``_providers/history/turns.py``), strict mode and the conformance
laws read this record instead of assuming a feature of every provider: state each flag as
the provider's documentation has it, and a shared rule adapts (results moved after their
calls, a developer turn sent as system, ``strict=True`` refused where it cannot be read).
"""

from __future__ import annotations

from chatcodec.contract import Capabilities

CAPABILITIES = Capabilities(
    display_name="Template Chat",
    tool_choice=frozenset(),
    system="messages",
    empty_system=False,
    developer_role=False,
    freeform_calls=False,
    results_follow_calls=True,
    media=frozenset(),
    tool_result_media=frozenset(),
    reasoning=frozenset(),
    signed_thinking=False,
    cache_markers=False,
    multiple_choices=False,
    call_ids=False,
    strict_reading=False,  # no known_fields.json (generated from an SDK) and no structure role
)
"""The toy wire carries text turns only."""
