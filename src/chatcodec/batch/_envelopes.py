"""Batch envelopes: the row around a request or response body in a provider's batch file.

Every batch API wraps each body in a row of its own (an id, the body, and fields the
service fills in); ``chatcodec convert --from openai-batch --to anthropic-batch`` reads the
body and id out of one row and writes the target's row around the converted body. Each
envelope is a row of :data:`ENVELOPES`, data with its documentation link: where the body
and the id are (JSON pointers, RFC 6901), the fields the service sets (checked on read,
written on write), the body formats it carries, and what the body holds differently
inside the envelope (Bedrock's ``modelInput`` names no model: the job does).

Reading and writing the same envelope keeps every field of the row (a service's ``id``,
``request_id``, Vertex's ``processed_time`` and echoed ``request``); another envelope has
no place for them, and each becomes a ``metadata`` loss naming its pointer. A row the
batch reports as failed (OpenAI's ``error``, Anthropic's ``errored``, a Bedrock or Gemini
``error``) holds no body and is an :class:`EnvelopeError`, never an empty conversion.

A custom layout is an envelope too: ``body=/request/body,id=/meta/id``
(:func:`envelope_named`). :func:`mistaken_envelope` tells a row that is a known envelope
given where a bare body was expected, so it is refused rather than read as "0 messages".
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from chatcodec._errors import PayloadError
from chatcodec._losses import Loss
from chatcodec._narrow import as_dict
from chatcodec._providers.contract.envelopes import BODY_SLOT, FORMAT, ID_SLOT, EnvelopeBody, EnvelopeKind, IdRule, Slot
from chatcodec._registry import PROVIDER_NAMES, get_batch_rows

__all__ = [  # BODY_SLOT, ID_SLOT, IdRule and EnvelopeKind are the contract's (_providers/contract/envelopes.py)
    "BODY_SLOT",
    "ENVELOPES",
    "ENVELOPE_NAMES",
    "ID_SLOT",
    "ByFormat",
    "Envelope",
    "EnvelopeError",
    "EnvelopeKind",
    "IdRule",
    "OpenedRow",
    "body_leaving",
    "close_row",
    "envelope_named",
    "excused",
    "failure_reason",
    "get_pointer",
    "is_envelope_spec",
    "mistaken_envelope",
    "mistaken_message",
    "needs_id",
    "open_row",
    "pointer_path",
    "row_keys",
    "set_pointer",
    "split_pointer",
]


@dataclass(frozen=True, slots=True)
class ByFormat:
    """A field whose value names the body's format (OpenAI Batch's ``url``)."""

    values: Mapping[str, str]
    """Body format -> the value the field holds for it."""

    def format_of(self, value: object) -> str | None:
        return next((name for name, held in self.values.items() if held == value), None)


@dataclass(frozen=True, slots=True)
class Envelope:
    """One batch file row layout."""

    name: str
    """The preset's name (``--from``/``--to``)."""
    kind: EnvelopeKind
    """Requests or responses."""
    formats: tuple[str, ...]
    """The body formats it carries; the first is the default."""
    layout: tuple[tuple[str, object], ...]
    """(JSON pointer, what is there) in the order a written row holds them: :data:`BODY_SLOT`,
    :data:`ID_SLOT`, a :class:`ByFormat` field or a constant the service sets (a row holding
    another value there is refused: ``status_code`` 500, ``result.type`` ``errored``)."""
    source: str
    """The documentation the layout follows."""
    id_required: bool = False
    """Whether every row must have an id (OpenAI's and Anthropic's ``custom_id``)."""
    id_rule: IdRule | None = None
    """The ids the service accepts, when it says."""
    extras: tuple[str, ...] = ()
    """Documented top-level fields the layout does not write (a response's service id, an
    ``error`` in place of the body), so :func:`mistaken_envelope` knows the row."""
    format_marks: tuple[tuple[str, str], ...] = ()
    """(pointer, format): a row holding that pointer carries a body of that format."""
    body_fixed: Mapping[str, tuple[tuple[str, object], ...]] = field(default_factory=lambda: {})
    """Body format -> fields the body holds inside this envelope (written first)."""
    body_dropped: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: {})
    """Body format -> body fields the envelope holds elsewhere (the model, named by the job)."""
    failures: tuple[str, ...] = ()
    """Pointers where a failed row says why (OpenAI's ``error``, Bedrock's ``error`` with its
    ``errorMessage``, Vertex's ``status``): a row holding one is refused quoting it."""
    row_lists: tuple[str, ...] = ()
    """Pointers where one results document holds a list of these rows, read row by row
    (:mod:`chatcodec.batch._batch_documents`: Gemini's inlined batch results)."""
    lists_for: tuple[str, ...] = ()
    """Other envelopes whose name reads such a document too (the results file's)."""

    def pointer_of(self, slot: Slot) -> str | None:
        return next((pointer for pointer, held in self.layout if held is slot), None)


