"""pydantic-ai's law facts (a stored history: ``ModelMessagesTypeAdapter`` dumps): what the codec
rewrites without a report, the names that say the framework and what its answer has no place for."""

from __future__ import annotations

from functools import partial
from typing import Any

import chatcodec
from chatcodec.testing._laws import rewrites as r
from chatcodec.testing._laws.derived_entry import derived_entry

NAME = "pydantic-ai"


def _failed(result: dict[str, Any]) -> dict[str, Any]:
    """An error result is a ``ToolReturnPart`` of ``outcome: "failed"``: read back with that
    outcome in its bag (``request_parts.py``), unless it was a retry prompt."""
    bags: dict[str, Any] = result.get("provider_metadata") or {}
    own: dict[str, Any] = bags.get(NAME) or {}
    if "outcome" in own or "_part_kind" in own:
        return {}
    return {"provider_metadata": {**bags, NAME: {**own, "outcome": "failed"}}}


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report, because the history means the same after it."""
    return r.rewritten(request, r.everywhere(({"type": "tool_result", "is_error": True}, _failed)))


entry = partial(
    derived_entry,
    NAME,
    names_in_prose=("pydantic-ai", "pydantic_ai"),
    silent_rewrites=silent_rewrites,
    unplaced_response_fields=("created",),
)
"""The facts the codec gives, for ``chatcodec check-codec pydantic-ai``."""
