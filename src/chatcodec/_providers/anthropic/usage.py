"""Anthropic usage <-> canonical usage, without counting anything twice.

Anthropic's ``input_tokens`` counts only the uncached part of the prompt (Claude's rule,
shared with Bedrock in :mod:`chatcodec._providers.families.claude.wire_rules`): cache reads
(``cache_read_input_tokens``) and cache writes (``cache_creation_input_tokens``) are
reported beside it, not inside it. Canonical ``input_tokens`` is the whole prompt, so
decoding adds the three and encoding subtracts them back. Libraries that copy
``input_tokens`` straight across under-report cached prompts; libraries that add the
cache counts to an already-inclusive total double count them.

``output_tokens_details.thinking_tokens`` is canonical ``reasoning_tokens``; the rest
(``cache_creation`` with its 5m/1h split, ``server_tool_use``, ``service_tier``,
``inference_geo``, ...) is kept in the usage bag and written back exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.anthropic import wire as shapes
from chatcodec._providers.anthropic.markers import KIT
from chatcodec._providers.families.claude.wire_rules import UsageSpelling, decode_counts, encode_counts
from chatcodec.codec_kit import (
    ABSENT_MARKER,
    as_count,
    as_dict,
    as_list,
    report_invented,
    restore_fields,
    shape_fields,
    split_fields,
)
from chatcodec.contract import EncodeContext, Steps

_INPUT = "input_tokens"
_READ = "cache_read_input_tokens"
_WRITE = "cache_creation_input_tokens"
_OUTPUT = "output_tokens"
_DETAILS = "output_tokens_details"
_THINKING = "thinking_tokens"
_MAPPED = frozenset(shape_fields(shapes.Usage))
"""The fields the usage shape types (``wire.py``), all read here: any other is kept."""
_REQUIRED = (_INPUT, _OUTPUT)
_SPELLING = UsageSpelling(_INPUT, _OUTPUT, _READ, _WRITE)


_ITERATIONS = "iterations"
_COUNTED = ("compaction", "message")
"""The iterations whose tokens are the answer's (an ``advisor_message`` bills at another model's rates)."""
_TOP = "_top_level"
"""Marker: the top-level ``[input_tokens, output_tokens]`` when the counts add the
compaction iterations (:func:`_iteration_extra`), followed by the top-level
``cache_read_input_tokens`` and ``cache_creation_input_tokens`` (``None`` when absent)
when the iterations add cache tokens too."""
_KEYS = (_INPUT, _OUTPUT, _READ, _WRITE)
"""The wire counts the iterations add to, in the order of :func:`_iteration_extra`."""
_CANONICAL = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")
"""The canonical count each of :data:`_KEYS` lands in."""


def _iteration_extra(wire: Mapping[str, Any]) -> tuple[int, int, int, int] | None:
    """The input, output, cache-read and cache-write tokens the iterations hold beyond the
    top-level counts.

    With server-side compaction, "the top-level input_tokens and output_tokens exclude
    compaction iteration usage ... sum across all entries in the usage.iterations array"
    (Anthropic "Compaction", token usage): the compaction step's tokens are billed, so the
    canonical counts are the sums of the ``compaction`` and ``message`` iterations (as the
    Vercel AI SDK's ``convertAnthropicUsage`` counts them). Each iteration carries its own
    ``cache_creation_input_tokens`` and ``cache_read_input_tokens`` (SDK
    ``BetaCompactionIterationUsage``, ``BetaMessageIterationUsage``), summed the same way; a
    cache count an iteration or the top level leaves out is 0. A turn a fallback model served
    (``fallback_message``) has its answer in the top-level counts, which stand."""
    iterations = as_list(wire.get(_ITERATIONS))
    if not iterations:
        return None
    counted = [as_dict(entry) or {} for entry in iterations]
    if any(entry.get("type") == "fallback_message" for entry in counted):
        return None
    counted = [entry for entry in counted if entry.get("type") in _COUNTED]
    top_in, top_out = as_count(wire.get(_INPUT)), as_count(wire.get(_OUTPUT))
    if not counted or top_in is None or top_out is None:
        return None
    sums: list[int] = []
    for key in _KEYS:
        counts = [as_count(entry.get(key)) for entry in counted]
        if key in (_INPUT, _OUTPUT) and None in counts:
            return None
        sums.append(sum(count or 0 for count in counts))
    tops = (top_in, top_out, as_count(wire.get(_READ)) or 0, as_count(wire.get(_WRITE)) or 0)
    extra = (sums[0] - tops[0], sums[1] - tops[1], sums[2] - tops[2], sums[3] - tops[3])
    return None if extra == (0, 0, 0, 0) else extra


def _add_iterations(canonical: dict[str, Any], bag: dict[str, Any], wire: Mapping[str, Any]) -> None:
    """Add the iterations' tokens to the canonical counts (the whole prompt's input holds
    their cache tokens too), marking the top-level counts for the way back."""
    extra = _iteration_extra(wire)
    if extra is None:
        return
    read, write = extra[2], extra[3]
    for key, count in zip(_CANONICAL, (extra[0] + read + write, extra[1], read, write), strict=True):
        if count or key in canonical:
            canonical[key] = canonical.get(key, 0) + count
    top = [wire[_INPUT], wire[_OUTPUT]]
    bag[_TOP] = top if (read, write) == (0, 0) else [*top, wire.get(_READ), wire.get(_WRITE)]


def _take_iterations(usage: Mapping[str, Any], bag: Mapping[str, Any], wire: Mapping[str, Any]) -> Mapping[str, Any]:
    """``usage`` with the iterations' tokens taken back out, as the top level counts them."""
    top = as_list(bag.get(_TOP))
    if top is None or len(top) not in (2, 4):
        return usage
    if len(top) == 2:  # the iterations added no cache tokens: the canonical ones are the top level's
        top = [*top, usage.get("cache_read_tokens"), usage.get("cache_write_tokens")]
    tops = dict(zip(_KEYS, top, strict=True))
    extra = _iteration_extra({**wire, **{key: value for key, value in tops.items() if value is not None}})
    if extra is None:
        return usage
    read, write = extra[2], extra[3]
    taken = dict(usage)
    for key, wire_key, count in zip(_CANONICAL, _KEYS, (extra[0] + read + write, extra[1], read, write), strict=True):
        if count:
            left = (taken.get(key) or 0) - count
            if left == 0 and wire_key in tops and tops[wire_key] is None:
                taken.pop(key, None)  # the top level had no such count
            else:
                taken[key] = left
    return taken


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    """Canonical usage fields (as a dict) for a wire usage object."""
    canonical = decode_counts(wire, _SPELLING)
    bag = split_fields(wire, _MAPPED)
    _add_iterations(canonical, bag, wire)
    absent = [key for key in _REQUIRED if key not in wire]
    if absent:
        bag[ABSENT_MARKER] = absent  # compatible endpoints leave counts out; keep them out
    details = as_dict(wire.get(_DETAILS))
    if details is not None:
        if details.get(_THINKING) is not None:
            canonical["reasoning_tokens"] = details[_THINKING]
        rest = {key: value for key, value in details.items() if key != _THINKING or value is None}
        if rest or _THINKING not in details:
            bag[_DETAILS] = rest
    return KIT.attach(canonical, bag)