def _assembled(bodies: tuple[EnvelopeBody, ...]) -> Envelope:
    """One layout's row, with the body formats every folder declares for it: the default
    first, the others in registry order."""
    ordered = sorted(bodies, key=lambda body: not body.default)
    first = ordered[0].envelope
    told = ByFormat({body.format: body.told_by for body in ordered if body.told_by is not None})
    return Envelope(
        first.name,
        first.kind,
        tuple(body.format for body in ordered),
        tuple((pointer, told if held is FORMAT else held) for pointer, held in first.layout),
        first.source,
        id_required=first.id_required,
        id_rule=first.id_rule,
        extras=first.extras,
        format_marks=tuple((mark, body.format) for body in ordered for mark in body.marks),
        body_fixed={body.format: body.fixed for body in ordered if body.fixed},
        body_dropped={body.format: body.dropped for body in ordered if body.dropped},
        failures=first.failures,
        row_lists=first.row_lists,
        lists_for=first.lists_for,
    )


def _declared() -> tuple[Envelope, ...]:
    """Every envelope some registered folder's ``batch_rows.py`` puts a body in, in the
    order the layouts first appear (registry order)."""
    by_layout: dict[str, list[EnvelopeBody]] = {}
    for name in PROVIDER_NAMES:
        for body in get_batch_rows(name).bodies:
            by_layout.setdefault(body.envelope.name, []).append(body)
    return tuple(_assembled(tuple(bodies)) for bodies in by_layout.values())


ENVELOPES: tuple[Envelope, ...] = _declared()
"""Every batch envelope chatcodec reads and writes, one row per file layout, assembled from
the provider folders' declarations (:mod:`chatcodec._providers.contract.envelopes`)."""

ENVELOPE_NAMES: tuple[str, ...] = tuple(envelope.name for envelope in ENVELOPES)
"""The presets' names, in table order."""

_BY_NAME = {envelope.name: envelope for envelope in ENVELOPES}
_BODY_KEYS = frozenset(
    pointer.split("/")[1]
    for envelope in ENVELOPES
    for pointer in (*(pointer for pointer, held in envelope.layout if held is BODY_SLOT), *envelope.failures)
)
_ROW_KEYS = {
    envelope.name: frozenset(pointer.split("/")[1] for pointer, _ in envelope.layout) | set(envelope.extras)
    for envelope in ENVELOPES
}
_CUSTOM = re.compile(r"(body|id)=(/[^,]*)")


class EnvelopeError(PayloadError):
    """A row is not in the envelope it was said to be in, or cannot be written in one."""

    def __init__(self, message: str, path: str = "$", rule: str = "envelope") -> None:
        super().__init__(f"{message} [rule: {rule}]", path)
        self.rule = rule
        """The rule broken, as data (``envelope_body``, ``envelope_field``, ``envelope_id``)."""


