"""``usage_metadata`` <-> canonical usage: ``input_token_details.cache_read`` /
``cache_creation`` are the cache reads and writes, ``output_token_details.reasoning`` the
reasoning tokens; the rest (``total_tokens``, ``audio`` counts) rides in the usage's bag."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.langchain.markers import KIT
from chatcodec.codec_kit import as_dict, leftovers, wire_fields
from chatcodec.contract import EncodeContext, Steps

_DETAILS = (
    ("input_token_details", "cache_read", "cache_read_tokens"),
    ("input_token_details", "cache_creation", "cache_write_tokens"),
    ("output_token_details", "reasoning", "reasoning_tokens"),
)


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    """LangChain's ``usage_metadata`` as canonical usage."""
    usage = {key: wire[key] for key in ("input_tokens", "output_tokens") if isinstance(wire.get(key), int)}
    bag = leftovers(wire, ("input_tokens", "output_tokens", "input_token_details", "output_token_details"))
    for group, key, canonical in _DETAILS:
        details = as_dict(wire.get(group))
        if details is not None and isinstance(details.get(key), int):
            usage[canonical] = details[key]
    for group in ("input_token_details", "output_token_details"):
        details = as_dict(wire.get(group))
        if details is not None:
            bag[group] = {key: value for key, value in details.items() if (group, key) not in _MAPPED_DETAILS}
    return KIT.attach(usage, {key: value for key, value in bag.items() if value != {}})


_MAPPED_DETAILS = frozenset((group, key) for group, key, _ in _DETAILS)


def encode_usage(usage: Any, context: EncodeContext, at: Steps) -> dict[str, Any]:
    """Canonical usage as ``usage_metadata`` (``total_tokens`` the sum when not kept)."""
    bag = KIT.claim(context.losses, usage.get("provider_metadata"), at)
    kept = wire_fields(bag)
    wire: dict[str, Any] = {key: usage.get(key, 0) for key in ("input_tokens", "output_tokens")}
    wire["total_tokens"] = kept.pop("total_tokens", wire["input_tokens"] + wire["output_tokens"])
    for group, key, canonical in _DETAILS:
        if usage.get(canonical) is not None:
            wire.setdefault(group, dict(kept.pop(group, {})))[key] = usage[canonical]
    for group, details in kept.items():
        wire[group] = {**details, **wire.get(group, {})} if isinstance(details, dict) else details
    return wire
