"""A request's function tools, read from memory when the same tools were read before.

An agent sends the same tools with every request of a session, and reading them costs more
than reading a message (a tool's kind, its bag, whether its schema goes back as it came: the
as-sent test; ``docs/performance.md``, "Levers in the code", for what it saves). The reading
is a function of the tools' value alone, so :func:`recall` and :func:`remember` keep it by
the tools' ``marshal`` text, cheaper to make than the reading:
``marshal`` writes only Python's exact built-in types, each with its own type code, so two
lists with one text hold the same values of the same types (``1``, ``1.0`` and ``True``
differ, as a JSON schema's ``const`` does), which an ``==`` compare would not prove.

The answer is never the remembered objects themselves (the caller's canonical data is its
own, and a writer may take keys out of a bag): it is a new copy (``marshal.loads``), each
tool's ``parameters`` the object this request's closed front made for it, as a reading
gives it, and what the reading noted on that object for the writer (its text and
whether it looks like Gemini's spelling, in the conversion's
:class:`~chatcodec._providers.contract.context.Reading`, ``notes``) noted again, so the
writer asks nothing the reading had answered.

The memory (``_READINGS``) is process-wide, owned by this module and bounded at
:data:`LIMIT` readings, all forgotten past it (``docs/performance.md``, "Memories").

A reading is remembered only within a conversion (the notes go to its writer), only when each
canonical tool's ``parameters`` is its wire tool's schema itself or a default it made, and
only for what the reader says it reads whole (``read`` answers None for tools it would keep
by reference, such as another kind of tool kept whole).

A reader may also look its tools up *before* its closed front validates them, by the
caller's own list (:func:`recall` with ``unchecked``): a reading remembered ``whole`` keeps
the schemas' ``marshal`` text too, so the answer's schemas are new copies of values the front
took before (the key's text proves the value the same), and the front need not check them
node by node nor copy them again. The caller's text is remembered under as it is: a list
the front copied is another text (``marshal`` writes an object's sharing too).
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from chatcodec._narrow import as_dict
from chatcodec._text_memory import Held

if TYPE_CHECKING:
    from chatcodec._losses import LossKind, Steps

SchemaTexts = dict[int, tuple[Any, bytes, bool]]
"""Each schema object's text (:mod:`~chatcodec._providers.kit.schema_memory`) and whether
the object is exactly the text's value, the object held beside them (so its ``id`` names it
while the record lives); under its negated ``id``, whether it looks like Gemini's spelling
instead of the text (a conversion's
:attr:`~chatcodec._providers.contract.context.Reading.schema_texts`)."""
OwnMarkers = tuple[dict[str, Any], str, "Callable[[Any], dict[str, Any]] | None", Any]
"""An object, a provider, and that provider's bag for it: the last item, or what the
function in third place makes of it (made only if it is put; a conversion's
:attr:`~chatcodec._providers.contract.context.Reading.own`)."""

LIMIT = 64
"""Readings remembered at once (a server sees many sessions' tools); all forgotten past it."""
_HELD = Held(1 << 21)
"""Bytes of ``marshal`` text the readings hold at once (2 MiB: a thousand tools'
readings cannot keep more alive); all forgotten past it, as past :data:`LIMIT`."""

_Note = tuple[bytes, bool] | None
"""A schema's text and whether it is exact (``schema_texts[id(schema)]``), when noted."""
_Look = bool | None
"""Whether a schema looks like Gemini's spelling (``schema_texts[~id(schema)]``), when noted."""

Written = dict[object, tuple[dict[str, Any], ...] | bytes]
"""A reading's tools as writers wrote them: a writer's key (its function and what else its
writing depends on) -> the tools it wrote, each a flat object of immutable values (a
string, a number, a bool, None), each schema it sent as the canonical tool held it left as
None (:func:`written`, :func:`remember_written`). Objects, not ``marshal`` text: a flat
object's shallow copy is a new object of the same values, cheaper than reading a text.
A writer that writes the caller's own tools whole (:func:`written_whole`) keeps their
``marshal`` text instead, schemas and all: one ``loads`` is the whole copy (with the losses
that writing recorded, when it recorded some: :data:`Report`; and what it noted beside them:
:data:`Marks`)."""

Report = Sequence[tuple["Steps", str, str, "LossKind"]]
"""The losses a writing of tools recorded, each its place (its steps from the body's top), its
text and its kind (a recorder's ``below``, for its ``repeat``): a writing with a loss remembered
whole (:func:`remember_written_whole`) is repeated with them. What a writer reports of tools (a
strict schema closed, a cache marker the target has no place for, a name rewritten) is a
function of their value alone, as the writing is, and named at places in the tools."""
NO_REPORT: Report = ()
"""The report of a writing that recorded no loss."""

Marks = tuple[tuple[int, "Steps"], ...]
"""What a writing of tools noted beside them for its caller, each the index of the written tool
it noted and the place it noted it at (Anthropic's writer notes a cache breakpoint on its
context for each tool it writes a marker on, for the body's limit of four): a writing remembered
whole (:func:`remember_written_whole`) is repeated with them, for the caller to note again on
the copy's own tools by the writer's own function. A function of the tools' value alone, as
the writing is."""
NO_MARKS: Marks = ()
"""The marks of a writing that noted nothing beside its tools."""

_IMMUTABLE = frozenset({str, int, float, bool, type(None)})
"""The types of a value a shallow copy may share (:data:`Written`)."""

_Kept = bytes | tuple[dict[str, Any], ...]
"""A reading's canonical tools, each schema left out: a ``marshal`` text, or flat objects (:func:`_flat`)."""
_Record = tuple[_Kept, bytes | None, tuple[bool, ...], tuple[_Note, ...], tuple[_Look, ...], Written]
_READINGS: dict[tuple[object, bytes], _Record] = {}
"""(the reader, the wire tools' ``marshal`` text) -> the ``marshal`` text of the canonical
tools (each tool's own schema left as None) and of the markers the reading kept for its own
writer (:attr:`.Reading.own`, by tool), or the tools themselves when they are flat and
there are no markers (:func:`_flat`), the ``marshal`` text of the schemas the tools hold
of their wire tools (a reading remembered ``whole``; else None), which tools hold their wire
schema, its notes, and the tools as each writer wrote them (:data:`Written`)."""


class Recalled:
    """A recalled reading's canonical tools (the list :func:`recall` answered, held) and the
    texts its writers wrote them as: what a conversion's record carries to its writer
    (:attr:`~chatcodec._providers.contract.context.Reading.recalled`), so the writer of the
    same tools asks this record, not the memory."""

    __slots__ = ("tools", "written")

    def __init__(self, tools: list[dict[str, Any]], written: Written) -> None:
        self.tools: list[dict[str, Any]] = tools
        """The canonical tools :func:`recall` answered."""
        self.written: Written = written
        """The tools as each writer wrote them, the reading's own (:func:`remember_written` fills it)."""


def recall(
    tools: list[dict[str, Any]],
    key: object,
    owned: list[OwnMarkers],
    texts: SchemaTexts,
    nested: str | None = None,
    *,
    unchecked: bool = False,
    schema: str = "parameters",
) -> tuple[list[dict[str, Any]] | None, bytes | None, Recalled | None]:
    """The canonical tools remembered for ``tools`` read by ``key`` (the reader and what else
    its reading depends on; ``nested``: the key of a wire tool's object that holds its
    ``parameters``; ``schema``: the key a wire tool holds its schema under, where it is
    not ``parameters``), their notes given again to a conversion's record (its ``owned`` markers
    and schema ``texts``); else None and the text to
    :func:`remember` this reading under (None: tools ``marshal`` cannot write). The reader
    calls it, then reads and remembers, so this module calls none of the reader's code.
    ``unchecked``: ``tools`` is the caller's own list, which no front copied: only a reading
    remembered ``whole`` is an answer (its schemas copies of the remembered ones).
    Third, for a reading found, what its writers may ask of it (:class:`Recalled`)."""
    try:
        text = marshal.dumps(tools)
    except ValueError:  # a value that is no built-in type, or nested past marshal's depth
        return None, None, None
    remembered = _READINGS.get((key, text))
    if remembered is None or (unchecked and remembered[1] is None):
        return None, text, None
    canonical = _rebuilt(tools, remembered, (nested, schema), owned, texts, unchecked=unchecked)
    return canonical, None, Recalled(canonical, remembered[5])


def remember(
    text: bytes | None,
    key: object,
    tools: Sequence[dict[str, Any]],
    canonical: list[dict[str, Any]] | None,
    *,
    owned: list[OwnMarkers],
    texts: SchemaTexts,
    start: int,
    nested: str | None = None,
    whole: bool = False,
    schema: str = "parameters",
) -> None:
    """Remember ``canonical``, the reading of ``tools`` by ``key`` that :func:`recall` did not
    find (``text``), with what it noted in ``texts`` and in ``owned`` from ``start`` on; a
    reading that did not read every tool whole (None, or fewer tools) is not remembered.
    ``whole``: the schemas too, for a recall of the caller's own list (``unchecked``)."""
    if text is not None and canonical is not None and len(canonical) == len(tools):
        at = (nested, schema)
        _remember((key, text), tools, canonical, at, owned=owned, texts=texts, start=start, whole=whole)


def written(
    recalled: Recalled | None, tools: object, key: object, schema: str = "parameters", *, nested: str | None = None
) -> list[dict[str, Any]] | None:
    """The tools a writer (``key``) wrote before for canonical ``tools``, when they are a
    recalled reading's list as it answered it (held in ``recalled``) and that writer
    remembered them (:func:`remember_written`): new objects, each ``schema`` field (where
    the writer sends a tool's schema) left as None there the canonical tool's own
    ``parameters`` object again, as the writer sends it; else None. ``nested``: the key of
    a written tool's object that holds that field (OpenAI Chat's ``function``), a new object too.

    The writer's output is a function of the canonical tools and ``key`` alone (the
    writer's part in it), and the canonical tools of one reading are the value its key's
    text names: an agent's writer writes the same tools every request the same way."""
    if recalled is None or recalled.tools is not tools:
        return None
    kept = recalled.written.get(key)
    if kept is None or isinstance(kept, bytes):
        return None
    wire: list[dict[str, Any]] = []
    for tool, canonical in zip(kept, recalled.tools, strict=True):
        copy = {**tool}
        inner = copy
        if nested is not None:
            inner = copy[nested] = {**tool[nested]}
        if inner.get(schema, False) is None:
            inner[schema] = canonical["parameters"]
        wire.append(copy)
    return wire


def remember_written(
    recalled: Recalled | None,
    tools: object,
    key: object,
    wire: list[dict[str, Any]],
    schema: str = "parameters",
    *,
    nested: str | None = None,
) -> None:
    """Remember ``wire``, the tools a writer (``key``) wrote for canonical ``tools`` with no
    loss (the caller's to know), beside the reading they were recalled as; nothing when they
    were not recalled (or not the list recalled), or a tool holds a value besides its
    ``schema`` field (the canonical ``parameters`` object, as it was) that a shallow copy
    would share (an object, a list; ``nested``: the key of the one object a written tool
    holds, with its ``schema`` field, copied as shallowly)."""
    if recalled is None or recalled.tools is not tools or len(wire) != len(recalled.tools):
        return
    kept: list[dict[str, Any]] = []
    for tool, canonical in zip(wire, recalled.tools, strict=True):
        if nested is None:
            flat = _flat_written(tool, canonical, schema)
        else:
            inner = as_dict(tool.get(nested))
            flat = _flat_written({**tool, nested: None}, canonical, schema)  # the tool around its object
            written_inner = None if inner is None else _flat_written(inner, canonical, schema)
            if flat is None or written_inner is None:
                return
            flat[nested] = written_inner
        if flat is None:
            return
        kept.append(flat)
    size = sum(len(repr(tool)) for tool in kept)
    if _HELD.over(size):
        _READINGS.clear()
        _HELD.size = 0
        return
    recalled.written[key] = tuple(kept)
    _HELD.size += size


def written_whole(
    tools: list[dict[str, Any]], key: object, writer: object, *, version: int = marshal.version
) -> tuple[list[dict[str, Any]] | None, bytes | None, Report, Marks]:
    """The caller's own ``tools`` (no front copied them) as ``writer`` (its key) wrote them
    whole before, when a reading of them by ``key`` was remembered ``whole`` (a front took
    them: :func:`recall` with ``unchecked``) and that writer remembered its writing
    (:func:`remember_written_whole`): a new copy from one ``marshal`` text, with no canonical
    tool rebuilt; else None. Second, the tools' ``marshal`` text (None: tools ``marshal``
    cannot write), for :func:`remember_written_whole` and :meth:`.Reading.recall_tools`'s look.

    The key's text proves the caller's value the one remembered; the reading is a function of
    that value, and the writing of the reading and ``writer``. ``version``: marshal's, of the
    text (2 writes no reference to an object held elsewhere too, so the caller's list of the
    same value has one text however a JSON parser shared its keys: the caller then remembers
    under that text too). Third, the losses that writing recorded (:data:`Report`), for the
    caller to record again where it would have written the tools; fourth, what it noted beside
    them (:data:`Marks`), for the caller to note again on the copy's tools."""
    try:
        text = marshal.dumps(tools, version)
    except ValueError:
        return None, None, NO_REPORT, NO_MARKS
    remembered = _READINGS.get((key, text))
    if remembered is None or remembered[1] is None:
        return None, text, NO_REPORT, NO_MARKS
    kept = remembered[5].get(writer)
    if not isinstance(kept, bytes):
        return None, text, NO_REPORT, NO_MARKS
    wire = marshal.loads(kept)
    if wire.__class__ is tuple:  # written with a report or marks
        return wire[0], text, wire[1], wire[2]
    return wire, text, NO_REPORT, NO_MARKS


def also_as(text: bytes, key: object, alias: bytes) -> None:
    """Remember the whole reading of ``text`` by ``key`` (and what its writers wrote) under
    ``alias`` too: another ``marshal`` text of the caller's list that gave ``text`` (another
    version's), which names the same value, so the next look by it finds the reading; nothing
    when there is none."""
    remembered = _READINGS.get((key, text))
    if remembered is None or remembered[1] is None:
        return
    if len(_READINGS) >= LIMIT or _HELD.over(len(alias)):
        _READINGS.clear()
        _HELD.size = 0
        return
    _READINGS[(key, alias)] = remembered
    _HELD.size += len(alias)


def remember_written_whole(
    text: bytes,
    key: object,
    writer: object,
    wire: list[dict[str, Any]],
    report: Report | None = NO_REPORT,
    *,
    marks: Marks = NO_MARKS,
) -> None:
    """Remember ``wire``, the tools of ``text`` (the caller's list) as ``writer`` wrote them,
    the losses that writing recorded (``report``; None: not all at places in the tools, then
    nothing is remembered) and what it noted beside them (``marks``: all it noted, the caller's
    to know), beside their reading by ``key`` remembered ``whole``; nothing when there is none
    (or ``marshal`` cannot write ``wire``)."""
    remembered = _READINGS.get((key, text))
    if remembered is None or remembered[1] is None or report is None:
        return
    try:
        written: Any = (wire, tuple(report), marks) if report or marks else wire
        kept = marshal.dumps(written)
    except ValueError:
        return
    if _HELD.over(len(kept)):
        _READINGS.clear()
        _HELD.size = 0
        return
    remembered[5][writer] = kept
    _HELD.size += len(kept)


def _flat_written(tool: dict[str, Any], canonical: dict[str, Any], schema: str) -> dict[str, Any] | None:
    """A written ``tool`` as :data:`Written` keeps it: its ``schema`` field left as None where
    it is ``canonical``'s own ``parameters`` object; None when it holds another value a
    shallow copy would share (or a schema written as null: no place to tell it from one left)."""
    sent = tool.get(schema, False)
    if sent is None:
        return None
    left = sent is not False and sent is canonical.get("parameters")
    flat = {**tool, schema: None} if left else dict(tool)
    for value in flat.values():
        if value.__class__ not in _IMMUTABLE:
            return None
    return flat


_SchemaAt = tuple[str | None, str]
"""Where a wire tool holds its schema: the key of its object that holds it (None: the tool
itself), and the schema's key there (``recall``'s ``nested`` and ``schema``)."""


def _schema_of(tool: dict[str, Any], at: _SchemaAt) -> object:
    """A wire tool's schema object (None when it has none)."""
    nested, key = at
    return (tool[nested] if nested is not None else tool).get(key)


def _rebuilt(
    tools: Sequence[dict[str, Any]],
    remembered: _Record,
    at: _SchemaAt,
    owned: list[OwnMarkers],
    texts: SchemaTexts,
    *,
    unchecked: bool,
) -> list[dict[str, Any]]:
    canonical: list[dict[str, Any]]
    own: list[tuple[int, str, dict[str, Any]]]
    kept = remembered[0]
    if isinstance(kept, tuple):  # flat objects, no markers (:func:`_flat`)
        canonical, own = [{**tool} for tool in kept], []
    else:
        canonical, own = marshal.loads(kept)
    schemas = iter(marshal.loads(remembered[1]) if unchecked and remembered[1] is not None else ())
    for tool, wire, has_own, note, look in zip(canonical, tools, *remembered[2:5], strict=True):
        if has_own:
            schema = next(schemas) if unchecked else _schema_of(wire, at)
            tool["parameters"] = schema
            if note is not None:
                texts[id(schema)] = (schema, *note)
            if look is not None:
                texts[~id(schema)] = (schema, b"", look)
    for index, provider, bag in own:
        owned.append((canonical[index], provider, None, bag))
    return canonical


def _remember(
    key: tuple[object, bytes],
    tools: Sequence[dict[str, Any]],
    canonical: list[dict[str, Any]],
    at: _SchemaAt,
    *,
    owned: list[OwnMarkers],
    texts: SchemaTexts,
    start: int,
    whole: bool,
) -> None:
    owns: list[bool] = []
    notes: list[_Note] = []
    looks: list[_Look] = []
    kept: list[dict[str, Any]] = []
    for wire, tool in zip(tools, canonical, strict=True):
        schema = tool.get("parameters")
        own = schema is not None and schema is _schema_of(wire, at)
        owns.append(own)
        note = texts.get(id(schema)) if own else None
        notes.append((note[1], note[2]) if note is not None and note[0] is schema else None)
        look = texts.get(~id(schema)) if own else None
        looks.append(look[2] if look is not None and look[0] is schema else None)
        kept.append({**tool, "parameters": None} if own else tool)
    places = {id(tool): index for index, tool in enumerate(canonical)}
    markers: list[tuple[int, str, Any]] = []
    for target, provider, make, bag in owned[start:]:
        index = places.get(id(target))
        if index is None or make is not None:
            return  # markers on another object, or made on demand: not remembered
        markers.append((index, provider, bag))
    try:
        text = _flat(kept) if not markers else marshal.dumps((kept, markers))
        schemas = (
            marshal.dumps([tool["parameters"] for tool, own in zip(canonical, owns, strict=True) if own])
            if whole
            else None
        )
    except ValueError:
        return
    size = len(key[1]) + _size(text) + len(schemas or b"") + sum(len(note[0]) for note in notes if note is not None)
    if len(_READINGS) >= LIMIT or _HELD.over(size):
        _READINGS.clear()
        _HELD.size = 0
    _READINGS[key] = (text, schemas, tuple(owns), tuple(notes), tuple(looks), {})
    _HELD.size += size


def _flat(tools: list[dict[str, Any]]) -> _Kept:
    """Canonical ``tools`` (each schema left out) as objects, when each holds immutable
    values only (a shallow copy of each is then a new reading, cheaper than reading a
    ``marshal`` text); else their ``marshal`` text with no markers."""
    for tool in tools:
        for value in tool.values():
            if value.__class__ not in _IMMUTABLE:
                return marshal.dumps((tools, []))
    return tuple(dict(tool) for tool in tools)


def _size(kept: _Kept) -> int:
    """What a reading's canonical tools hold, in bytes of their text (:data:`_HELD`)."""
    return len(kept) if isinstance(kept, bytes) else sum(len(repr(tool)) for tool in kept)
