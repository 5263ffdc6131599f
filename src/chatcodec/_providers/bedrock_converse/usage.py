"""Bedrock ``TokenUsage`` <-> canonical usage, without counting anything twice.

Bedrock's ``inputTokens`` counts only the uncached part of the prompt (Claude's rule, as
Anthropic's does: shared in :mod:`chatcodec._providers.families.claude.wire_rules`): cache reads
(``cacheReadInputTokens``) and writes (``cacheWriteInputTokens``) are reported beside
it, and ``totalTokens`` is all four together (recorded: 3 + 1712 + 236 + 121 = 2072).
Canonical ``input_tokens`` is the whole prompt, so decoding adds the cache counts and
encoding subtracts them; ``totalTokens`` is written as canonical input plus output, and
kept in the bag only when the wire said something else.

Live responses also carry the legacy twins ``cacheReadInputTokenCount`` /
``cacheWriteInputTokenCount`` (same values; not in botocore's model): a twin equal to its
count is a ``_count_twins`` marker, one that differs rides in the bag. ``cacheDetails``
(the TTL split) and ``serverToolUsage`` ride in the bag too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.bedrock_converse import wire as shapes
from chatcodec._providers.bedrock_converse.markers import KIT
from chatcodec._providers.families.claude.wire_rules import UsageSpelling, decode_counts, encode_counts
from chatcodec.codec_kit import (
    ABSENT_MARKER,
    absent_keys,
    as_list,
    report_invented_counts,
    restore_fields,
    shape_fields,
    split_fields,
)
from chatcodec.contract import EncodeContext, Steps

_INPUT, _OUTPUT, _TOTAL = "inputTokens", "outputTokens", "totalTokens"
_READ, _WRITE = "cacheReadInputTokens", "cacheWriteInputTokens"
_TWINS = {"cacheReadInputTokenCount": _READ, "cacheWriteInputTokenCount": _WRITE}
_REQUIRED = (_INPUT, _OUTPUT, _TOTAL)
_MAPPED = frozenset(shape_fields(shapes.Usage))
"""The counts the usage shape types (``wire.py``), all read here: any other is kept."""
_SPELLING = UsageSpelling(_INPUT, _OUTPUT, _READ, _WRITE)
_COUNTS = (("input_tokens", _INPUT), ("output_tokens", _OUTPUT))
"""The required counts with a canonical field (``totalTokens`` is their sum, written above)."""
_OWNER = "botocore's TokenUsage"


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    """Canonical usage fields (as a dict) for a wire usage object."""
    canonical = decode_counts(wire, _SPELLING)
    twins = [twin for twin, count in _TWINS.items() if twin in wire and wire[twin] == wire.get(count)]
    bag = split_fields({key: value for key, value in wire.items() if key not in twins}, _MAPPED)
    if _TOTAL in wire and wire[_TOTAL] != canonical.get("input_tokens", 0) + canonical.get("output_tokens", 0):
        bag[_TOTAL] = wire[_TOTAL]
    absent = [key for key in _REQUIRED if key not in wire]
    if absent:
        bag[ABSENT_MARKER] = absent
    if twins:
        bag["_count_twins"] = twins
    return KIT.attach(canonical, bag)


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """Wire usage for canonical usage data; botocore requires the three counts, so a missing
    one is written as zero unless the decoder saw it absent."""
    losses = context.losses
    bag = KIT.claim(losses, usage.get("provider_metadata"), at)
    wire = restore_fields(bag)
    encode_counts(usage, wire, _SPELLING, losses, at)
    absent = absent_keys(bag)
    if _TOTAL not in wire and _TOTAL not in absent:
        wire[_TOTAL] = (usage.get("input_tokens") or 0) + (usage.get("output_tokens") or 0)
    for twin in as_list(bag.get("_count_twins")) or ():  # a caller's bag may hold anything
        if isinstance(twin, str) and twin in _TWINS and _TWINS[twin] in wire:
            wire[twin] = wire[_TWINS[twin]]
    if usage.get("reasoning_tokens"):  # a count of 0 says nothing: no loss
        losses.add((*at, "reasoning_tokens"), "reasoning token count", "Bedrock usage has no such count", "metadata")
    filled = [(key, wire_key) for key, wire_key in _COUNTS if wire_key not in absent and wire_key not in wire]
    if filled:  # read back, a 0 is a count the answer never had
        report_invented_counts(losses, at, ((key, f"usage.{wire_key}") for key, wire_key in filled), _OWNER)
        wire.update(dict.fromkeys((wire_key for _, wire_key in filled), 0))
    return wire
