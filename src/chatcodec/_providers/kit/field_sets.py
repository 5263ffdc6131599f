"""A provider's published field set: the ``known_fields.json`` data file beside its modules.

``tools/known_fields.py`` generates the file from the official SDK types (the SDKs are
test-only dependencies, so their field sets are committed as package data and shipped in
the wheel); strict decoding (:mod:`chatcodec._strict.fields`) reads it to refuse a field the
provider's API does not define. The shape of the tables is described in the generator.

Each file is read once per provider, on first use: a gateway that never decodes strictly
never parses the few hundred kilobytes of JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

DATA_FILE = "known_fields.json"


@dataclass(frozen=True, slots=True, eq=False)
class FieldSets:
    """One provider's ``known_fields.json``, as read (compared by identity: one per provider)."""

    source: str
    """The SDK and version the tables were generated from (``anthropic 2.12.0``)."""
    roots: dict[str, str]
    """The kind (or union) of a whole ``request``, ``response`` and ``stream`` event."""
    kinds: dict[str, dict[str, str]]
    """Kind -> field -> what its value holds (a kind, a union, or ``""`` for a scalar or free-form value)."""
    tags: dict[str, dict[str, tuple[str, ...]]]
    """Kind -> ``type``/``role`` -> the literal values that tell union arms apart."""
    unions: dict[str, tuple[str, ...]]
    """Union name -> its arms (kinds)."""
    required: dict[str, tuple[str, ...]] = field(default_factory=lambda: {})
    """Kind -> the fields an object of that kind must hold (checked on requests)."""
    values: dict[str, dict[str, dict[str, Any]]] = field(default_factory=lambda: {})
    """Kind -> field -> what its scalar value may be (type, enum, bounds; checked on requests)."""
    one_member: frozenset[str] = frozenset()
    """Kinds whose objects set exactly one member (botocore's unions)."""
    one_of: dict[str, dict[str, Any]] = field(default_factory=lambda: {})
    """Kind -> ``members`` of which an object sets exactly one (a proto ``oneof``, Gemini's
    part data), with the provider's ``message`` and its ``source``."""
    counted: dict[str, dict[str, Any]] = field(default_factory=lambda: {})
    """Field -> ``at_most``: how many objects of one request may set it (Anthropic's
    ``cache_control`` breakpoints), with the provider's ``message`` and its ``source``."""


@cache
def load_field_sets(package: str) -> FieldSets | None:
    """The field sets in ``package``'s ``known_fields.json``, or ``None`` when it has none
    (a codec a caller registered from their own package)."""
    import pkgutil  # the package's loader reads the file (folder or zip); importlib.resources is 28 modules

    try:
        data = pkgutil.get_data(package, DATA_FILE)
    except (OSError, ImportError, ValueError):  # no file; no such package; no name
        return None
    if data is None:
        return None
    document = json.loads(data)
    return FieldSets(
        source=document["source"],
        roots=document["roots"],
        kinds=document["kinds"],
        tags={kind: {tag: tuple(values) for tag, values in tags.items()} for kind, tags in document["tags"].items()},
        unions={name: tuple(arms) for name, arms in document["unions"].items()},
        required={kind: tuple(fields) for kind, fields in document.get("required", {}).items()},
        values=document.get("values", {}),
        one_member=frozenset(document.get("one_member", ())),
        one_of=document.get("one_of", {}),
        counted=document.get("counted", {}),
    )


@cache
def sdk_fields(package: str, kinds: tuple[str, ...]) -> frozenset[str]:
    """The fields the SDK's types give any of ``kinds`` (``package``'s ``known_fields.json``):
    what a reader asks of the generated description where it needs the SDK's own list (a
    ``null`` in a field the SDK types is spelling, :mod:`~chatcodec._providers.kit.null_fields`),
    read on that first need, never copied by hand beside the reader."""
    field_sets = load_field_sets(package)
    if field_sets is None:
        raise LookupError(f"{package} has no {DATA_FILE}")
    missing = [kind for kind in kinds if kind not in field_sets.kinds]
    if missing:
        raise LookupError(f"{package}'s {DATA_FILE} has no kind {', '.join(missing)}")
    return frozenset(field for kind in kinds for field in field_sets.kinds[kind])
