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

from chatcodec.codec_kit import Problem, as_dict, problems_error
from chatcodec.contract import EncodeContext, Steps

_DETAILS = (
    ("inputTokenDetails", "cacheReadTokens", "cache_read_tokens"),
    ("inputTokenDetails", "cacheWriteTokens", "cache_write_tokens"),
    ("outputTokenDetails", "reasoningTokens", "reasoning_tokens"),
)
_COUNTS = (("inputTokens", "input_tokens"), ("outputTokens", "output_tokens"))
_FLAT = (("cachedInputTokens", "cache_read_tokens"), ("reasoningTokens", "reasoning_tokens"))


def refuse_bad_counts(wire: Mapping[str, Any], title: str, at: Steps) -> None:
    """Refuse, at its place (``at`` is the usage's), each count :func:`decode_usage` reads that
    is not a whole number of 0 or more: ``LanguageModelUsage``'s counts are numbers of tokens,
    and a negative or fractional one would reach canonical usage, whose model refuses it at a
    place the input does not have (a string one would be dropped without a word)."""
    places: list[tuple[tuple[str, ...], object]] = [((key,), wire.get(key)) for key, _ in (*_COUNTS, *_FLAT)]
    places += [((group, key), (as_dict(wire.get(group)) or {}).get(key)) for group, key, _ in _DETAILS]
    problems = [
        Problem((*at, *steps), "token_count", "a token count is a whole number, 0 or more", value)
        for steps, value in places
        if value is not None and (type(value) is not int or value < 0)
    ]
    if problems:
        raise problems_error(title, problems)


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
