"""A usual request's top level before its turns, remembered by its shape (issue 107: a first sight's
cold code).

An agent's client sends the same top level every step and every session: the model, the tools, the
choice, the limit, its settings, each session with its own ``user`` and ``seed``. Proving those fields
(:func:`~.openai_chat_usual.usual`), reading the settings, claiming the reader's bag and writing the
fields before the turns is some ninety calls made once a request: on the request of a session a
process has not seen, cold code (CPython 3.11 specializes a function at its eighth call; what it cost:
``docs/performance-history.md``). Here a pair's writing of them (the canonical top level it finishes
from, the wire fields before the turns, what that writing reported and the cache breakpoints it noted
on the tools) is kept by the body's keys in their order and one ``marshal`` text of the fields but the
messages and the client's own values (:data:`VARYING`), and a body of the same text takes one ``loads``
of it, those values put back where the reading holds them.

Kept only when proved to be a function of that text: the tools as the pair wrote them before (no
reading noted for the writer), no format's schema (which the reader notes), the client's values read
as they are (``settings_shape``), and a trial (the pair's writing run again on the body with other such
values, :func:`remember`) giving those values at their place in the reading and everything else the
same. The pair's own writing is the oracle: it runs on every miss, and the memory holds its output.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chatcodec._direct.openai_chat_source import VARYING, other_value, settings_shape
from chatcodec._losses import LossRecorder
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.kit.provider_kit import forgotten_with_kits
from chatcodec._providers.kit.remembered_tools import NO_MARKS, NO_REPORT
from chatcodec._text_memory import Held

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec._direct.top_levels.openai_chat_usual import Usual
    from chatcodec._providers.contract.target_rules import ProviderRules
    from chatcodec._providers.kit.remembered_tools import Marks, Report


class Begun:
    """A pair's writing of a usual top level before its turns: ``text``, the ``marshal`` text of the
    canonical top level (each of ``varying`` held as ``None``) and the wire fields written; the losses
    it recorded (``report``, each at a place in the body), the breakpoints noted on the written tools
    (``marks``), the writer's rules, and what the tools' writing reported where a pair reports it
    after the turns (``later``: Responses', whose tools follow its ``input``)."""

    __slots__ = ("later", "marks", "report", "rules", "text", "varying")

    def __init__(
        self,
        text: bytes,
        varying: tuple[str, ...],
        report: Report,
        rules: ProviderRules | None,
        *,
        marks: Marks,
        later: Report,
    ) -> None:
        self.text = text
        self.varying = varying
        self.report = report
        self.rules = rules
        self.marks = marks
        self.later = later

    def read(self, payload: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new copy of the canonical top level (``payload``'s own values at their keys) and of the wire fields."""
        canonical, wire = marshal.loads(self.text)
        for key in self.varying:
            canonical[key] = payload[key]
        return canonical, wire


Written = tuple["Usual", dict[str, Any], "Report | None"]
"""A pair's writing of a body's top level before its turns: its reading (the canonical top level so
far), its wire fields and the losses it recorded (None: not all at places in the body)."""
Again = Callable[[dict[str, Any]], "Written | None"]
"""The pair's writing of a trial body's top level (None: refused, or a rule raised)."""


def written_again(
    trial: dict[str, Any],
    *,
    writer: Codec,
    usual: Callable[[dict[str, Any], Codec, Reading], Usual | None],
    begin: Callable[[dict[str, Any], Usual, LossRecorder, Reading], dict[str, Any]],
) -> Written | None:
    """A pair's writing of a ``trial`` body's top level for ``writer`` (its ``usual`` proof and
    reading, then its ``begin``, which gives the wire fields), with a reading and losses of its own:
    :data:`Again`, for :func:`remember`'s trial. None when the proof refuses it or a rule raises (the
    request's own writing stands)."""
    noted = Reading()
    found = usual(trial, writer, noted)
    if found is None:
        return None
    recorder = LossRecorder()
    try:
        fields = begin(trial, found, recorder, noted)
    except Exception:  # (the trial's: the pair's writing of the request itself raised nothing)
        return None
    return found, fields, recorder.below(0, ())


_BEGUN: dict[tuple[object, tuple[str, ...]], dict[bytes, Begun]] = forgotten_with_kits({})
"""A writer and a body's keys in order -> that body's text (:func:`_key`) -> the writing (:class:`Begun`)."""
_HELD = Held(1 << 21)
"""The size of the texts kept (two of their keys and theirs): past it, all forgotten."""
_COUNT = Held(64)
"""How many writings and bodies' keys are kept: top levels of ever other texts do not grow it past
this (all forgotten)."""
_PER_KEYS = 16
"""How many writings are kept for one writer and body's keys: a client whose top level differs every
request (a limit of its own each time) stops being remembered there, not tried each request."""


def recall(payload: dict[str, Any], writer: object) -> tuple[Begun | None, bytes | None]:
    """The writing of ``payload``'s top level by ``writer`` remembered (:func:`remember`), else None;
    and the body's text it was looked for by, for :func:`remember` (None: not looked for; a body with
    a ``response_format`` is never, its schema noted by the reader for the writer). A body of
    keys (in their order) not seen before pays no text: its keys are noted, and the next body of them
    is looked for. The text is taken here, before a conversion holds any of the body's objects:
    ``marshal`` writes an object held twice with a reference flag, so a text taken later, while the
    reading holds a part of the body, is not the one a later look takes."""
    if "response_format" in payload:  # a format's schema, which the reader notes for the writer: never kept
        return None, None
    keys = (writer, tuple(payload))
    texts = _BEGUN.get(keys)
    if texts is None:
        if _COUNT.over(1):
            _forget()
        _BEGUN[keys] = {}
        _COUNT.size += 1
        return None, None
    key = _key(payload)
    if key is None:
        return None, None
    return texts.get(key[0]), key[0]


def _forget() -> None:
    """Every writing and body's keys forgotten (past a bound)."""
    _BEGUN.clear()
    _HELD.size = _COUNT.size = 0


def _key(payload: dict[str, Any]) -> tuple[bytes, dict[str, Any]] | None:
    """The ``marshal`` text of ``payload`` but its messages and the client's own values (what
    :data:`VARYING` names), and those values, each proved a value the reader reads as it is
    (``settings_shape``); None for another, or a body ``marshal`` cannot write."""
    view = dict(payload)
    del view["messages"]
    varying: dict[str, Any] = {}
    for key in VARYING:
        if key in view:
            varying[key] = view.pop(key)
    if varying and settings_shape(varying) is None:
        return None
    try:
        return marshal.dumps(view), varying
    except ValueError:  # (a value of a class marshal does not write: the body is no JSON)
        return None


def _text(value: Any, version: int = marshal.version) -> bytes | None:
    """``value``'s ``marshal`` text; None for one nested past marshal's depth."""
    try:
        return marshal.dumps(value, version)
    except ValueError:
        return None


def _shared(value: Any, seen: dict[str, str], depth: int) -> Any:
    """``value`` with its texts in one copy each and none of them interned: its ``marshal`` text
    then writes a repeated text once (a reference after) and ``loads`` makes it without a look in
    the interpreter's table of interned texts. Past ``depth``
    levels the value is kept as it is (the text is the same value, written without these savings)."""
    kind = value.__class__
    if kind is str:
        kept = seen.get(value)
        if kept is None:  # a new object of the same text (a slice of a longer one is not interned)
            kept = seen[value] = (value + " ")[:-1] if len(value) > 1 else value
        return kept
    if not depth or (kind is not dict and kind is not list and kind is not tuple):
        return value
    if kind is dict:
        return {_shared(key, seen, 0): _shared(item, seen, depth - 1) for key, item in value.items()}
    items = [_shared(item, seen, depth - 1) for item in value]
    return items if kind is list else tuple(items)


_DEPTH = 64
"""How deep :func:`_shared` rewrites a writing's texts (a schema deeper than this is rare)."""


def remember(
    payload: dict[str, Any],
    writer: object,
    text: bytes | None,
    written: Written,
    again: Again,
    *,
    marks: Marks = NO_MARKS,
    later: Report = NO_REPORT,
) -> None:
    """Remember the pair's writing of ``payload``'s top level by ``writer`` under the body's ``text``
    (:func:`recall`'s; None: not looked for, nothing remembered), ``written`` (its reading, the wire
    fields and the losses it recorded; ``marks``, the breakpoints noted on the written tools; ``later``,
    what the tools' writing reported where the pair reports it after the turns), when it is a function
    of that text: the tools written before (the reading's ``read`` None), no format's schema, and, with
    client values in the body, the writing ``again`` of a trial body whose values differ giving those
    values at their keys of the reading and the rest the same."""
    found, wire, report = written
    if text is None or report is None or found.read is not None:
        return
    texts = _BEGUN.get((writer, tuple(payload)))
    if texts is None or len(texts) >= _PER_KEYS:
        return
    varying = {name: payload[name] for name in VARYING if name in payload}
    canonical = found.canonical
    if any(canonical.get(name) is not value for name, value in varying.items()):
        return
    template = {name: None if name in varying else value for name, value in canonical.items()}
    if varying:
        trial = dict(payload)
        for name, value in varying.items():
            trial[name] = other_value(value)
        other = again(trial)
        if other is None or other[2] != report:
            return
        other_canonical = other[0].canonical
        if any(other_canonical.get(name) is not trial[name] for name in varying):
            return
        other_template = {name: None if name in varying else value for name, value in other_canonical.items()}
        if _text((template, wire), 2) != _text((other_template, other[1]), 2):
            return
    text_written = _text(_shared((template, wire), {}, _DEPTH))
    if text_written is None:
        return
    size = 2 * len(text) + len(text_written)
    if _COUNT.over(1) or _HELD.over(size):
        _forget()
        return
    texts[text] = Begun(text_written, tuple(varying), tuple(report), found.rules, marks=marks, later=later)
    _HELD.size += size
    _COUNT.size += 1
