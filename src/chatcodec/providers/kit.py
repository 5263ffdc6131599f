"""The one toolkit every provider codec is written with.

The rule that makes a same-provider round trip exact: a decoder maps what has a canonical
field and keeps the *rest* of each wire object in that object's
``provider_metadata[provider]`` bag; the encoder for the same provider starts from the
bag and writes the canonical fields over it. Another provider's encoder does not read the
bag: it reports it as a loss (:meth:`ProviderKit.claim`).

Vocabulary, the same in every provider folder:

``leftovers``      the wire fields a decoder did not map (``null`` values kept as they are)
``split_fields``   the same, with ``null`` values and missing defaults kept as markers
``restore_fields`` the inverse of ``split_fields``: the wire fields a bag stands for
``wire_fields``    a bag without its markers: what is written to the wire as it is
``mark_absent``    record keys the encoder writes by default that the payload left out
``absent_keys``    read them back
``Steps``          a loss path as steps (``("messages", 2, "content", 0)``), rendered
                   ``$.messages[2].content[0]`` only when a loss is recorded
``tool_name``      a tool name as a provider accepts it (blank: an error; too long or
                   with other characters: rewritten, the same everywhere, and reported;
                   the rules and the rewrite are in ``tool_names.py``)
``arguments_object`` tool-argument text parsed for a provider that takes an object,
                   and whether writing that object back says exactly what the text said

Keys starting with exactly one ``_`` in a bag are *markers*: how a value was spelled (a
``null``, a missing default, one string instead of a list), or an option for that
provider's encoder. Each provider documents its own markers in its ``markers.py``, and
classifies each one there. Most are *pure spelling*: the two spellings mean the same to
every server that takes either, so another provider drops them without a report. A few
*carry meaning*: a server may accept one spelling and refuse or misread the other
(OpenAI Chat's ``max_tokens`` against ``max_completion_tokens``), or the model would see
something else. A provider declares those in its kit (``ProviderKit(name,
meaningful_markers={marker: why})``), and another provider's encoder reports one it drops
as a loss (:meth:`ProviderKit.report_foreign`; issue 10, item 24). The declaration is
found by provider name (:func:`meaningful_markers`), loading that provider through the
registry when it was not imported yet, so it does not depend on import order.

A wire key that itself starts with ``_`` (user data: ``{"_trace": ...}``) is kept in the
bag *escaped*, with one more ``_`` (``__trace``), so it can never be taken for a marker:
markers are exactly the keys with a single leading underscore, and every other bag key
is a wire key, unescaped by dropping one ``_`` when it is written back or reported
(:func:`bag_key`, :func:`wire_key`, :func:`is_marker`; issue 10, item 18). Only the
functions here escape and unescape, so every codec written with them gets the rule.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection, Iterable, Mapping
from decimal import Decimal
from typing import Any

import pydantic_core
from pydantic import ConfigDict, Discriminator, with_config

from chatcodec._base import ProviderMetadata
from chatcodec._narrow import as_dict, as_list
from chatcodec.content import CacheControl
from chatcodec.errors import StreamError, json_path, rule_error
from chatcodec.losses import LossKind, LossRecorder, Steps
from chatcodec.providers.tool_names import tool_name, tool_name_map
from chatcodec.registry import get_codec, registered_providers
from chatcodec.response import Usage

NULLS = "_nulls"
"""Marker: the wire fields that were ``null``, sorted (see :func:`split_fields`)."""
ABSENT = "_absent"
"""Marker: keys with a default that the payload left out."""

_NO_DEFAULTS: Mapping[str, Any] = {}
_NO_MEANINGFUL: Mapping[str, str] = {}
_KITS: dict[str, ProviderKit] = {}
"""Every kit made so far, by provider name (each provider's ``markers.KIT``)."""

__all__ = [
    "ABSENT",
    "NULLS",
    "TOOL_ORDER",
    "ProviderKit",
    "Steps",
    "absent_keys",
    "arguments_object",
    "bag_key",
    "canonical_refusal",
    "claude_signed",
    "compact_json",
    "decode_cache_control",
    "encode_cache_control",
    "is_claude_model",
    "is_marker",
    "kept_object",
    "leftovers",
    "mark_absent",
    "meaningful_markers",
    "path",
    "present",
    "restore_fields",
    "split_fields",
    "tagged",
    "tool_name",
    "tool_name_map",
    "uncached_input_tokens",
    "unmapped",
    "wire_fields",
    "wire_key",
    "wire_shape",
]


wire_shape = with_config(ConfigDict(extra="allow", strict=True, defer_build=True))
"""The decorator on every wire ``TypedDict``: strict types (``"1"`` is not a number, ``1``
is not text), unknown keys allowed and kept (the decoder stores them in the bag, so a
same-provider round trip is exact), and the validator built on first use, not at import.

``strict`` on an adapter does not reach into a ``TypedDict``: each one needs its own, so
every wire shape carries this decorator."""


def tagged(known: Iterable[str], key: str = "type", fallback: str = "unknown") -> Discriminator:
    """A discriminator routing a wire object to its shape by ``key``; a value not in
    ``known`` (a kind added after this was written, or not an object at all) goes to the
    ``fallback`` shape, which keeps it whole, rather than failing the whole payload."""
    known_tags = frozenset(known)

    def tag(value: Any) -> str:  # pydantic-core calls this for every part: kept to the bone
        found: object = value.get(key) if isinstance(value, dict) else None  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        return found if isinstance(found, str) and found in known_tags else fallback

    return Discriminator(tag)


class ProviderKit:
    """The bag operations bound to one provider's name (each provider's ``markers.KIT``)."""

    __slots__ = ("meaningful_markers", "name")

    def __init__(self, name: str, meaningful_markers: Mapping[str, str] = _NO_MEANINGFUL) -> None:
        self.name = name
        """Registry name of the provider, and the key of its ``provider_metadata`` bags."""
        self.meaningful_markers: Mapping[str, str] = dict(meaningful_markers)
        """This provider's markers that carry meaning, each with why: another provider
        that drops one reports it as lost (see the module docstring)."""
        _KITS[name] = self

    def own(self, metadata: ProviderMetadata | None) -> dict[str, Any]:
        """A copy of what this provider kept on an object when it decoded it, or ``{}``."""
        if not metadata:
            return {}
        return dict(metadata.get(self.name) or {})

    def claim(self, losses: LossRecorder, metadata: ProviderMetadata | None, at: Steps) -> dict[str, Any]:
        """This provider's bag on an object being encoded; other providers' bags are
        reported as lost at ``at``."""
        if not metadata:
            return {}
        self.report_foreign(losses, metadata, at)
        return dict(metadata.get(self.name) or {})

    def report_foreign(self, losses: LossRecorder, metadata: ProviderMetadata | None, at: Steps) -> None:
        """Record a loss for every other provider's data on an object this one encodes:
        its wire fields, and its markers that carry meaning (pure spellings are dropped
        without a report)."""
        if not metadata:
            return
        for name, bag in metadata.items():
            if name == self.name:
                continue
            keys = sorted(wire_key(key) for key in bag if not is_marker(key))
            if keys:
                losses.add(at, f"{name} data {keys}", f"{self.name} has no field for it", _bag_kind(at))
            if any(is_marker(key) for key in bag):
                self._report_meaningful(losses, name, bag, at)

    def _report_meaningful(self, losses: LossRecorder, name: str, bag: Mapping[str, Any], at: Steps) -> None:
        """Report the markers of ``name``'s bag that ``name`` declared meaningful, with the
        value they held. One set to ``null`` records that there was nothing to spell
        (Gemini's ``_schema_key: null``: a declaration without a schema), so it is not reported."""
        declared = meaningful_markers(name)
        for key in sorted(declared.keys() & bag.keys()):
            value = bag[key]
            if value is None:
                continue
            spelled = f"={compact_json(value)}" if isinstance(value, str | int | bool) else ""
            why = f"{self.name} has no field for it: {declared[key]}"
            losses.add(at, f"{name} spelling {key}{spelled}", why, "spelling")

    def report_unplaced(self, losses: LossRecorder, metadata: ProviderMetadata | None, at: Steps, why: str) -> None:
        """Record a loss for every bag on an object this provider has no place for on the
        wire at hand, its own included (``why`` says so); markers are never reported."""
        if not metadata:  # the usual case: every assistant turn a Responses encoder writes
            return
        self.report_foreign(losses, metadata, at)
        keys = sorted(wire_key(key) for key in self.own(metadata) if not is_marker(key))
        if keys:
            losses.add(at, f"{self.name} data {keys}", why, _bag_kind(at))

    def attach(self, canonical: dict[str, Any], bag: Mapping[str, Any]) -> dict[str, Any]:
        """``canonical`` with ``provider_metadata = {name: bag}`` when ``bag`` is not empty."""
        if bag:
            canonical["provider_metadata"] = {self.name: dict(bag)}
        return canonical

    def marker(self, metadata: ProviderMetadata | None, key: str) -> object:
        """The value of marker ``key`` in this provider's bag, or ``None``."""
        if not metadata:
            return None
        bag = metadata.get(self.name)
        return None if bag is None else bag.get(key)


def _bag_kind(at: Steps) -> LossKind:
    """A request's own bag holds settings (``n``, ``logprobs``); any other object's holds
    data kept for round trips (ids, a block's extra fields)."""
    return "setting" if at == ("provider_options",) else "metadata"


TOOL_ORDER: Mapping[str, str] = {
    "_tool_order": "the tools come back function tools first, and the model reads them in order"
}
"""The ``_tool_order`` marker of the wires that list server and client tools in one list
(Anthropic, Bedrock Converse, Responses): meaningful, declared the same way by each."""


def meaningful_markers(provider: str) -> Mapping[str, str]:
    """The markers of ``provider`` that carry meaning, each with why (``{}`` for a name
    no kit declared). A provider not imported yet is loaded through the registry first:
    a bag can reach another provider's encoder without its own codec ever running (a
    caller wrote ``provider_options["openai-chat"]`` by hand)."""
    kit = _KITS.get(provider)
    if kit is None:
        if provider not in registered_providers():
            return _NO_MEANINGFUL
        get_codec(provider)
        kit = _KITS.get(provider)
    return _NO_MEANINGFUL if kit is None else kit.meaningful_markers


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


def unmapped(wire: Mapping[str, Any], mapped: Collection[str]) -> dict[str, Any]:
    """The unmapped fields of a *nested* wire object (an ``image_url``, a tool call's
    ``function``), keys as they are: kept as a wire value under its key in the parent's
    bag and merged back into the object on encode, so it holds no markers and needs no
    escape (:func:`leftovers` is for a bag itself)."""
    return {key: value for key, value in wire.items() if key not in mapped}


def present(wire: Mapping[str, Any], *keys: str) -> list[str]:
    """The ``keys`` whose value in ``wire`` is not ``null``: the ones a decoder maps."""
    return [key for key in keys if wire.get(key) is not None]


def split_fields(
    wire: Mapping[str, Any], mapped: Collection[str], defaults: Mapping[str, Any] = _NO_DEFAULTS
) -> dict[str, Any]:
    """The bag for ``wire``: unmapped fields, plus :data:`NULLS` / :data:`ABSENT` markers.

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
        bag[NULLS] = sorted(nulls)
    absent = [key for key in defaults if key not in wire]
    if absent:
        bag[ABSENT] = absent
    return bag


def restore_fields(bag: Mapping[str, Any], defaults: Mapping[str, Any] = _NO_DEFAULTS) -> dict[str, Any]:
    """The wire fields a :func:`split_fields` bag stands for; the encoder then writes the
    canonical fields over them."""
    if not bag:
        return dict(defaults)
    absent = as_list(bag.get(ABSENT)) or []
    wire = {key: value for key, value in defaults.items() if key not in absent}
    for key in as_list(bag.get(NULLS)) or []:
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
        bag[ABSENT] = missing


def absent_keys(bag: Mapping[str, Any]) -> frozenset[str]:
    """The keys :func:`mark_absent` recorded."""
    return frozenset(key for key in as_list(bag.get(ABSENT)) or () if isinstance(key, str))


def path(*steps: int | str) -> str:
    """A JSON path for messages: ``path("messages", 2, "content")`` -> ``$.messages[2].content``."""
    return json_path(steps)


def decode_cache_control(value: object) -> dict[str, Any] | None:
    """The canonical marker for a wire ``cache_control``, or None when it has another shape
    (an unknown ``type`` or extra keys), in which case the caller keeps it in the bag."""
    if not isinstance(value, dict):
        return None
    fields: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
    if fields.get("type") != "ephemeral" or not set(fields) <= {"type", "ttl"}:
        return None
    if "ttl" in fields and not isinstance(fields["ttl"], str):
        return None
    return dict(fields)


def encode_cache_control(cache_control: CacheControl) -> dict[str, Any]:
    """``{"type": "ephemeral"}`` plus the TTL when one is set."""
    if cache_control.ttl is None:
        return {"type": cache_control.type}
    return {"type": cache_control.type, "ttl": cache_control.ttl}


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


def uncached_input_tokens(usage: Usage, losses: LossRecorder, at: Steps) -> int | None:
    """The input tokens neither read from nor written to the cache, for wires that count
    those apart (Anthropic, Bedrock Converse) while canonical ``input_tokens`` includes
    them (so nothing is counted twice). A total smaller than its cache parts cannot be
    written: it is reported and sent as zero."""
    if usage.input_tokens is None:
        return None
    uncached = usage.input_tokens - (usage.cache_read_tokens or 0) - (usage.cache_write_tokens or 0)
    if uncached < 0:
        losses.add((*at, "input_tokens"), "input token count", "smaller than the cache reads plus writes", "metadata")
        return 0
    return uncached


def canonical_refusal(error: pydantic_core.ValidationError, event_index: int) -> StreamError:
    """The :class:`~chatcodec.StreamError` for a canonical event that refused what the wire
    schema let through, so a stream decoder never lets a bare pydantic error out.

    The wire schemas keep unknown values as they are, for speed; a JSON value nested past
    pydantic-core's depth limit in such a value is refused only when the canonical event
    (its ``provider_metadata``) is built, at a canonical path the input does not have, so
    the error names the event and the rule.
    """
    detail = error.errors(include_url=False)[0]
    return StreamError(f"{detail['msg']} [rule: {detail['type']}]", "$", event_index)


CLAUDE_SIGNERS = frozenset({"anthropic", "bedrock-converse"})
"""Providers whose Claude thinking carries Anthropic's signature scheme (the Anthropic
API itself; Claude on Bedrock Converse): Anthropic's documentation says signatures are
compatible across the platforms that serve Claude."""


def is_claude_model(model: str | None) -> bool:
    """Whether a model id names a Claude model (``claude-sonnet-4-5``, Bedrock's
    ``us.anthropic.claude-3-7-sonnet-20250219-v1:0`` or an ARN holding one)."""
    return model is not None and "claude" in model.lower()


def claude_signed(provider: str | None, model: str | None) -> bool:
    """Whether thinking from ``provider`` and ``model`` is signed by Claude's scheme, so
    another platform serving Claude can verify it: Anthropic's own, or Bedrock's when the
    model that produced it is known to be Claude."""
    if provider == "anthropic":
        return True
    return provider in CLAUDE_SIGNERS and is_claude_model(model)


_COMPACT_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def compact_json(value: object) -> str:
    """``value`` as compact JSON text, non-ASCII kept: the argument text for a tool call
    whose wire gives its arguments as a JSON value (parsing it back gives the same value)."""
    return _COMPACT_JSON.encode(value)


class _Reading:
    """What parsing argument text dropped: a repeated key, or a number changed."""

    __slots__ = ("changed",)

    def __init__(self) -> None:
        self.changed = False

    def pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        built = dict(pairs)
        if len(built) != len(pairs):
            self.changed = True  # json.loads keeps the last value of a repeated key
        return built

    def number(self, text: str) -> float:
        if not _exact(text):
            self.changed = True  # more digits than a double holds, or past its range
        return float(text)

    def constant(self, text: str) -> float:
        self.changed = True  # NaN / Infinity: Python reads them, JSON has no such value
        return float(text)


def arguments_object(arguments: str) -> tuple[object, bool]:
    """The argument text parsed (``None`` when it is not JSON), and whether the parsed
    value, written back as JSON, says exactly what the text said.

    For providers that take tool input as an object (Anthropic ``tool_use.input``): the
    text is parsed and re-serialised there, which silently keeps only the last of
    repeated keys and rounds a number to the nearest double (issue 10 item 24), so a
    caller reports the difference rather than sending it unsaid. Whitespace and number
    spelling (``1.50``, ``2e3``) carry no information and are not differences.

    The common cases are read by pydantic-core alone: with no float, the text must hold
    as many key ends (``"`` then ``:``) as the value holds keys, which a repeated key
    would break; with floats, the text must be exactly the value's compact JSON (what
    models write) or Python's default ``json.dumps`` of it. Anything else is read again,
    carefully, by ``json.loads``.
    """
    try:
        parsed: object = pydantic_core.from_json(arguments)
    except (ValueError, TypeError):  # TypeError: a str pydantic-core cannot take (a lone surrogate)
        return _careful_arguments(arguments)
    keys, has_float = _census(parsed)
    if not has_float:
        return (parsed, True) if _key_ends(arguments) == keys else _careful_arguments(arguments)
    written = pydantic_core.to_json(parsed)
    finite = b"NaN" not in written and b"Infinity" not in written
    if finite and (written == arguments.encode("utf-8", "surrogatepass") or _python_spelling(parsed) == arguments):
        return parsed, True
    return _careful_arguments(arguments)


_KEY_ENDS = re.compile(r'"\s*:')
"""Where an object key ends; a string value holding ``":`` only adds to the count, so an
equal count proves there is no repeated key."""

_QUOTE_GAPS = ('" ', '"\n', '"\t', '"\r')
"""Whitespace after a quote: only then can a key end be spelled other than ``":``."""


