"""Token counts: ``usage.tokens`` (``input_tokens``, ``output_tokens``) are the canonical
counts, ``cached_tokens`` the canonical cache reads; ``billed_units`` (what the account is
charged, search units and classifications too) rides in the usage's bag."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import as_dict, leftovers, wire_fields
from chatcodec.contract import EncodeContext, Steps
from chatcodec_cohere_chat.markers import DISPLAY, KIT

_COUNTS = {"input_tokens": "input_tokens", "output_tokens": "output_tokens"}


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    tokens = as_dict(wire.get("tokens")) or {}
    usage: dict[str, Any] = {field: tokens[key] for key, field in _COUNTS.items() if key in tokens}
    if "cached_tokens" in wire:
        usage["cache_read_tokens"] = wire["cached_tokens"]
    bag = leftovers(dict(wire), ("tokens", "cached_tokens"))
    extra = leftovers(dict(tokens), tuple(_COUNTS))
    if extra:
        bag["tokens"] = extra
    if "tokens" in wire and not tokens:
        bag["tokens"] = {}
    return KIT.attach(usage, bag)


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    own = KIT.claim(context.losses, usage.get("provider_metadata"), at)
    kept = as_dict(own.pop("tokens", None))
    tokens: dict[str, Any] = dict(kept or {})
    for key, field in _COUNTS.items():
        if usage.get(field) is not None:
            tokens[key] = usage[field]
    wire = wire_fields(own)
    if tokens or kept is not None:
        wire["tokens"] = tokens
    if usage.get("cache_read_tokens") is not None:
        wire["cached_tokens"] = usage["cache_read_tokens"]
    for field in ("cache_write_tokens", "reasoning_tokens"):
        if usage.get(field):
            context.losses.add((*at, field), field, f"{DISPLAY} usage has no {field}", "metadata")
    return wire
