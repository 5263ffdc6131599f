"""The calls a conversation already holds, so the ids made for a new completion continue
their numbering and collide with none of them.

A format that writes no call id (Hermes, Qwen3's ``<tool_call>``) has its ids made by the
parser (``call_0``, ``call_1``, ...). Parsed turn by turn, every turn would start again at
``call_0``: an Anthropic history with two ``tool_use`` blocks of one id is refused, an
OpenAI agent keys the results on the id, ART splits an episode on it. The gateway and a
``parse_completion`` loop both number from the calls made so far and skip any id the
conversation holds (a harness's own ids, a result whose call was compacted away).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from chatcodec._narrow import as_dict, as_list


@dataclass(frozen=True, slots=True)
class HeldCalls:
    """What a conversation holds of calls: how many were made, and every id it names."""

    made: int
    """The calls its assistant messages made: the next made id's number."""
    ids: frozenset[str]
    """Every call id it names, in a call or in a result."""


def held_calls(messages: Iterable[Mapping[str, Any]]) -> HeldCalls:
    """The calls canonical ``messages`` hold (``tool_use`` parts, and the ids ``tool_result``
    parts answer)."""
    made, ids = 0, set[str]()
    for message in messages:
        for part in _parts(message):
            kind = part.get("type")
            if kind == "tool_use":
                made += 1
                _add(ids, part.get("id"))
            elif kind == "tool_result":
                _add(ids, part.get("tool_use_id"))
    return HeldCalls(made, frozenset(ids))


def _parts(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    return [part for item in (as_list(content) or []) if (part := as_dict(item)) is not None]


def _add(ids: set[str], value: object) -> None:
    if isinstance(value, str) and value:
        ids.add(value)