def _key_ends(arguments: str) -> int:
    """How many key ends the text holds (string values can add to it, never take away)."""
    if any(gap in arguments for gap in _QUOTE_GAPS):
        return len(_KEY_ENDS.findall(arguments))
    return arguments.count('":')


_PYTHON_JSON = json.JSONEncoder(allow_nan=False)
"""``json.dumps`` with its defaults (how Python tools write arguments), NaN refused."""


def _python_spelling(value: object) -> str | None:
    try:
        return _PYTHON_JSON.encode(value)
    except (ValueError, RecursionError):
        return None


def _census(value: object) -> tuple[int, bool]:
    """How many object keys ``value`` holds, and whether it holds a float (whose text
    may have had more digits than a double keeps)."""
    keys = 0
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            fields: dict[str, object] = item  # pyright: ignore[reportUnknownVariableType]
            keys += len(fields)
            pending.extend(fields.values())
        elif isinstance(item, list):
            pending.extend(item)  # pyright: ignore[reportUnknownArgumentType]
        elif isinstance(item, float):
            return keys, True
    return keys, False


def _exact(spelling: str) -> bool:
    """Whether a JSON number's spelling says no more than the double it is read as."""
    value = float(spelling)
    return math.isfinite(value) and Decimal(repr(value)) == Decimal(spelling)


