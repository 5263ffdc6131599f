"""Strict reading at an API boundary: refuse the fields a provider would refuse.

The decoders are tolerant readers (a field they do not know is kept and reported), which
is right for a proxy and wrong for a gateway: ``"temprature": 0.1`` should be a 400, as
OpenAI itself answers "Unrecognized request argument supplied: temprature". With
``strict=True`` the entry points first walk the wire payload against the provider's
published field set (its codec's :meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.field_sets`,
the ``known_fields.json`` generated from the official SDK types) plus the documented extensions of compatible servers
(:mod:`chatcodec._strict.extensions`), at every depth where that schema is closed, and
never inside free-form values (tool input, JSON schemas, metadata).

One mistake gives one problem at its JSON path, in the caller's vocabulary: an unknown
field names the nearest known one (``difflib``), an unknown part or item tag lists the
tags of that place as the caller's format spells them (``image_url``, not ``image``).
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from chatcodec._errors import Problem, ProviderLookupError, json_path
from chatcodec._narrow import as_dict, as_list
from chatcodec._payloads import cycle_path, cyclic
from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._providers.contract.sampling_range import SamplingRange
from chatcodec._providers.kit.field_sets import FieldSets
from chatcodec._registry import generation, get_codec, providers_in_use
from chatcodec._strict.extensions import Extension, extension_fields
from chatcodec._strict.values import shown, too_often, value_problems

Root = Literal["request", "response", "stream"]

TAG_FIELDS = ("type", "role")
"""The fields whose literal value tells the arms of a union apart (as in the generator)."""


@dataclass(frozen=True, slots=True)
class Schema:
    """One provider's published field set (its ``known_fields.json``) and documented extensions."""

    provider: str
    roots: dict[str, str]
    kinds: dict[str, dict[str, str]]
    tags: dict[str, dict[str, tuple[str, ...]]]
    unions: dict[str, tuple[str, ...]]
    extensions: dict[str, frozenset[str]]
    events_outside_sdk: frozenset[str] = frozenset()
    """Stream event types the provider documents that its SDK's event union leaves out."""
    required: dict[str, tuple[str, ...]] = field(default_factory=lambda: {})
    """Kind -> the fields its objects must hold (:mod:`chatcodec._strict.values`)."""
    values: dict[str, dict[str, dict[str, Any]]] = field(default_factory=lambda: {})
    """Kind -> field -> the type, enum and bounds of its scalar value."""
    one_member: frozenset[str] = frozenset()
    """Kinds whose objects set exactly one member."""
    one_of: dict[str, dict[str, Any]] = field(default_factory=lambda: {})
    """Kind -> the members of which its objects set exactly one, the message and source."""
    counted: dict[str, dict[str, Any]] = field(default_factory=lambda: {})
    """Field -> how many objects of one request may set it, the message and source."""
    known_fields: dict[str, frozenset[str]] = field(default_factory=lambda: {})
    """Per kind, the SDK's fields and the documented extensions (filled on first use)."""

    def arms(self, target: str) -> tuple[str, ...]:
        return self.unions.get(target, (target,))

    def known(self, kind: str) -> frozenset[str]:
        """Every field a ``kind`` object may hold: the SDK's and the documented extensions."""
        known = self.known_fields.get(kind)
        if known is None:
            known = frozenset(self.kinds.get(kind, {})) | self.extensions.get(kind, frozenset())
            self.known_fields[kind] = known
        return known


def schema_for(provider: str, server: str | None = None) -> Schema | None:
    """The field set of ``provider``, or ``None`` for a format with none (``canonical``,
    a codec registered by a caller), asked of its codec: readers reach a provider only
    through the registry, and a codec registered under another name brings its field set,
    its documented extensions (its edge's) and its stream events.

    ``server``: a server speaking the format (OpenAI Chat's ``deepseek``, its edge's
    ``server_extensions``), whose own extensions replace every server's: a field one server
    documents is then refused for another."""
    try:
        codec = get_codec(provider)
    except ProviderLookupError:
        return None
    if not isinstance(codec, ProviderCodec):
        return None
    field_sets = codec.field_sets()
    events: frozenset[str] = frozenset() if codec.structure is None else codec.structure.stream_events_outside_sdk
    return None if field_sets is None else _schema(provider, codec, field_sets, events, server)


