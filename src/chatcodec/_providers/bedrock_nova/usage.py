"""Nova's ``usage`` <-> canonical usage, without counting anything twice.

Nova reports ``inputTokens`` (the prompt outside the cache), ``outputTokens``,
``totalTokens``, and with prompt caching ``cacheReadInputTokenCount`` and
``cacheWriteInputTokenCount`` beside the input
(https://docs.aws.amazon.com/nova/latest/userguide/prompt-caching.html), as every Bedrock
Runtime usage counts them. Canonical ``input_tokens`` is the whole prompt, so decoding adds
the cache counts and encoding subtracts them; ``totalTokens`` is written as input plus
output, and kept in the bag only when the wire said something else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.bedrock_nova.markers import KIT
from chatcodec.codec_kit import ABSENT_MARKER, absent_keys, report_invented_counts, restore_fields, split_fields
from chatcodec.contract import EncodeContext, Steps

_INPUT, _OUTPUT, _TOTAL = "inputTokens", "outputTokens", "totalTokens"
_READ, _WRITE = "cacheReadInputTokenCount", "cacheWriteInputTokenCount"
_MAPPED = (_INPUT, _OUTPUT, _TOTAL, _READ, _WRITE)
_REQUIRED = (_INPUT, _OUTPUT, _TOTAL)


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    """Canonical usage data for a wire ``usage`` object."""
    canonical: dict[str, Any] = {}
    read, write = wire.get(_READ), wire.get(_WRITE)
    if wire.get(_INPUT) is not None:
        canonical["input_tokens"] = wire[_INPUT] + (read or 0) + (write or 0)
    if wire.get(_OUTPUT) is not None:
        canonical["output_tokens"] = wire[_OUTPUT]
    if read is not None:
        canonical["cache_read_tokens"] = read
    if write is not None:
        canonical["cache_write_tokens"] = write
    bag = split_fields(dict(wire), _MAPPED)
    if _TOTAL in wire and wire[_TOTAL] != canonical.get("input_tokens", 0) + canonical.get("output_tokens", 0):
        bag[_TOTAL] = wire[_TOTAL]
    absent = [key for key in _REQUIRED if key not in wire]
    if absent:
        bag[ABSENT_MARKER] = absent
    return KIT.attach(canonical, bag)


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """Wire usage for canonical usage data (the three counts written as 0 when unknown,
    unless the reader saw them absent)."""
    losses = context.losses
    bag = KIT.claim(losses, usage.get("provider_metadata"), at)
    wire = restore_fields(bag)
    read, write = usage.get("cache_read_tokens"), usage.get("cache_write_tokens")
    if usage.get("input_tokens") is not None:
        uncached = usage["input_tokens"] - (read or 0) - (write or 0)
        if uncached < 0:
            why = "the cache counts exceed the input count: input sent as 0"
            losses.add((*at, "input_tokens"), "input token count", why, "metadata")
        wire[_INPUT] = max(uncached, 0)
    for key, wire_key in (("output_tokens", _OUTPUT), ("cache_read_tokens", _READ), ("cache_write_tokens", _WRITE)):
        if usage.get(key) is not None:
            wire[wire_key] = usage[key]
    absent = absent_keys(bag)
    if _TOTAL not in wire and _TOTAL not in absent:
        wire[_TOTAL] = (usage.get("input_tokens") or 0) + (usage.get("output_tokens") or 0)
    if usage.get("reasoning_tokens"):  # a count of 0 says nothing: no loss
        losses.add((*at, "reasoning_tokens"), "reasoning token count", "Nova usage has no such count", "metadata")
    filled = [
        (key, wire_key)
        for key, wire_key in (("input_tokens", _INPUT), ("output_tokens", _OUTPUT))
        if wire_key not in absent and wire_key not in wire
    ]
    if filled:  # read back, a 0 is a count the answer never had
        report_invented_counts(losses, at, ((key, f"usage.{wire_key}") for key, wire_key in filled), "Nova's usage")
        wire.update(dict.fromkeys((wire_key for _, wire_key in filled), 0))
    return {key: wire[key] for key in (*_MAPPED, *wire) if key in wire}