def is_envelope_spec(spec: str) -> bool:
    """Whether ``spec`` names an envelope: a preset (``NAME`` or ``NAME:FORMAT``) or a
    custom layout (``body=/pointer[,id=/pointer]``)."""
    return spec.partition(":")[0] in _BY_NAME or spec.startswith("body=")


@cache
def envelope_named(spec: str) -> tuple[Envelope, str | None]:
    """The envelope a spec names and the body format it fixes (``None``: told per row).

    ``openai-batch``, ``openai-batch:openai-responses``, or a custom layout
    ``body=/request/body,id=/meta/id`` (``kind`` and formats: any)."""
    name, _, body_format = spec.partition(":")
    if name in _BY_NAME:
        envelope = _BY_NAME[name]
        if body_format and body_format not in envelope.formats:
            raise ValueError(f"{name} carries {', '.join(envelope.formats)} bodies, not {body_format}")
        return envelope, body_format or None
    pointers: dict[str, str] = {}
    for match in map(_CUSTOM.fullmatch, spec.split(",")):
        if match:
            pointers[match[1]] = match[2]
    if "body" not in pointers or len(pointers) != len(spec.split(",")):
        known = ", ".join(ENVELOPE_NAMES)
        raise ValueError(f"unknown envelope {spec!r}: one of {known}, or body=/pointer[,id=/pointer]")
    layout = [("/" + pointers["id"].lstrip("/"), ID_SLOT)] if "id" in pointers else []
    body_pointer = pointers["body"]
    if body_pointer == "/":
        raise ValueError("the body pointer must name a field (body=/request), not the whole row")
    custom = Envelope(
        spec, "request", (), (*layout, (body_pointer, BODY_SLOT)), "a custom layout (JSON pointers, RFC 6901)"
    )
    return custom, None


@cache
def split_pointer(pointer: str) -> tuple[str, ...]:
    """The keys of a JSON pointer (RFC 6901: ``~1`` is ``/``, ``~0`` is ``~``)."""
    if not pointer.startswith("/"):
        raise ValueError(f"a JSON pointer starts with '/': {pointer!r}")
    return tuple(step.replace("~1", "/").replace("~0", "~") for step in pointer[1:].split("/"))


_MISSING: Final = object()


def get_pointer(row: Mapping[str, Any], pointer: str) -> object:
    """The value at ``pointer`` in ``row``; :data:`_MISSING` when a step is absent."""
    value: object = row
    for step in split_pointer(pointer):
        fields = as_dict(value)
        if fields is None or step not in fields:
            return _MISSING
        value = fields[step]
    return value


def set_pointer(row: dict[str, Any], pointer: str, value: object) -> None:
    """Set ``pointer`` in ``row`` to ``value``, making the objects on the way (each object
    on the path is copied first, so a row shared with the input is never changed)."""
    steps = split_pointer(pointer)
    target = row
    for step in steps[:-1]:
        inner = as_dict(target.get(step))
        target[step] = inner = dict(inner) if inner is not None else {}
        target = inner
    target[steps[-1]] = value


def pointer_path(pointer: str) -> str:
    return "$" + "".join(f".{step}" if step.isidentifier() else f"[{step!r}]" for step in split_pointer(pointer))


@dataclass(frozen=True, slots=True)
class OpenedRow:
    """A row read out of its envelope."""

    envelope: Envelope
    """The envelope it was in."""
    row: dict[str, Any]
    """The row as read (written back around a new body for the same envelope)."""
    body: dict[str, Any]
    """The body."""
    body_format: str | None
    """The body's format, when the envelope tells (``None``: the caller's)."""
    id: object = None
    """The row's id (``None`` when it has none)."""

    @property
    def extras(self) -> tuple[tuple[str, object], ...]:
        """(pointer, value) of every other field, which another envelope has no place for
        (found only when asked: the same envelope writes the row read)."""
        return tuple(_extras(self.row, self.envelope))


