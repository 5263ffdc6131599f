"""Token usage both ways.

``input_tokens`` already includes cached tokens (``input_tokens_details.cached_tokens``,
and the newer ``cache_write_tokens``) and ``output_tokens`` includes
``output_tokens_details.reasoning_tokens``: the canonical convention, so counts map one
to one, never added twice. ``total_tokens`` is derived when it is the plain sum and kept
otherwise. ``ResponseUsage`` requires every count and both details objects (the SDK
now requires ``cache_write_tokens`` too), so a count the source did not report is
written as 0 on a usage from another provider, reported
(:mod:`chatcodec._providers.kit.invented`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.openai_responses.markers import KIT
from chatcodec.codec_kit import (
    absent_keys,
    as_count,
    as_dict,
    leftovers,
    mark_absent,
    report_invented,
    unmapped_fields,
    wire_fields,
)
from chatcodec.contract import EncodeContext

_DETAILS = {
    "input_tokens_details": (("cached_tokens", "cache_read_tokens"), ("cache_write_tokens", "cache_write_tokens")),
    "output_tokens_details": (("reasoning_tokens", "reasoning_tokens"),),
}
_REQUIRED_DETAILS = {
    "input_tokens_details": ("cached_tokens", "cache_write_tokens"),
    "output_tokens_details": ("reasoning_tokens",),
}
_COUNTS = (("input_tokens", "input_tokens"), ("output_tokens", "output_tokens"))
_OWNER = "the SDK's ResponseUsage"


def decode_usage(usage: Mapping[str, Any]) -> dict[str, Any]:
    """A wire ``usage`` object as a canonical usage dict."""
    canonical: dict[str, Any] = {}
    mapped: list[str] = []
    for wire_key, key in _COUNTS:
        if as_count(usage.get(wire_key)) is not None:
            canonical[key] = usage[wire_key]
            mapped.append(wire_key)
    if len(mapped) == 2 and usage.get("total_tokens") == canonical["input_tokens"] + canonical["output_tokens"]:
        mapped.append("total_tokens")
    nested: dict[str, Any] = {}
    for details_key, pairs in _DETAILS.items():
        details = as_dict(usage.get(details_key))
        if details is None:
            continue
        mapped.append(details_key)
        taken = [wire_key for wire_key, _ in pairs if as_count(details.get(wire_key)) is not None]
        canonical.update((key, details[wire_key]) for wire_key, key in pairs if wire_key in taken)
        rest = unmapped_fields(details, taken)  # a wire value, written back as it is: not escaped
        if rest or not taken:
            nested[details_key] = rest
        nested.update((f"_no_{key}", True) for key in _REQUIRED_DETAILS[details_key] if key not in details)
    bag = {**leftovers(usage, mapped), **nested}
    mark_absent(bag, usage, "input_tokens", "output_tokens", "total_tokens", *_DETAILS)
    return KIT.attach(canonical, bag)


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: tuple[int | str, ...]) -> dict[str, Any]:
    """The wire ``usage`` object (canonical usage data)."""
    losses = context.losses
    KIT.report_foreign(losses, usage.get("provider_metadata"), at)
    bag = KIT.own(usage.get("provider_metadata"))
    left_out = absent_keys(bag)
    wire = wire_fields(bag)
    for wire_key, key in _COUNTS:
        value = usage.get(key)
        if value is not None:
            wire[wire_key] = value
        elif wire_key not in left_out and wire_key not in wire:
            wire[wire_key] = 0
            report_invented(losses, (*at, key), f"usage.{wire_key}", _OWNER, 0)
    if "total_tokens" not in wire and "total_tokens" not in left_out:
        wire["total_tokens"] = (usage.get("input_tokens") or 0) + (usage.get("output_tokens") or 0)
    for details_key, pairs in _DETAILS.items():
        details = dict(as_dict(bag.get(details_key)) or {})
        details.update((wire_key, usage[key]) for wire_key, key in pairs if usage.get(key) is not None)
        if details_key not in left_out:
            for wire_key, key in pairs:
                if not bag.get(f"_no_{wire_key}") and wire_key not in details:
                    details[wire_key] = 0
                    report_invented(losses, (*at, key), f"usage.{details_key}.{wire_key}", _OWNER, 0)
        if details or details_key not in left_out:
            wire[details_key] = details
    return wire