def _careful_arguments(arguments: str) -> tuple[object, bool]:
    reading = _Reading()
    try:
        parsed: object = json.loads(
            arguments, object_pairs_hook=reading.pairs, parse_float=reading.number, parse_constant=reading.constant
        )
    except (ValueError, RecursionError):
        return None, False
    return parsed, not reading.changed


OPENAI_CACHE_TTLS = ("30m", "12h")
"""The lifetimes OpenAI's ``prompt_cache_breakpoint`` accepts (Chat and Responses)."""


def decode_prompt_cache_breakpoint(value: object) -> dict[str, Any] | None:
    """The canonical cache marker for OpenAI's ``prompt_cache_breakpoint``
    (``{"mode": "explicit", "ttl"?: "30m" | "12h"}``, the same object on Chat parts and
    Responses input parts), or None when it has another shape (kept in the bag)."""
    if not isinstance(value, dict):
        return None
    fields: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
    if fields.get("mode") != "explicit" or set(fields) - {"mode", "ttl"}:
        return None
    if "ttl" not in fields:
        return {"type": "ephemeral"}
    return {"type": "ephemeral", "ttl": fields["ttl"]} if fields["ttl"] in OPENAI_CACHE_TTLS else None


def encode_prompt_cache_breakpoint(cache_control: CacheControl, losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """OpenAI's ``prompt_cache_breakpoint`` for a canonical marker; a lifetime OpenAI does
    not offer is left to the default, with a loss."""
    breakpoint: dict[str, Any] = {"mode": "explicit"}
    if cache_control.ttl in OPENAI_CACHE_TTLS:
        breakpoint["ttl"] = cache_control.ttl
    elif cache_control.ttl is not None:
        why = f"OpenAI cache breakpoints last {' or '.join(OPENAI_CACHE_TTLS)}; the default is used"
        losses.add((*at, "cache_control", "ttl"), f"cache ttl {cache_control.ttl!r}", why)
    return breakpoint
