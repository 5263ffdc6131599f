"""The per-object bag that makes an Anthropic round trip exact.

A decoder keeps, on the closest canonical object, every wire field it did not map. Two
spellings carry no information but must come back exactly, so they are kept as markers
(keys starting with ``_``, which other providers never report as losses):

* ``_nulls``: fields that were ``null`` (``"stop_details": null``), sorted;
* ``_absent``: fields with a fixed default (``"type": "message"``) that were missing.

A field equal to its default is not kept at all, so a bag holds only real information.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from chatcodec._base import ProviderMetadata
from chatcodec._narrow import as_list
from chatcodec.content import CacheControl
from chatcodec.losses import LossRecorder
from chatcodec.providers._support import own_bag, report_foreign_metadata

PROVIDER = "anthropic"
"""Registry name, and the key of this codec's provider-metadata bags."""

NULLS = "_nulls"
ABSENT = "_absent"
_NO_DEFAULTS: Mapping[str, Any] = {}


def split_fields(
    wire: Mapping[str, Any], mapped: Collection[str], defaults: Mapping[str, Any] = _NO_DEFAULTS
) -> dict[str, Any]:
    """The bag for ``wire``: unmapped fields, plus ``_nulls``/``_absent`` markers."""
    bag: dict[str, Any] = {}
    nulls: list[str] = []
    for key, value in wire.items():
        if key in defaults and value == defaults[key]:
            continue
        if value is None:
            nulls.append(key)
        elif key not in mapped:
            bag[key] = value
    if nulls:
        bag[NULLS] = sorted(nulls)
    absent = [key for key in defaults if key not in wire]
    if absent:
        bag[ABSENT] = absent
    return bag


def restore_fields(bag: Mapping[str, Any], defaults: Mapping[str, Any] = _NO_DEFAULTS) -> dict[str, Any]:
    """The wire fields a bag stands for; the encoder then writes canonical fields over them."""
    if not bag:
        return dict(defaults)
    absent = as_list(bag.get(ABSENT)) or []
    wire = {key: value for key, value in defaults.items() if key not in absent}
    for key in as_list(bag.get(NULLS)) or []:
        if isinstance(key, str):
            wire[key] = None
    wire.update((key, value) for key, value in bag.items() if not key.startswith("_"))
    return wire


def with_metadata(canonical: dict[str, Any], bag: Mapping[str, Any]) -> dict[str, Any]:
    """``canonical`` with ``provider_metadata`` set to ``{"anthropic": bag}`` when ``bag`` is not empty."""
    if bag:
        canonical["provider_metadata"] = {PROVIDER: dict(bag)}
    return canonical


def bag_for(losses: LossRecorder, metadata: ProviderMetadata | None, at: str) -> dict[str, Any]:
    """This codec's bag on an object being encoded; other providers' bags are reported."""
    if not metadata:
        return {}
    report_foreign_metadata(losses, PROVIDER, metadata, at)
    return own_bag(PROVIDER, metadata)


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
