"""Bags: the wire fields a decoder did not map, kept on the canonical object for the same
provider's encoder, and the markers and escaping inside them.

The rule that makes a same-provider round trip exact: a decoder maps what has a canonical
field and keeps the *rest* of each wire object in that object's
``provider_metadata[provider]`` bag; the encoder for the same provider starts from the
bag and writes the canonical fields over it (what the bag means to another provider is
in :mod:`.provider_kit`).

``leftovers``      the wire fields a decoder did not map (``null`` values kept as they are)
``split_fields``   the same, with ``null`` values and missing defaults kept as markers
``restore_fields`` the inverse of ``split_fields``: the wire fields a bag stands for
``wire_fields``    a bag without its markers: what is written to the wire as it is
``mark_absent``    record keys the encoder writes by default that the payload left out
``absent_keys``    read them back
``keeps_a_container`` whether canonical data keeps a JSON object or array in a bag
``holds_a_container`` the same for one bag

A wire key that itself starts with ``_`` (user data: ``{"_trace": ...}``) is kept in the
bag *escaped*, with one more ``_`` (``__trace``), so it can never be taken for a marker:
markers are exactly the keys with a single leading underscore, and every other bag key
is a wire key, unescaped by dropping one ``_`` when it is written back or reported
(:func:`bag_key`, :func:`wire_key`, :func:`is_marker`). Only the
functions here escape and unescape, so every codec written with them gets the rule.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, cast

from chatcodec._errors import rule_error
from chatcodec._losses import Steps
from chatcodec._narrow import as_dict, as_list

NULLS_MARKER = "_nulls"
"""Marker: the wire fields that were ``null``, sorted (see :func:`split_fields`)."""
ABSENT_MARKER = "_absent"
"""Marker: keys with a default that the payload left out."""

_NO_DEFAULTS: Mapping[str, Any] = {}


def is_marker(key: str) -> bool:
    """Whether a bag key is a marker: exactly one leading ``_`` (see the module docstring)."""
    return key[:1] == "_" and key[1:2] != "_"


def bag_key(key: str) -> str:
    """The bag key for a wire key: one more ``_`` when it starts with ``_``, so a wire key
    is never a marker."""
    return "_" + key if key[:1] == "_" else key


def wire_key(key: str) -> str:
    """The wire key a (non-marker) bag key stands for: :func:`bag_key` undone."""
    return key[1:] if key[:2] == "__" else key


def leftovers(wire: Mapping[str, Any], mapped: Collection[str]) -> dict[str, Any]:
    """The fields of ``wire`` not mapped to canonical fields (``null`` values kept), keyed
    by :func:`bag_key`.

    ``mapped`` is usually a handful of keys, so a tuple is the cheaper container: this
    runs for every message and part.
    """
    for key in wire:  # usually every key is mapped: say so without building a dict
        if key not in mapped:
            return {bag_key(key): value for key, value in wire.items() if key not in mapped}
    return {}


def unmapped_fields(wire: Mapping[str, Any], mapped: Collection[str]) -> dict[str, Any]:
    """The unmapped fields of a *nested* wire object (an ``image_url``, a tool call's
    ``function``), keys as they are: kept as a wire value under its key in the parent's
    bag and merged back into the object on encode, so it holds no markers and needs no
    escape (:func:`leftovers` is for a bag itself)."""
    return {key: value for key, value in wire.items() if key not in mapped}


def present_keys(wire: Mapping[str, Any], *keys: str) -> list[str]:
    """The ``keys`` whose value in ``wire`` is not ``null``: the ones a decoder maps."""
    return [key for key in keys if wire.get(key) is not None]


def split_fields(
    wire: Mapping[str, Any], mapped: Collection[str], defaults: Mapping[str, Any] = _NO_DEFAULTS
) -> dict[str, Any]:
    """The bag for ``wire``: unmapped fields, plus :data:`NULLS_MARKER` / :data:`ABSENT_MARKER` markers.

    A field equal to its default is not kept at all, so a bag holds only information.
    """
    if not defaults:
        for key, value in wire.items():  # usually every key is mapped and none is null
            if value is None or key not in mapped:
                break
        else:
            return {}
    bag: dict[str, Any] = {}
    nulls: list[str] = []
    for key, value in wire.items():
        if key in defaults and value == defaults[key]:
            continue
        if value is None:
            nulls.append(key)
        elif key not in mapped:
            bag[bag_key(key)] = value
    if nulls:
        bag[NULLS_MARKER] = sorted(nulls)
    absent = [key for key in defaults if key not in wire]
    if absent:
        bag[ABSENT_MARKER] = absent
    return bag


def restore_fields(bag: Mapping[str, Any], defaults: Mapping[str, Any] = _NO_DEFAULTS) -> dict[str, Any]:
    """The wire fields a :func:`split_fields` bag stands for; the encoder then writes the
    canonical fields over them."""
    if not bag:
        return dict(defaults)
    absent = as_list(bag.get(ABSENT_MARKER)) or []
    wire = {key: value for key, value in defaults.items() if key not in absent}
    for key in as_list(bag.get(NULLS_MARKER)) or []:
        if isinstance(key, str):
            wire[key] = None
    wire.update((wire_key(key), value) for key, value in bag.items() if not is_marker(key))
    return wire


def wire_fields(bag: Mapping[str, Any]) -> dict[str, Any]:
    """The bag without markers, keys unescaped: what is written to the wire as it is."""
    return {wire_key(key): value for key, value in bag.items() if not is_marker(key)}


def mark_absent(bag: dict[str, Any], wire: Mapping[str, Any], *keys: str) -> None:
    """Record which of ``keys`` (written by the encoder by default) the payload left out."""
    missing = [key for key in keys if key not in wire]
    if missing:
        bag[ABSENT_MARKER] = missing


def absent_keys(bag: Mapping[str, Any]) -> frozenset[str]:
    """The keys :func:`mark_absent` recorded."""
    return frozenset(key for key in as_list(bag.get(ABSENT_MARKER)) or () if isinstance(key, str))


def kept_object(fields: dict[str, Any], key: str, at: Steps, provider: str, *, take: bool = False) -> dict[str, Any]:
    """A copy of the object ``fields`` keep under ``key`` (``{}`` when there is none),
    removed from ``fields`` when ``take``. A bag comes from the caller as well as from a
    decoder (``provider_metadata``, ``provider_options``), so a value that is not an
    object is a :class:`~chatcodec.ValidationError` at ``at`` + ``key``, never a
    TypeError from inside an encoder (found by the fuzz harness)."""
    value = fields.pop(key, None) if take else fields.get(key)
    if value is None:
        return {}
    found = as_dict(value)
    if found is None:
        why = f"{key} kept for {provider} must be an object"
        raise rule_error(f"{provider} request", (*at, key), "kept_object_type", why, value)
    return dict(found)


def keeps_a_container(canonical: Mapping[str, Any]) -> bool:
    """Whether canonical request data read from a wire keeps a JSON object or array in a bag
    (the request's ``provider_options``, a message's or a part's ``provider_metadata``).

    A reader whose closed front took the body (``DecodeContext.closed``) spares the check
    that canonical can hold what it read (``provider_codec.held``, a third of a conversion):
    the front refused every value nested past pydantic-core's depth limit *where it was*.
    A value kept in a bag sits a few levels deeper in canonical than it came, so near the
    limit it may pass the front and not canonical: a reader that keeps one asks for the
    check. An agent session's bags hold scalar markers only. The tools' bags and the parts
    inside a tool result's content are looked at too."""
    options = canonical.get("provider_options")
    if options is not None and _holds_a_container(options):
        return True
    for tool in canonical.get("tools") or ():  # a tool's own bag sits deeper than its fields came
        options = tool.get("provider_metadata")
        if options is not None and _holds_a_container(options):
            return True
    for message in canonical["messages"]:
        metadata = message.get("provider_metadata")
        if metadata is not None and _holds_a_container(metadata):
            return True
        content: Any = message.get("content")  # Any, no typing.cast per message: a Python call each
        if content.__class__ is list and _parts_keep_a_container(content):
            return True
    return False


def _parts_keep_a_container(parts: list[Any]) -> bool:
    """Whether a part's bag, or the bag of a part inside a tool result's content (a level
    deeper still), holds a container."""
    for part in parts:
        metadata = part.get("provider_metadata")
        if metadata is not None and _holds_a_container(metadata):
            return True
        inner: Any = part.get("content") if part.get("type") == "tool_result" else None
        if inner.__class__ is list and _parts_keep_a_container(inner):
            return True
    return False


def _holds_a_container(by_provider: Mapping[str, Any]) -> bool:
    """Whether a ``{provider: bag}`` mapping holds, in a bag, an object or an array that holds one."""
    # a value that is not a reader's bag counts as one: the whole check then decides
    return any(
        type(bag) is not dict or holds_a_container(cast("dict[str, object]", bag)) for bag in by_provider.values()
    )


def holds_a_container(bag: Mapping[str, object]) -> bool:
    """Whether one bag holds an object, or an array that holds one: a value a reader kept
    whole, which canonical holds deeper than it came (:func:`keeps_a_container`). A list of
    scalars (a marker's key names, such as ``_integers``) is never deep."""
    for value in bag.values():
        if type(value) is dict:
            return True
        if type(value) is list and any(
            type(item) is dict or type(item) is list for item in cast("list[object]", value)
        ):
            return True
    return False


def own_bag(bags: object, name: str) -> Mapping[str, Any] | None:
    """``bags[name]`` when a mapping in a bags mapping (plain dicts first, what readers make:
    an ABC ``isinstance`` is dear)."""
    if type(bags) is dict:
        own: object = cast("dict[str, object]", bags).get(name)
    elif bags is not None and isinstance(bags, Mapping):
        own = cast("Mapping[str, object]", bags).get(name)
    else:
        return None
    if own is None or type(own) is dict or isinstance(own, Mapping):
        return cast("Mapping[str, Any] | None", own)
    return None
