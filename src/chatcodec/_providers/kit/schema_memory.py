"""Schema rewrites answered from memory (an agent sends the same tools every turn): the
process-wide ``_UNCHANGED``, owned here and bounded at :data:`LIMIT` (``docs/performance.md``,
"Memories"); within one conversion a schema's text is made once, kept in its ``Reading``.

A schema's text is its ``marshal`` text, as the memory of tool readings keys tools
(:mod:`~chatcodec._providers.kit.remembered_tools`): it writes only Python's exact built-in
types, each with its own type code, so a text names one value exactly, and it is cheaper to
make and read than JSON text. pydantic-core's ``to_json`` imported ``uuid`` and ``pathlib``
the first time a process called it, which a first request paid for its tools' schemas."""

from __future__ import annotations

from collections.abc import Callable
from marshal import dumps, loads
from typing import TYPE_CHECKING, Any, cast

from chatcodec._text_memory import Held

if TYPE_CHECKING:
    from chatcodec._losses import Steps
    from chatcodec._providers.contract.context import Reading
    from chatcodec._providers.kit.schema_walk import SchemaChange

Rewrite = Callable[[Any, "Steps"], tuple[Any, list["SchemaChange"]]]
"""A schema rewrite: the new schema (the same object when nothing changed) and its changes."""
NotedRewrite = Callable[[Any, "Steps", "Reading | None"], tuple[Any, list["SchemaChange"]]]
"""A rewrite that reads the conversion's reading too (``noted=True``)."""
LIMIT = 512
"""Unchanged schemas remembered at once; all forgotten past it (a new set of tools)."""
_HELD = Held(1 << 21)
"""Bytes of text the remembered schemas hold at once (2 MiB; each entry holds its text and
the value parsed from it); all forgotten past it, as past :data:`LIMIT`."""
_UNCHANGED: dict[tuple[object, bytes], object] = {}  # (rewrite, marshal text) -> the value left unchanged
_CHANGED: dict[tuple[object, bytes, Steps], tuple[object, bytes, tuple[SchemaChange, ...]]] = {}
"""(rewrite, marshal text, the schema's place) -> the value rewritten, the ``marshal`` text of what
the rewrite gave it, and its changes (an agent's strict tools, closed for strict mode every request
at the same places: a rewrite is a function of the schema's value and its place). Bounded with
:data:`_UNCHANGED` (:data:`LIMIT`, :data:`_HELD`)."""


def cached_rewrite(
    rewrite: Rewrite | NotedRewrite,
    schema: Any,
    at: Steps,
    *,
    exact: bool = False,
    reading: Reading | None = None,
    noted: bool = False,
) -> tuple[Any, list[SchemaChange]]:
    """``rewrite(schema, at)`` (with ``reading`` when ``noted``); ``(schema, [])`` for one it
    was seen to leave alone (a value equal to the text's). The text is made once per object
    in one conversion (``reading``'s schema texts): the reader and the writer each ask.
    ``exact``: ``schema`` is a copy a reader's closed front made (every value JSON's own
    type, :func:`~chatcodec._providers.kit.closed_schema.json_value`), so its text names it
    exactly; an object compared once is exact for the rest of the conversion."""
    notes = None if reading is None else reading.schema_texts
    known_text = None if notes is None else notes.get(id(schema))
    if known_text is not None and known_text[0] is schema:
        key = (rewrite, known_text[1])
        exact = exact or known_text[2]
    else:
        try:
            key = (rewrite, dumps(schema))
        except ValueError:  # holds itself (too deep), or a value marshal does not write: walked as it is
            return _rewritten(rewrite, schema, at, reading, noted)
        if notes is not None:
            notes[id(schema)] = (schema, key[1], exact)
    known = _UNCHANGED.get(key)
    if known is not None and (exact or known == schema):
        if not exact and notes is not None:
            notes[id(schema)] = (schema, key[1], True)
        return schema, []
    changed = _CHANGED.get((*key, at))
    if changed is not None and (exact or changed[0] == schema):
        return loads(changed[1]), list(changed[2])
    result = _rewritten(rewrite, schema, at, reading, noted)
    if result[0] is not schema:
        _remember_changed(key, schema, result, at)
        return result
    if result[1] or len(key[1]) > 1 << 16:
        return result
    value = loads(key[1])
    if value == schema:
        if len(_UNCHANGED) >= LIMIT or _HELD.over(len(key[1])):
            _UNCHANGED.clear()  # a new set of tools
            _CHANGED.clear()
            _HELD.size = 0
        _UNCHANGED[key] = value
        _HELD.size += len(key[1])
    return result


def _remember_changed(
    key: tuple[object, bytes], schema: Any, result: tuple[Any, list[SchemaChange]], at: Steps
) -> None:
    """Remember what ``rewrite`` (``key``'s) gave ``schema`` at ``at``: a new value and its changes,
    when the key's text is the schema's value and the new value's text is it (else nothing: it is
    rewritten again next time)."""
    changes = result[1]
    if changes.__class__ is not list or len(key[1]) > 1 << 16:
        return
    try:
        text = dumps(result[0])
    except ValueError:
        return
    value = loads(key[1])
    if value != schema or loads(text) != result[0]:  # (a NaN, or a value the text does not name)
        return
    if len(_CHANGED) >= LIMIT or _HELD.over(len(key[1]) + len(text)):
        _UNCHANGED.clear()  # a new set of tools
        _CHANGED.clear()
        _HELD.size = 0
    _CHANGED[(*key, at)] = (value, text, tuple(changes))
    _HELD.size += len(key[1]) + len(text)


def _rewritten(
    rewrite: Rewrite | NotedRewrite, schema: Any, at: Steps, reading: Reading | None, noted: bool
) -> tuple[Any, list[SchemaChange]]:
    if noted:
        return cast("NotedRewrite", rewrite)(schema, at, reading)
    return cast("Rewrite", rewrite)(schema, at)