def open_row(row: dict[str, Any], envelope: Envelope, body_format: str | None = None) -> OpenedRow:
    """Read the body, the id and the body's format out of ``row``.

    Raises :class:`EnvelopeError` (naming the JSON path and the rule) for a row with no
    body where the envelope keeps it, a service field with another value (a failed row),
    or an id the envelope requires and the row lacks; for a row of another known envelope
    (an Anthropic batch row given as ``openai-batch``), naming that envelope."""
    try:
        return _opened_row(row, envelope, body_format)
    except EnvelopeError:
        other = mistaken_envelope(row)  # asked only once the row is refused: the rare path
        if other is None or other.name == envelope.name:
            raise
        held = ", ".join(row)
        raise EnvelopeError(
            f"this row ({held}) is in the {other.name} envelope, not {envelope.name}: give --from {other.name}",
            "$",
            "envelope_mistaken",
        ) from None


def _opened_row(row: dict[str, Any], envelope: Envelope, body_format: str | None) -> OpenedRow:
    _refuse_failed(row, envelope)
    told: str | None = None
    for pointer, held in envelope.layout:
        value = get_pointer(row, pointer)
        if held is BODY_SLOT:
            continue
        if held is ID_SLOT:
            if value is _MISSING and envelope.id_required:
                raise EnvelopeError(f"{envelope.name} rows need an id here", pointer_path(pointer), "envelope_id")
        elif isinstance(held, ByFormat):
            told = held.format_of(value)
            if told is None:
                wanted = ", ".join(_shown(each) for each in held.values.values())
                raise EnvelopeError(f"{_shown(value)} is none of {wanted}", pointer_path(pointer), "envelope_field")
        elif value is not _MISSING and value != held:
            failure = f"{_shown(value)}, not {_shown(held)}: the batch reports no {envelope.kind} for this row"
            raise EnvelopeError(failure, pointer_path(pointer), "envelope_field")
    body_pointer = envelope.pointer_of(BODY_SLOT) or "/"
    body = as_dict(get_pointer(row, body_pointer))
    if body is None:
        held_instead = sorted(set(row) - {split_pointer(body_pointer)[0]})
        instead = f" (the row holds {', '.join(held_instead)})" if held_instead else ""
        raise EnvelopeError(f"no {envelope.kind} body object{instead}", pointer_path(body_pointer), "envelope_body")
    if told is not None and body_format is not None and told != body_format:
        raise EnvelopeError(f"the row is for {told} bodies, not {body_format}", "$", "envelope_field")
    marked = next((name for pointer, name in envelope.format_marks if get_pointer(row, pointer) is not _MISSING), None)
    chosen = body_format or told or marked or (envelope.formats[0] if envelope.formats else None)
    id_pointer = envelope.pointer_of(ID_SLOT)
    row_id = None if id_pointer is None else get_pointer(row, id_pointer)
    return OpenedRow(
        envelope,
        row,
        body,
        chosen,
        None if row_id is _MISSING else row_id,
    )


def _refuse_failed(row: Mapping[str, Any], envelope: Envelope) -> None:
    """Refuse a row the batch reports as failed, quoting the batch's own reason."""
    failed = _failure(row, envelope)
    if failed is not None:
        pointer, value = failed
        raise EnvelopeError(
            f"the batch reports this row failed: {failure_reason(value)}", pointer_path(pointer), "envelope_failed"
        )


_MESSAGE_KEYS = ("errorMessage", "message")
_CODE_KEYS = ("errorCode", "status", "code", "type")  # Gemini's status names its code


def failure_reason(value: object) -> str:
    """A failed row's reason as the batch wrote it: its message (``errorMessage``,
    ``message``, however deep: Anthropic nests ``error.error``) after its code, else the
    value as JSON."""
    if isinstance(value, str):
        return value
    found = as_dict(value)
    while found is not None:
        message = next((found[key] for key in _MESSAGE_KEYS if isinstance(found.get(key), str)), None)
        if message is not None:
            code = next((found[key] for key in _CODE_KEYS if isinstance(found.get(key), str | int)), None)
            return f"{code}: {message}" if code is not None and code != "error" else str(message)
        found = as_dict(found.get("error"))
    return _shown(value)


