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
from chatcodec.contract import (
    ABSENT,
    EncodeContext,
    Steps,
    as_count,
    as_dict,
    as_list,
    report_invented,
    restore_fields,
    shape_fields,
    split_fields,
)

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
compaction iterations (:func:`_iteration_extra`)."""


def _iteration_extra(wire: Mapping[str, Any]) -> tuple[int, int] | None:
    """The input and output tokens the iterations hold beyond the top-level counts.

    With server-side compaction, "the top-level input_tokens and output_tokens exclude
    compaction iteration usage ... sum across all entries in the usage.iterations array"
    (Anthropic "Compaction", token usage): the compaction step's tokens are billed, so the
    canonical counts are the sums of the ``compaction`` and ``message`` iterations (as the
    Vercel AI SDK's ``convertAnthropicUsage`` counts them). A turn a fallback model served
    (``fallback_message``) has its answer in the top-level counts, which stand."""
    iterations = as_list(wire.get(_ITERATIONS))
    if not iterations:
        return None
    counted = [as_dict(entry) or {} for entry in iterations]
    if any(entry.get("type") == "fallback_message" for entry in counted):
        return None
    counted = [entry for entry in counted if entry.get("type") in _COUNTED]
    inputs = [as_count(entry.get(_INPUT)) for entry in counted]
    outputs = [as_count(entry.get(_OUTPUT)) for entry in counted]
    top_in, top_out = as_count(wire.get(_INPUT)), as_count(wire.get(_OUTPUT))
    if not counted or top_in is None or top_out is None:
        return None
    input_counts = [count for count in inputs if count is not None]
    output_counts = [count for count in outputs if count is not None]
    if len(input_counts) < len(counted) or len(output_counts) < len(counted):
        return None
    extra = (sum(input_counts) - top_in, sum(output_counts) - top_out)
    return None if extra == (0, 0) else extra


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    """Canonical usage fields (as a dict) for a wire usage object."""
    canonical = decode_counts(wire, _SPELLING)
    bag = split_fields(wire, _MAPPED)
    extra = _iteration_extra(wire)
    if extra is not None:
        canonical[_INPUT] = canonical.get(_INPUT, 0) + extra[0]
        canonical[_OUTPUT] = canonical.get(_OUTPUT, 0) + extra[1]
        bag[_TOP] = [wire[_INPUT], wire[_OUTPUT]]
    absent = [key for key in _REQUIRED if key not in wire]
    if absent:
        bag[ABSENT] = absent  # compatible endpoints leave counts out; keep them out
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
    top = as_list(bag.get(_TOP))
    extra = _iteration_extra({**wire, _INPUT: top[0], _OUTPUT: top[1]}) if top and len(top) == 2 else None
    if extra is not None:  # the counts hold the compaction iterations: the top level does not
        usage = {**usage, _INPUT: (usage.get(_INPUT) or 0) - extra[0], _OUTPUT: (usage.get(_OUTPUT) or 0) - extra[1]}
    encode_counts(usage, wire, _SPELLING, losses, at)
    reasoning_tokens = usage.get("reasoning_tokens")
    if reasoning_tokens is not None:
        details = as_dict(wire.get(_DETAILS)) or {}
        wire[_DETAILS] = {**details, _THINKING: reasoning_tokens}
    absent = as_list(bag.get(ABSENT)) or []
    for key in _REQUIRED:
        if key not in absent and key not in wire:  # read back, a 0 is a count the answer never had
            wire[key] = 0
            report_invented(losses, (*at, key), f"usage.{key}", "an Anthropic Message", 0)
    return wire
