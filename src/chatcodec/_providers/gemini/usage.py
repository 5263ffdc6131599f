"""``usageMetadata`` <-> canonical usage, without counting anything twice.

Gemini counts (``totalTokenCount`` = prompt + tool-use prompt + candidates + thoughts):

* ``promptTokenCount`` is the whole prompt, *including* ``cachedContentTokenCount``;
* ``toolUsePromptTokenCount`` (results of built-in tools fed back to the model) is input
  counted *beside* the prompt;
* ``candidatesTokenCount`` is the answer *without* ``thoughtsTokenCount``.

Canonical ``input_tokens`` is everything read (prompt + tool-use prompt; cache reads are
part of it, not added again), ``output_tokens`` everything generated (candidates +
thoughts), ``reasoning_tokens`` the thoughts, ``cache_read_tokens`` the cached content.
Encoding subtracts them back. The per-modality details, ``trafficType``,
``serviceTier`` and the tool-use count itself ride in the bag; ``totalTokenCount`` is
recomputed, and kept in the bag only when the wire's value disagrees.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.gemini.markers import KIT
from chatcodec.codec_kit import ABSENT_MARKER, absent_keys, leftovers, restore_fields
from chatcodec.contract import EncodeContext, Steps

_PROMPT = "promptTokenCount"
_TOOL_USE = "toolUsePromptTokenCount"
_CANDIDATES = "candidatesTokenCount"
_THOUGHTS = "thoughtsTokenCount"
_CACHED = "cachedContentTokenCount"
_TOTAL = "totalTokenCount"
_MAPPED = frozenset({_PROMPT, _CANDIDATES, _THOUGHTS, _CACHED, _TOTAL})


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    """Canonical usage fields (as a dict) for a wire ``usageMetadata``."""
    canonical: dict[str, Any] = {}
    tool_use = wire.get(_TOOL_USE) or 0
    if _PROMPT in wire:
        canonical["input_tokens"] = wire[_PROMPT] + tool_use
    if _CANDIDATES in wire or _THOUGHTS in wire:
        canonical["output_tokens"] = wire.get(_CANDIDATES, 0) + wire.get(_THOUGHTS, 0)
    if _THOUGHTS in wire:
        canonical["reasoning_tokens"] = wire[_THOUGHTS]
    if _CACHED in wire:
        canonical["cache_read_tokens"] = wire[_CACHED]
    bag = leftovers(wire, _MAPPED)  # the kit escapes wire keys starting with "_" (not markers)
    absent = [key for key in (_CANDIDATES, _TOTAL) if key not in wire]
    if absent:
        bag[ABSENT_MARKER] = absent
    if _TOTAL in wire and wire[_TOTAL] != wire.get(_PROMPT, 0) + tool_use + canonical.get("output_tokens", 0):
        bag[_TOTAL] = wire[_TOTAL]
    return KIT.attach(canonical, bag)


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """Wire ``usageMetadata`` for canonical usage data."""
    losses = context.losses
    bag = KIT.claim(losses, usage.get("provider_metadata"), at)
    absent = absent_keys(bag)
    wire = restore_fields(bag)
    tool_use = wire.get(_TOOL_USE) or 0
    input_tokens: int | None = usage.get("input_tokens")
    if input_tokens is not None:
        prompt = input_tokens - tool_use if isinstance(tool_use, int) else input_tokens
        if prompt < 0:
            losses.add((*at, "input_tokens"), "input token count", "smaller than the tool-use prompt count", "metadata")
            prompt = 0
        wire[_PROMPT] = prompt
    reasoning: int | None = usage.get("reasoning_tokens")
    output: int | None = usage.get("output_tokens")
    if output is not None:
        candidates = output - (reasoning or 0)
        if candidates < 0:
            losses.add((*at, "output_tokens"), "output token count", "smaller than the reasoning count", "metadata")
            candidates = 0
        if candidates or _CANDIDATES not in absent:
            wire[_CANDIDATES] = candidates
    if reasoning is not None:
        wire[_THOUGHTS] = reasoning
    if usage.get("cache_read_tokens") is not None:
        wire[_CACHED] = usage["cache_read_tokens"]
    if usage.get("cache_write_tokens"):
        losses.add((*at, "cache_write_tokens"), "cache write count", "Gemini reports no cache writes", "metadata")
    known = input_tokens is not None or output is not None
    if _TOTAL not in wire and _TOTAL not in absent and known:
        wire[_TOTAL] = (input_tokens or 0) + (output or 0)
    return wire
