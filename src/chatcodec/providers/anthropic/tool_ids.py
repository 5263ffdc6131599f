"""Tool-call ids that Anthropic accepts, by a reversible, collision-free rewrite.

Anthropic rejects ``tool_use.id`` and ``tool_result.tool_use_id`` values that do not
match ``^[a-zA-Z0-9_-]+$`` (400 "String should match pattern"), and other providers mint
ids like ``functions.write:0`` (Kimi, DeepSeek) or ``call|abc`` (proxies). Replacing bad
characters with ``_`` (what many proxies do) makes ``a.b`` and ``a:b`` collide, and two
different calls then share one id.

The rewrite here is a pure function, so a call and its result always agree, and it is:

* **minimal**: a valid id is left alone (no length limit is documented in the API
  reference or the SDK types, so length alone never triggers a rewrite);
* **injective**: an id that needs rewriting becomes ``cc-`` followed by the id with every
  byte outside ``[A-Za-z0-9-]`` written as ``_`` plus two lowercase hex digits (UTF-8), so
  ``a.b`` -> ``cc-a_2eb`` and ``a:b`` -> ``cc-a_3ab``. A valid id that happens to *be* such
  an escape (``cc-a_2eb`` itself) is escaped too (``cc-cc-a_5f2eb``), so it cannot collide;
* **reversible**: :func:`restore_tool_use_id` undoes it, and decoding applies it, so
  ``encode(decode(x)) == x`` for every valid wire id.

The mechanism is the kit's :class:`~chatcodec.providers.kit.tool_id_mapping.ToolIdMapping`
(Bedrock Converse uses it with its own rule); this module binds it to Anthropic's.
"""

from __future__ import annotations

from collections.abc import Iterable

from chatcodec.providers.kit.tool_id_mapping import PREFIX, ToolIdMapping

__all__ = ["MAPPING", "PREFIX", "restore_tool_use_id", "sanitize_tool_use_id", "tool_id_rewrites"]

MAPPING = ToolIdMapping(r"^[a-zA-Z0-9_-]+$")
"""Anthropic's rule: the pattern of the API's 400, no length limit."""


def sanitize_tool_use_id(tool_use_id: str) -> str:
    """The id Anthropic is sent for ``tool_use_id``: unchanged when valid, else escaped."""
    return MAPPING.sanitize(tool_use_id)


def restore_tool_use_id(wire_id: str) -> str:
    """The original id behind a rewritten one; any other id is returned unchanged."""
    return MAPPING.restore(wire_id)


def tool_id_rewrites(ids: Iterable[str]) -> dict[str, str]:
    """``{original: sent}`` for the ids among ``ids`` that the encoder rewrites."""
    return MAPPING.rewrites(ids)