def merge_wire_usage(merged: dict[str, Any], update: Mapping[str, Any]) -> None:
    """Fold a ``message_delta`` usage into the counts so far.

    Counts in a ``message_delta`` are totals so far, never increments: a later value
    replaces the earlier one. A field left out (or null) keeps its earlier value, as the
    anthropic SDK's accumulator does.
    """
    for key, value in update.items():
        if value is not None:
            merged[key] = value


def no_usage() -> dict[str, Any]:
    """The wire usage for a response that has none: the SDK requires both counts."""
    return {_INPUT: 0, _OUTPUT: 0}


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """Wire usage for canonical ``usage`` data. The SDK requires both counts, so a missing
    count is written as zero, reported, unless the decoder saw the count absent."""
    losses = context.losses
    bag = KIT.claim(losses, usage.get("provider_metadata"), at)
    wire = restore_fields(bag)
    usage = _take_iterations(usage, bag, wire)  # the counts hold the compaction iterations: the top level does not
    encode_counts(usage, wire, _SPELLING, losses, at)
    reasoning_tokens = usage.get("reasoning_tokens")
    if reasoning_tokens is not None:
        details = as_dict(wire.get(_DETAILS)) or {}
        wire[_DETAILS] = {**details, _THINKING: reasoning_tokens}
    absent = as_list(bag.get(ABSENT_MARKER)) or []
    for key in _REQUIRED:
        if key not in absent and key not in wire:  # read back, a 0 is a count the answer never had
            wire[key] = 0
            report_invented(losses, (*at, key), f"usage.{key}", "an Anthropic Message", 0)
    return wire