def _shown(value: object) -> str:
    """A value as JSON, cut to a line (an error object can be long)."""
    text = "(absent)" if value is _MISSING else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 200 else text[:197] + "..."


def body_leaving(opened: OpenedRow, target: Envelope | None) -> dict[str, Any]:
    """The body of ``opened`` for another envelope (or none): without the fields its own
    envelope fixes (Bedrock's ``anthropic_version``, which the Messages API refuses)."""
    fixed = opened.envelope.body_fixed.get(opened.body_format or "", ())
    if target == opened.envelope or not any(opened.body.get(key, _MISSING) == value for key, value in fixed):
        return opened.body
    return {key: value for key, value in opened.body.items() if (key, value) not in fixed}


def _extras(row: Mapping[str, Any], envelope: Envelope, prefix: str = "") -> Iterator[tuple[str, object]]:
    """Every field of ``row`` outside the layout's places, as (pointer, value)."""
    placed = [pointer for pointer, _ in envelope.layout]
    for key, value in row.items():
        pointer = f"{prefix}/{key.replace('~', '~0').replace('/', '~1')}"
        if pointer in placed:
            continue
        inner = as_dict(value)
        if inner is not None and any(each.startswith(pointer + "/") for each in placed):
            yield from _extras(inner, envelope, pointer)
        else:
            yield pointer, value


def close_row(
    opened: OpenedRow | None,
    body: dict[str, Any],
    envelope: Envelope,
    body_format: str | None,
    *,
    row_id: object = None,
    losses: list[Loss],
) -> dict[str, Any]:
    """``body`` written in ``envelope``'s row, with the id of ``opened`` (or ``row_id``).

    The same envelope writes the row read with the new body (every other field kept);
    another reports each field it has no place for as a ``metadata`` loss."""
    body = _fitted(body, envelope, body_format, losses)
    same = opened is not None and opened.envelope == envelope
    written: dict[str, Any] = dict(opened.row) if same and opened is not None else {}
    identity = opened.id if opened is not None else row_id
    for pointer, held in envelope.layout:
        if held is BODY_SLOT:
            set_pointer(written, pointer, body)
        elif held is ID_SLOT:
            _write_id(written, pointer, identity, envelope, new_row=not same)
        elif isinstance(held, ByFormat):
            set_pointer(written, pointer, held.values[body_format or envelope.formats[0]])
        elif not same:
            set_pointer(written, pointer, held)
    if opened is not None and not same:
        dropped = list(opened.extras)
        id_pointer = opened.envelope.pointer_of(ID_SLOT)
        if opened.id is not None and id_pointer is not None and envelope.pointer_of(ID_SLOT) is None:
            dropped.insert(0, (id_pointer, opened.id))
        for pointer, _ in dropped:
            losses.append(
                Loss(
                    pointer_path(pointer),
                    f"{opened.envelope.name} field",
                    f"{envelope.name} rows have no place for it",
                    "metadata",
                )
            )
    return written


def needs_id(envelope: Envelope, *, new_row: bool = True) -> bool:
    """Whether a row written in ``envelope`` must hold an id (see :func:`_write_id`)."""
    if envelope.pointer_of(ID_SLOT) is None:
        return False
    return envelope.id_required or (envelope.kind == "response" and new_row)