@cache
def _schema(
    provider: str, codec: ProviderCodec, field_sets: FieldSets, events: frozenset[str], server: str | None
) -> Schema:
    """Built once per name, field set and server (a codec registered again under the name
    brings its own)."""
    rows = _extensions(provider, codec, server)
    kinds, tags, unions = field_sets.kinds, field_sets.tags, field_sets.unions
    arms = [row for row in rows if row.arm_of in unions and row.kind not in kinds]
    if arms:  # parts a server takes that the SDK's unions have no arm for (Extension.arm_of)
        kinds = {**kinds, **{row.kind: dict.fromkeys(row.fields, "") for row in arms}}
        tags = {**tags, **{row.kind: {"type": (row.tag,)} for row in arms}}
        unions = dict(unions)
        for row in arms:
            unions[row.arm_of] = tuple(dict.fromkeys((*unions[row.arm_of], row.kind)))
    return Schema(
        provider=provider,
        roots=field_sets.roots,
        kinds=kinds,
        tags=tags,
        unions=unions,
        extensions=extension_fields(rows, kinds),
        events_outside_sdk=events,
        required=field_sets.required,
        values=_held_to_server(field_sets.values, codec, server),
        one_member=field_sets.one_member,
        one_of=field_sets.one_of,
        counted=field_sets.counted,
    )


def _held_to_server(
    values: dict[str, dict[str, dict[str, Any]]], codec: ProviderCodec, server: str | None
) -> dict[str, dict[str, dict[str, Any]]]:
    """The value rules for a body sent to ``server``: where its reference documents its own
    sampling ranges (the edge's ``server_ranges``: vLLM takes a ``temperature`` above 2,
    Kimi none above 1), those in place of the format's, as the writer's ``sampling_range``
    rule holds a body for that server; the format's own otherwise."""
    edge = codec.edge
    ranges = None if server is None or edge is None else edge.server_ranges.get(server)
    if not ranges:
        return values
    held = {item.key: item for item in ranges if not item.at}
    changed: dict[str, dict[str, dict[str, Any]]] = {}
    for kind, rules in values.items():
        replaced = {key: _ranged(rule, held[key]) for key, rule in rules.items() if key in held}
        if replaced:
            changed[kind] = {**rules, **replaced}
    return {**values, **changed}


def _ranged(rule: Mapping[str, Any], item: SamplingRange) -> dict[str, Any]:
    """``rule`` with ``item``'s bounds in place of its own (on each value of an object for
    ``each``), none where ``item`` has none."""
    high = "exclusive_maximum" if item.exclusive_high else "maximum"
    bounds = {key: value for key, value in (("minimum", item.low), (high, item.high)) if value is not None}
    if item.each:
        inner = {key: value for key, value in dict(rule.get("values") or {}).items() if key not in _BOUNDS}
        return {**rule, "values": {**inner, **bounds}, "source": item.source}
    return {**{key: value for key, value in rule.items() if key not in _BOUNDS}, **bounds, "source": item.source}


_BOUNDS = frozenset({"minimum", "maximum", "exclusive_maximum"})


def _extensions(provider: str, codec: ProviderCodec, server: str | None) -> tuple[Extension, ...]:
    edge = codec.edge
    if server is None:
        return () if edge is None else edge.extensions
    servers: Mapping[str, tuple[Extension, ...]] = {} if edge is None else edge.server_extensions
    if server not in servers:
        known = ", ".join(servers) or "none"
        raise ProviderLookupError(f"{provider} names no server {server!r} (known: {known})")
    return servers[server]


def unknown_fields(
    schema: Schema, value: object, target: str, location: tuple[int | str, ...] = (), values: bool = False
) -> list[Problem]:
    """Every field in ``value`` (read as ``target``) that the schema does not define, and
    every tag no arm of its union has, with the JSON path of each; with ``values`` (what a
    client sends: a request, its messages) also every required field missing and every
    scalar value the provider refuses (:mod:`chatcodec._strict.values`)."""
    return list(_walk(schema, value, target, location, values))


def _walk(
    schema: Schema, value: object, target: str, location: tuple[int | str, ...], values: bool
) -> Iterator[Problem]:
    # An explicit stack: a payload may be nested deeply (a free-form value is never entered,
    # but lists of lists are).
    stack: list[tuple[object, str, tuple[int | str, ...]]] = [(value, target, location)]
    deep = len(location) + _CYCLE_DEPTH
    setting: dict[str, list[tuple[int | str, ...]]] = {key: [] for key in schema.counted} if values else {}
    while stack:
        node, node_target, where = stack.pop()
        if not node_target:
            continue
        if len(where) > deep:  # the rare branch: a payload built in Python may hold itself
            _refuse_cycle(value, location)
            deep = sys.maxsize
        items = as_list(node)
        if items is not None:
            stack.extend((item, node_target, (*where, index)) for index, item in reversed(list(enumerate(items))))
            continue
        fields = as_dict(node)
        if fields is None:
            continue
        kind, problem, fitting = _choose(schema, fields, node_target, where, values)
        if problem is not None:
            yield problem
            continue
        known = schema.known(kind)
        if values:
            yield from value_problems(schema, fitting, fields, where)
        for key, places in setting.items():  # a request's counted fields (Anthropic's breakpoints)
            if fields.get(key) is not None:
                places.append((*where, key))
        children = schema.kinds.get(kind, {})
        for key, item in reversed(list(fields.items())):
            if key not in known:
                yield _unknown_field(key, known, (*where, key), item)
            else:
                stack.append((item, children.get(key, ""), (*where, key)))
    yield from too_often(schema.counted, setting)


