"""What a provider's tool and response-format writers call: the rewrites a target needs,
applied in order, each change reported as a loss of kind ``schema``.

* :func:`json_schema`: every target but Gemini (JSON Schema only: Gemini's OpenAPI
  spellings rewritten, :mod:`.openapi`);
* :func:`anthropic_schema`: Anthropic's and Claude-on-Bedrock's strict tools and output
  formats (then the structured-outputs subset, :mod:`.anthropic_subset`);
* :func:`openai_strict_schema`: OpenAI's strict functions and ``json_schema`` formats
  (then every object closed and every property required, :mod:`.openai_strict`), or, by
  the ``strict_schema`` option, the schema as it is and ``strict`` turned off.

A schema no rewrite changes is the caller's own object, sent as it is, with no loss and
nothing kept. A changed one is sent changed; what the target cannot hold does not come
back (the loss says what).

An agent sends the same tools every turn: the rewrites are asked through
:func:`~chatcodec._providers.kit.schema_memory.cached_rewrite`, which answers a schema they
were seen to leave unchanged without a walk; a conversion's ``reading``
(:class:`~chatcodec._providers.contract.context.Reading`) carries a schema's text
and its Gemini look from the reader's as-sent test to the writer's rewrite.

A schema read from a format is what its sender gave that API: sent back to the same
format, it is not rewritten (the round trip is exact; the API judges it, as it did). A
decoder that reads one its own writer would rewrite marks it (:func:`read_as_sent`: the
marker :data:`AS_SENT` on the tool, :data:`FORMAT_AS_SENT` on the request for its output
format); the writer passes a marked schema through (``as_sent=True``). The test costs
nothing for a non-strict schema (a look at its root) and one walk for a strict one.
Another format drops the marker without a report: its own rewrites apply.

Gemini's ``parameters`` schemas are told by their root (:func:`looks_openapi`: an
upper-case ``type``, ``nullable`` or ``propertyOrdering`` at the root or on a property
right under it; the google-genai SDK writes every type upper-case), so a JSON Schema pays
for no walk.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from chatcodec._errors import PayloadError, ValidationError
from chatcodec._losses import LossRecorder, Steps
from chatcodec._providers.families.claude.schema_subset import to_anthropic_subset
from chatcodec._providers.families.google.openapi_schema import from_openapi
from chatcodec._providers.families.openai.strict_schema import to_openai_strict
from chatcodec._providers.kit.schema_memory import NotedRewrite, Rewrite, cached_rewrite
from chatcodec._providers.kit.schema_walk import SchemaChange

if TYPE_CHECKING:
    from chatcodec._providers.contract.context import Reading

AS_SENT = "_schema_as_sent"
"""Marker (a tool's bag): its schema is sent back to the format it came from unchanged."""
FORMAT_AS_SENT = "_format_as_sent"
"""Marker (a request's bag): its output format's schema is sent back the same way."""
STRICT_SCHEMA_OPTION = "strict_schema"
"""The OpenAI writers' option: ``"rewrite"`` (the default: a schema strict mode refuses is
rewritten) or ``"drop_strict"`` (sent as it is, with ``strict: false``)."""
StrictSchema = Literal["rewrite", "drop_strict"]
_STRICT_SCHEMAS: tuple[StrictSchema, ...] = ("rewrite", "drop_strict")


def report(losses: LossRecorder, changes: list[SchemaChange]) -> None:
    """Record each change as a loss of kind ``schema``."""
    for change in changes:
        losses.add(change.at, change.what, change.why, "schema")


_OPENAPI_KEYS = frozenset({"nullable", "propertyOrdering", "property_ordering"})


def looks_openapi(schema: Any) -> bool:
    """Whether ``schema`` is spelled as Gemini's OpenAPI subset, judged at its root and
    the properties right under it (see the module docstring). Every tool of every
    conversion is looked at, so it is written out flat."""
    if schema.__class__ is not dict:
        return False
    kind = schema.get("type")
    # Gemini's types are upper case ("STRING"); a type with no letters ("") has no case to change
    if (isinstance(kind, str) and kind != kind.lower()) or not _OPENAPI_KEYS.isdisjoint(schema):
        return True
    properties = schema.get("properties")
    if properties.__class__ is not dict:
        return False
    for value in properties.values():
        if value.__class__ is dict:
            kind = value.get("type")
            if (kind.__class__ is str and kind != kind.lower()) or not _OPENAPI_KEYS.isdisjoint(value):
                return True
    return False


_GEMINI_SPELLED = [SchemaChange((), "Gemini's spellings", "the writer rewrites them as JSON Schema")]
"""What :func:`_spelled_or` answers for a schema :func:`looks_openapi` takes for Gemini's."""


@cache
def _spelled_or(rewrite: Rewrite) -> NotedRewrite:
    """A rewrite that changes what :func:`looks_openapi` takes for Gemini's spellings, or
    what ``rewrite`` changes: one function per ``rewrite``, so :func:`cached_rewrite`
    remembers a strict schema that neither changes by its JSON text, and an agent's
    strict tools are not looked at again every request (the root and properties look was
    a fifth of a 10-turn session's tool reading and writing)."""

    def spelled_or(schema: Any, at: Steps, reading: Reading | None) -> tuple[Any, list[SchemaChange]]:
        return (schema, _GEMINI_SPELLED) if _looked(schema, reading) else rewrite(schema, at)

    return spelled_or


def read_as_sent(
    schema: Any, rewrite: Rewrite | None = None, *, exact: bool = False, reading: Reading | None = None
) -> bool:
    """Whether a decoder marks ``schema`` (read from its own format) to be sent back
    unchanged: its writer would rewrite it (Gemini's spellings; with ``rewrite``, the
    format's strict subset, for a strict tool or an output format). A schema too deep to
    walk is marked too: it goes back as it came, as before. A schema that only looks like
    Gemini's (an unknown upper-case ``type``) and that the rewrite leaves as it is needs no
    mark: the writer sends it unchanged anyway, and a mark would be data the request
    never had. ``exact``: ``schema`` is the reader's closed front's copy (:func:`cached_rewrite`);
    ``reading``: a conversion's, where its writer finds what was made here."""
    if rewrite is None:
        looked = note_for_writer(schema, reading)
        try:
            return looked and bool(from_openapi(schema)[1])
        except PayloadError:  # too deep to walk
            return True
    try:
        changes = cached_rewrite(_spelled_or(rewrite), schema, (), exact=exact, reading=reading, noted=True)[1]
        if changes is _GEMINI_SPELLED:  # the writer's two steps: JSON Schema spelling, then the subset
            respelled, spelled = from_openapi(schema)
            return bool(spelled) or bool(cached_rewrite(rewrite, respelled, (), reading=reading)[1])
    except (ValidationError, PayloadError):  # too deep to walk
        return True
    return bool(changes)


def _looked(schema: Any, reading: Reading | None) -> bool:
    """:func:`looks_openapi`, answered by the note a conversion's ``reading`` holds when there is
    one, and noted there when not (:func:`note_for_writer`)."""
    known = None if reading is None else reading.schema_texts.get(~id(schema))
    if known is not None and known[0] is schema:
        return known[2]
    return note_for_writer(schema, reading)


def note_for_writer(schema: Any, reading: Reading | None) -> bool:
    """:func:`looks_openapi`, its answer noted under the object's negated identity in
    ``reading`` (a conversion's), where the writer's :func:`json_schema` and strict rewrites
    find it (:func:`_looked`): a reader takes the look another format's writer takes at a
    tool's schema. A reader whose tools are remembered
    (:mod:`~chatcodec._providers.kit.remembered_tools`) keeps the note with the reading, so
    each later request of the session gives it back and its writer looks at no schema."""
    looked = looks_openapi(schema)
    if reading is not None:
        reading.schema_texts[~id(schema)] = (schema, b"", looked)
    return looked


def openai_format_as_sent(
    response_format: Mapping[str, Any], *, exact: bool = False, reading: Reading | None = None
) -> bool:
    """:func:`read_as_sent` for a canonical response format an OpenAI decoder read (its
    strict mode's rewrite when ``strict`` is true)."""
    schema = response_format.get("json_schema")
    if schema is None:
        return False
    rewrite = to_openai_strict if response_format.get("strict") is True else None
    return read_as_sent(schema, rewrite, exact=exact, reading=reading)


def json_schema(
    schema: Any, losses: LossRecorder, at: Steps, *, as_sent: object = False, reading: Reading | None = None
) -> Any:
    """``schema`` (at ``at``) as JSON Schema, for a target that is not Gemini. Whether it
    looks like Gemini's spelling is asked once per object in one conversion: a reader's
    :func:`read_as_sent` or :func:`note_for_writer` asked it already, and left the answer
    in the conversion's ``reading`` (:func:`_looked`)."""
    if as_sent or not _looked(schema, reading):
        return schema
    rewritten, changes = from_openapi(schema, at)
    if changes:
        report(losses, changes)
    return rewritten


def anthropic_schema(
    schema: Any, losses: LossRecorder, at: Steps, *, as_sent: object = False, reading: Reading | None = None
) -> Any:
    """``schema`` as Anthropic's structured outputs take it (a strict tool, an output format)."""
    if as_sent:
        return schema
    subset, changes = cached_rewrite(_to_anthropic, schema, at, reading=reading, noted=True)
    if changes:
        report(losses, changes)
    return subset


def _to_anthropic(schema: Any, at: Steps, reading: Reading | None) -> tuple[Any, list[SchemaChange]]:
    """Gemini's spellings as JSON Schema, then the structured-outputs subset: one rewrite,
    so that a schema neither changes is remembered whole (:func:`cached_rewrite`)."""
    spelled, changes = from_openapi(schema, at) if _looked(schema, reading) else (schema, [])
    subset, subset_changes = cached_rewrite(to_anthropic_subset, spelled, at, reading=reading)
    return subset, [*changes, *subset_changes]


def strict_schema_option(value: object) -> StrictSchema:
    """The ``strict_schema`` option, checked (unset: ``"rewrite"``)."""
    if value is None:
        return "rewrite"
    for known in _STRICT_SCHEMAS:
        if value == known:
            return known
    raise PayloadError(f"the strict_schema option must be 'rewrite' or 'drop_strict', not {value!r}")


def openai_strict_schema(
    schema: Any,
    strict: object,
    losses: LossRecorder,
    at: Steps,
    option: object,
    *,
    as_sent: object = False,
    reading: Reading | None = None,
) -> tuple[Any, object]:
    """``schema`` and ``strict`` as an OpenAI writer sends them: JSON Schema, and when
    ``strict`` is true, what strict mode takes (``option``: :data:`STRICT_SCHEMA_OPTION`'s
    value; ``"drop_strict"`` sends the schema unchanged and ``strict`` false instead)."""
    if as_sent:
        return schema, strict
    if strict is not True:
        return json_schema(schema, losses, at, reading=reading), strict
    rewritten = schema
    strict_form, changes = cached_rewrite(_spelled_or(to_openai_strict), schema, at, reading=reading, noted=True)
    if changes is _GEMINI_SPELLED:  # the strict subset of its JSON Schema spelling
        rewritten = json_schema(schema, losses, at, reading=reading)
        strict_form, changes = cached_rewrite(to_openai_strict, rewritten, at, reading=reading)
    if not changes:
        return rewritten, strict
    if strict_schema_option(option) == "drop_strict":
        first = changes[0]
        what = f"strict turned off ({len(changes)} schema change(s) it needs, the first: {first.what})"
        losses.add(at, what, f"{first.why}; the strict_schema option is 'drop_strict'", "schema")
        return rewritten, False
    report(losses, changes)
    return strict_form, strict