def _write_id(written: dict[str, Any], pointer: str, identity: object, envelope: Envelope, *, new_row: bool) -> None:
    """Write the row's id where ``envelope`` holds it, or refuse a row without one that the
    envelope needs: a service requires it (OpenAI's and Anthropic's ``custom_id``), or the
    row is an answer written anew (every output envelope's id says which request it
    answers: an OpenAI output row without ``custom_id``, a Bedrock one without ``recordId``
    joins to nothing). A row read from the same envelope keeps what it had."""
    if identity is None:
        if not needs_id(envelope, new_row=new_row):
            return
        why = "need an id" if envelope.id_required else "say which request they answer by its id"
        raise EnvelopeError(
            f"{envelope.name} rows {why} and this row has none (--id-field names the input's)",
            pointer_path(pointer),
            "envelope_id",
        )
    rule = envelope.id_rule
    if rule is not None and not (isinstance(identity, str) and re.fullmatch(rule.pattern, identity)):
        raise EnvelopeError(
            f"{identity!r} is no {envelope.name} id: it must match {rule.pattern} ({rule.source})",
            pointer_path(pointer),
            "envelope_id",
        )
    set_pointer(written, pointer, identity)


def _fitted(body: dict[str, Any], envelope: Envelope, body_format: str | None, losses: list[Loss]) -> dict[str, Any]:
    """``body`` as the envelope holds it: its fixed fields first, the fields it keeps
    elsewhere (the model a batch job names) taken out with a loss each."""
    if body_format is None:
        return body
    dropped = envelope.body_dropped.get(body_format, ())
    fixed = envelope.body_fixed.get(body_format, ())
    if not fixed and not any(key in body for key in dropped):
        return body
    fitted = {key: value for key, value in fixed}
    for key, value in body.items():
        if key in dropped:
            why = f"{envelope.name} bodies hold none: the batch job names it"
            losses.append(Loss(f"$.{key}", key, why, "metadata"))
        elif key not in fitted:
            fitted[key] = value
    return fitted


def excused(losses: tuple[Loss, ...], envelope: Envelope, body_format: str | None) -> list[Loss]:
    """``losses`` without the ``required`` ones for a field the envelope holds elsewhere
    (a Bedrock batch body has no model to require: the job names it)."""
    held = {f"$.{key}" for key in envelope.body_dropped.get(body_format or "", ())}
    return [loss for loss in losses if not (loss.kind == "required" and loss.path in held)]


def mistaken_envelope(row: Mapping[str, Any]) -> Envelope | None:
    """The envelope ``row`` is in when it is a known batch row rather than a body: it
    holds an envelope's body field as an object and only that envelope's fields."""
    if _BODY_KEYS.isdisjoint(row):
        return None  # the common case, one set operation
    for envelope in ENVELOPES:
        top = split_pointer(envelope.pointer_of(BODY_SLOT) or "/")[0]
        if row_keys(envelope).issuperset(row) and (as_dict(row.get(top)) is not None or _failure(row, envelope)):
            return envelope
    return None


def row_keys(envelope: Envelope) -> frozenset[str]:
    """The top-level fields an envelope's rows hold: its layout's and its extras."""
    known = _ROW_KEYS.get(envelope.name)
    if known is not None and _BY_NAME.get(envelope.name) is envelope:
        return known
    return frozenset(split_pointer(pointer)[0] for pointer, _ in envelope.layout) | set(envelope.extras)


def _failure(row: Mapping[str, Any], envelope: Envelope) -> tuple[str, object] | None:
    """(pointer, value) of the reason a failed row holds, ``None`` for a row that did not fail."""
    for pointer in envelope.failures:
        value = get_pointer(row, pointer)
        if value is not _MISSING and value is not None and value != "":
            return pointer, value
    return None


def mistaken_message(row: Mapping[str, Any], source: str, kind: str) -> str | None:
    """Why ``row`` is not a ``source`` body but an envelope around one, naming the preset;
    ``None`` when it is no known envelope."""
    envelope = mistaken_envelope(row)
    if envelope is None:
        return None
    body = envelope.pointer_of(BODY_SLOT)
    return (
        f"this row is in the {envelope.name} envelope (the {envelope.kind} body is at {body}), not a bare {source} "
        f"{kind} body: give --from {envelope.name} [rule: envelope_mistaken]"
    )
