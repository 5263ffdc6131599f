"""A record line that holds what is new since the session's line it extends, and the full
turn rebuilt from it: the one rule the gateway writes by and every reader reads by.

Why: a line that repeats the whole conversation and the whole prompt makes a session's
records grow with the square of its length (each turn's prompt holds every turn before it).
A line that ``extends`` an earlier complete line of its session keeps that line's messages
and its prompt + completion ids up to where they agree with its own (``messages_kept``,
``prompt_kept``) and writes only the rest (``messages_added``, ``prompt_added``; ``tools``
only where they changed): a session's records grow with its length. A break or a branch (a
rewritten history, a prompt that re-renders an earlier answer) keeps less and names the line
it starts from all the same. A reader rebuilds each line's ``messages``, ``prompt_ids`` and
``tools``; a line whose base it never read (a shard removed, the base line corrupt) is a loss
naming its line, never a turn rebuilt on something else.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from chatcodec._errors import PayloadError

KEPT_BASES = 32
"""The complete lines of a session a reader keeps for later lines to extend, the latest: a line
extends its writer's last one of the session, later than these unless as many turns of the
session went down in between (concurrent turns, other gateways' lines in one stream)."""
EXTENDS = "extends"
"""The field naming the request id of the line a delta line extends (absent on a full line)."""


@dataclass(frozen=True)
class LineBase:
    """What a later line of the session may extend: a complete line's request id, its messages,
    its prompt ids followed by its completion ids, and its tools."""

    request_id: str
    messages: Sequence[Mapping[str, Any]]
    ids: Sequence[int]
    tools: Sequence[Mapping[str, Any]]


def delta_fields(
    base: LineBase,
    messages: Sequence[Mapping[str, Any]],
    prompt_ids: Sequence[int],
    tools: Sequence[Mapping[str, Any]],
) -> dict[str, Any] | None:
    """The fields that stand in a line for its ``messages``, ``prompt_ids`` and ``tools`` when
    it extends ``base``, or None where it keeps nothing of it (a full line is no larger)."""
    messages_kept = _common(base.messages, messages)
    prompt_kept = _common(base.ids, prompt_ids)
    if messages_kept == 0 and prompt_kept == 0:
        return None
    fields: dict[str, Any] = {
        EXTENDS: base.request_id,
        "messages_kept": messages_kept,
        "messages_added": list(messages[messages_kept:]),
        "prompt_kept": prompt_kept,
        "prompt_added": list(prompt_ids[prompt_kept:]),
    }
    if list(tools) != list(base.tools):
        fields["tools"] = list(tools)
    return fields


def _common(kept: Sequence[Any], new: Sequence[Any]) -> int:
    """How many items ``new`` starts with that ``kept`` starts with (compared as lists, whole
    first: a turn that extends its base keeps all of it; else bisected, each compare C's)."""
    length = min(len(kept), len(new))
    old = kept[:length].tolist() if isinstance(kept, array) else list(kept[:length])
    now = list(new[:length])
    if old == now:
        return length
    low, high = 0, length
    while low < high:
        middle = (low + high + 1) // 2
        if old[low:middle] == now[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


class Rebuilder:
    """The full lines of one reading: each delta line's ``messages``, ``prompt_ids`` and
    ``tools`` rebuilt from the complete line it extends, read earlier in the store (a writer
    writes a base before the lines that extend it, in one file, shard sequence or stream)."""

    def __init__(self) -> None:
        self._bases: dict[str, dict[str, LineBase]] = {}

    def rebuilt(self, record: dict[str, Any], where: str) -> dict[str, Any]:
        """``record`` as a full line (a :class:`PayloadError` naming the field where a delta
        cannot be rebuilt); a complete line is kept as a base for the lines after it."""
        session, request_id = record.get("session"), record.get("request_id")
        extends = record.get(EXTENDS)
        if extends is not None:
            record = self._full(record, where, session, extends)
        if (
            record.get("status") == "complete"
            and isinstance(session, str)
            and isinstance(request_id, str)
            and isinstance(record.get("messages"), list)
            and isinstance(record.get("prompt_ids"), list)
            and isinstance(record.get("completion_ids"), list)
            and isinstance(record.get("tools"), list)
        ):
            kept = self._bases.setdefault(session, {})
            kept.pop(request_id, None)
            kept[request_id] = LineBase(
                request_id, record["messages"], [*record["prompt_ids"], *record["completion_ids"]], record["tools"]
            )
            if len(kept) > KEPT_BASES:
                del kept[next(iter(kept))]  # the oldest: a dict keeps the order lines were read
        return record

    def _full(self, record: dict[str, Any], where: str, session: object, extends: object) -> dict[str, Any]:
        if not isinstance(extends, str):
            raise PayloadError(f"'{EXTENDS}' names a line by its request id, a string", f"{where}.{EXTENDS}")
        base = self._bases.get(session, {}).get(extends) if isinstance(session, str) else None
        if base is None:
            raise PayloadError(
                f"the line extends {extends!r}, a complete line of its session this reading did not read before it "
                f"(removed, itself unreadable, or more than {KEPT_BASES} of the session's complete lines before it); "
                "the turn cannot be rebuilt",
                f"{where}.{EXTENDS}",
            )
        messages = _added(record, "messages", len(base.messages), where)
        prompt = _added(record, "prompt", len(base.ids), where)
        full = {key: value for key, value in record.items() if key not in _DELTA_FIELDS}
        full["messages"] = [*base.messages[: messages[0]], *messages[1]]
        full["prompt_ids"] = [*base.ids[: prompt[0]], *prompt[1]]
        full.setdefault("tools", list(base.tools))
        return full


_DELTA_FIELDS = frozenset({"messages_kept", "messages_added", "prompt_kept", "prompt_added"})


def _added(record: Mapping[str, Any], name: str, most: int, where: str) -> tuple[int, list[object]]:
    """A delta's ``NAME_kept`` (an integer from 0 to ``most``) and ``NAME_added`` (a list)."""
    kept, added = record.get(f"{name}_kept"), record.get(f"{name}_added")
    if type(kept) is not int or not 0 <= kept <= most:
        raise PayloadError(f"'{name}_kept' is an integer from 0 to {most} (its base's length)", f"{where}.{name}_kept")
    if not isinstance(added, list):
        raise PayloadError(f"'{name}_added' is a list", f"{where}.{name}_added")
    return kept, cast("list[object]", added)
