"""The AI SDK's ``LanguageModelUsage`` <-> canonical usage.

``inputTokens`` / ``outputTokens`` are the counts, ``inputTokenDetails.cacheReadTokens`` /
``cacheWriteTokens`` the cache reads and writes and ``outputTokenDetails.reasoningTokens``
(or the older top-level ``reasoningTokens`` / ``cachedInputTokens``) the reasoning tokens and
cache reads. The rest (``totalTokens``, ``noCacheTokens``, ``textTokens``) follows from them and
is written back computed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.contract import EncodeContext, Steps, as_dict

_DETAILS = (
    ("inputTokenDetails", "cacheReadTokens", "cache_read_tokens"),
    ("inputTokenDetails", "cacheWriteTokens", "cache_write_tokens"),
    ("outputTokenDetails", "reasoningTokens", "reasoning_tokens"),
)
_COUNTS = (("inputTokens", "input_tokens"), ("outputTokens", "output_tokens"))
_FLAT = (("cachedInputTokens", "cache_read_tokens"), ("reasoningTokens", "reasoning_tokens"))


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    """The AI SDK's usage as canonical usage."""
    usage = {canonical: wire[key] for key, canonical in _COUNTS if isinstance(wire.get(key), int)}
    for key, canonical in _FLAT:
        if isinstance(wire.get(key), int):
            usage[canonical] = wire[key]
    for group, key, canonical in _DETAILS:
        value = (as_dict(wire.get(group)) or {}).get(key)
        if isinstance(value, int):
            usage[canonical] = value
    return usage


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """Canonical usage as the AI SDK's (the totals and details computed)."""
    del context, at
    read, write = usage.get("cache_read_tokens"), usage.get("cache_write_tokens")
    reasoning = usage.get("reasoning_tokens")
    wire: dict[str, Any] = {key: usage.get(canonical) for key, canonical in _COUNTS}
    if wire["inputTokens"] is not None and wire["outputTokens"] is not None:
        wire["totalTokens"] = wire["inputTokens"] + wire["outputTokens"]
    details = (("inputTokenDetails", {"cacheReadTokens": read, "cacheWriteTokens": write}),)
    for group, counts in (*details, ("outputTokenDetails", {"reasoningTokens": reasoning})):
        kept = {key: value for key, value in counts.items() if value is not None}
        if kept:
            wire[group] = kept
    return {key: value for key, value in wire.items() if value is not None}