_CYCLE_DEPTH = 256
"""How deep the walk goes into a payload's closed places before it asks whether the payload
holds itself (a list holding itself is a place the walk would enter without end)."""


def _refuse_cycle(value: object, location: tuple[int | str, ...]) -> None:
    cycle = cycle_path(value)
    if cycle is not None:
        raise cyclic((*location, *cycle))


def _unknown_field(key: str, known: frozenset[str], location: tuple[int | str, ...], value: object) -> Problem:
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    hint = f"; did you mean `{close[0]}`?" if close else ""
    nearest = close[0] if close else None
    return Problem(location, "unknown_field", f"`{shown(key)}`: unknown field{hint}", value, nearest)


_every_field: list[tuple[int, frozenset[str]]] = []


def every_field_name() -> frozenset[str]:
    """Every field name some registered format's published field set holds, at any place
    (built again when a codec is registered): a key none of them has is a misspelling,
    never a sign of another format."""
    if _every_field and _every_field[0][0] == generation():
        return _every_field[0][1]
    names: set[str] = set()
    for provider in providers_in_use():
        schema = schema_for(provider)
        if schema is not None:
            names.update(key for fields in schema.kinds.values() for key in fields)
            names.update(key for fields in schema.extensions.values() for key in fields)
    _every_field[:] = [(generation(), frozenset(names))]
    return _every_field[0][1]


def _choose(
    schema: Schema, fields: Mapping[str, Any], target: str, location: tuple[int | str, ...], values: bool = False
) -> tuple[str, Problem | None, tuple[str, ...]]:
    """The arm of ``target`` that ``fields`` is, or the problem with its tag; and every arm
    it could be (its tag allows and its keys fit), the chosen one first, whose value rules
    all hold (an object without a tag may be any arm it fits). With ``values`` (a request)
    the tag of a place with one arm is held to it too (OpenAI's ``user_location.type``,
    ``Literal["approximate"]``); an answer's is not, as servers add tags first."""
    arms = schema.arms(target)
    if len(arms) == 1:
        return arms[0], (_lone_tag(schema, fields, arms, location) if values else None), arms
    for tag in TAG_FIELDS:
        value = fields.get(tag)
        if not isinstance(value, str):
            continue
        tagged = [arm for arm in arms if tag in schema.tags.get(arm, {})]
        matching = [arm for arm in tagged if value in schema.tags[arm][tag]]
        if matching:
            arms = tuple(matching)
        elif len(tagged) == len(arms):
            return "", _unknown_tag(schema, tag, value, arms, (*location, tag)), ()
        else:
            arms = tuple(arm for arm in arms if arm not in tagged)
    keys = frozenset(fields)
    chosen = max(arms, key=lambda arm: (keys <= schema.known(arm), len(keys & schema.known(arm))))
    others = tuple(arm for arm in arms if arm != chosen and keys <= schema.known(arm))
    return chosen, None, (chosen, *others)


def _lone_tag(
    schema: Schema, fields: Mapping[str, Any], arms: tuple[str, ...], location: tuple[int | str, ...]
) -> Problem | None:
    tags = schema.tags.get(arms[0])
    if not tags:
        return None
    for tag, allowed in tags.items():
        value = fields.get(tag)
        if isinstance(value, str) and value not in allowed:
            return _unknown_tag(schema, tag, value, arms, (*location, tag))
    return None


def _unknown_tag(
    schema: Schema, tag: str, value: str, arms: tuple[str, ...], location: tuple[int | str, ...]
) -> Problem:
    spelled = list(dict.fromkeys(name for arm in arms for name in schema.tags[arm][tag]))
    close = difflib.get_close_matches(value, spelled, n=1, cutoff=0.6)
    hint = f"; did you mean `{close[0]}`?" if close else ""
    listed = ", ".join(f"`{name}`" for name in spelled)
    return Problem(
        location,
        f"unknown_{tag}",
        f"`{shown(value)}`: unknown {tag}{hint} ({schema.provider} {tag}s here: {listed})",
        value,
    )


def payload_problems(provider: str, root: Root, payload: Mapping[str, Any], server: str | None = None) -> list[Problem]:
    """The unknown fields of one ``provider`` payload (empty for a format with no field
    set), for one ``server`` of the format when named (:func:`schema_for`)."""
    schema = schema_for(provider, server)
    if schema is None:
        return []
    event_type = payload.get("type")
    if root == "stream" and isinstance(event_type, str) and event_type in schema.events_outside_sdk:
        return []  # a non-string type is the walk's to refuse, at its path
    return unknown_fields(schema, payload, schema.roots[root], values=root == "request")


def describe(problems: list[Problem]) -> str:
    """One line per problem, for logs: ``at $.temprature: `temprature`: unknown field ...``."""
    return "\n".join(f"at {json_path(problem.location)}: {problem.message}" for problem in problems)
