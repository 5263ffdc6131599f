"""Token usage both ways.

``prompt_tokens`` already includes cached tokens (``prompt_tokens_details.cached_tokens``)
and ``completion_tokens`` includes reasoning tokens, which is the canonical convention, so
counts map one to one. ``total_tokens`` is derived when it is the plain sum, and kept
otherwise. Other details (audio, image, prediction tokens, OpenRouter ``cost``, DeepSeek
``prompt_cache_hit_tokens``) stay in the usage's metadata bag, except a details object whose
other counts are all 0 (OpenAI writes ``audio_tokens: 0``, ``accepted_prediction_tokens: 0``
on every answer): it says nothing, so it rides in the ``_zero_details`` marker, written back
here and dropped by another format without a report, as a ``null`` details object is
(vLLM's ``prompt_tokens_details: null``: :mod:`.null_spelling`). The SDK requires the three
top-level counts, so a count the source did not report is written as 0, reported
(:mod:`chatcodec._providers.kit.invented`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._providers.openai_chat.markers import KIT
from chatcodec._providers.openai_chat.null_spelling import documented_nulls, message_fields
from chatcodec.codec_kit import (
    absent_keys,
    as_dict,
    leftovers,
    mark_absent,
    report_invented,
    unmapped_fields,
)

if TYPE_CHECKING:
    from chatcodec.contract import EncodeContext

_DETAILS = {
    "prompt_tokens_details": (("cached_tokens", "cache_read_tokens"), ("cache_write_tokens", "cache_write_tokens")),
    "completion_tokens_details": (("reasoning_tokens", "reasoning_tokens"),),
}
_COUNTS = (("prompt_tokens", "input_tokens"), ("completion_tokens", "output_tokens"))
_ZERO_DETAILS = "_zero_details"
"""The marker holding details objects whose other counts are all 0 (pure spelling)."""


def _all_zero(details: Mapping[str, Any]) -> bool:
    """Whether a details object's counts (the ones no canonical count took) say nothing:
    each is the integer 0 (an empty object too: ``"prompt_tokens_details": {}``)."""
    return all(type(value) is int and value == 0 for value in details.values())


def decode_usage(usage: Mapping[str, Any]) -> dict[str, Any]:
    """A wire ``usage`` object as a canonical usage dict."""
    canonical: dict[str, Any] = {}
    mapped: list[str] = []
    for wire_key, key in _COUNTS:
        if isinstance(usage.get(wire_key), int):
            canonical[key] = usage[wire_key]
            mapped.append(wire_key)
    if len(mapped) == 2 and usage.get("total_tokens") == canonical["input_tokens"] + canonical["output_tokens"]:
        mapped.append("total_tokens")
    nested: dict[str, Any] = {}
    zero: dict[str, Any] = {}
    for details_key, pairs in _DETAILS.items():
        details = as_dict(usage.get(details_key))
        if details is None:
            continue
        mapped.append(details_key)
        taken = [wire_key for wire_key, _ in pairs if isinstance(details.get(wire_key), int)]
        canonical.update((key, details[wire_key]) for wire_key, key in pairs if wire_key in taken)
        details_rest = unmapped_fields(details, taken)
        if taken and not details_rest:
            continue
        if _all_zero(details_rest):
            zero[details_key] = details_rest
        else:
            nested[details_key] = details_rest
    bag = {**documented_nulls(leftovers(usage, mapped), "CompletionUsage"), **nested}
    if zero:
        bag[_ZERO_DETAILS] = zero
    mark_absent(bag, usage, "prompt_tokens", "completion_tokens", "total_tokens")
    return KIT.attach(canonical, bag)


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: tuple[int | str, ...]) -> dict[str, Any]:
    """The wire ``usage`` object for canonical usage data."""
    losses = context.losses
    metadata = usage.get("provider_metadata")
    KIT.report_foreign(losses, metadata, at)
    bag = KIT.own(metadata)
    left_out = absent_keys(bag)
    wire = message_fields(bag)
    for wire_key, key in _COUNTS:
        value = usage.get(key)
        if value is not None:
            wire[wire_key] = value
        elif wire_key not in left_out and wire_key not in wire:  # a null kept in the bag stays null
            wire[wire_key] = 0
            report_invented(losses, (*at, key), f"usage.{wire_key}", "OpenAI's CompletionUsage", 0)
    if "total_tokens" not in wire and "total_tokens" not in left_out:
        wire["total_tokens"] = (usage.get("input_tokens") or 0) + (usage.get("output_tokens") or 0)
    zero = as_dict(bag.get(_ZERO_DETAILS)) or {}
    for details_key, pairs in _DETAILS.items():
        details = bag.get(details_key, zero.get(details_key))
        counted = {wire_key: usage[key] for wire_key, key in pairs if usage.get(key) is not None}
        if counted or isinstance(details, dict):
            wire[details_key] = {**(details if isinstance(details, dict) else {}), **counted}
    return wire


_CANONICAL_COUNTS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens")


def merged_usage(held: Mapping[str, Any], later: Mapping[str, Any]) -> dict[str, Any]:
    """Two usage records' canonical usage of one stream as one (the later's counts win,
    provider bags merged per provider), in ``Usage``'s field order: the chunk encoder holds
    usage to the last chunk, as OpenAI sends it. Both were checked on their records."""
    fields = {key: value for key, value in {**held, **later}.items() if value is not None}
    merged = {key: fields[key] for key in _CANONICAL_COUNTS if key in fields}
    metadata = {**(as_dict(held.get("provider_metadata")) or {})}
    for provider, bag in (as_dict(later.get("provider_metadata")) or {}).items():
        metadata[provider] = {**metadata.get(provider, {}), **bag}
    if metadata:
        merged["provider_metadata"] = metadata
    return merged
