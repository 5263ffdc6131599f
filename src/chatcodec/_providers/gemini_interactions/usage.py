"""The Interaction's ``usage`` <-> canonical usage.

``total_input_tokens`` is the prompt (``input_tokens``), ``total_cached_tokens`` the part
of it read from the cache (``cache_read_tokens``), ``total_thought_tokens`` the thoughts
(``reasoning_tokens``); ``total_output_tokens`` is the answer without the thoughts, as
Gemini's ``candidatesTokenCount`` is, so canonical ``output_tokens`` (everything
generated) is their sum, as the Gemini folder reads it (google-genai 3.6.1 ``Usage``).
``total_tokens``, ``total_tool_use_tokens`` and the per-modality counts stay in the bag.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.gemini_interactions.markers import DISPLAY, KIT
from chatcodec.codec_kit import leftovers, wire_fields
from chatcodec.contract import EncodeContext, Steps

_COUNTS = ("total_input_tokens", "total_output_tokens", "total_cached_tokens", "total_thought_tokens")


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    """The canonical usage of a wire ``usage`` object (other counts in its bag)."""
    canonical: dict[str, Any] = {}
    if "total_input_tokens" in wire:
        canonical["input_tokens"] = wire["total_input_tokens"]
    thoughts = wire.get("total_thought_tokens")
    if "total_output_tokens" in wire:
        canonical["output_tokens"] = wire["total_output_tokens"] + (thoughts or 0)
    if "total_cached_tokens" in wire:
        canonical["cache_read_tokens"] = wire["total_cached_tokens"]
    if thoughts is not None:
        canonical["reasoning_tokens"] = thoughts
    return KIT.attach(canonical, leftovers(wire, _COUNTS))


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """The wire ``usage`` for canonical usage; a count it cannot say is a loss."""
    wire = wire_fields(KIT.claim(context.losses, usage.get("provider_metadata"), at))
    thoughts = usage.get("reasoning_tokens")
    if usage.get("input_tokens") is not None:
        wire["total_input_tokens"] = usage["input_tokens"]
    if usage.get("output_tokens") is not None:
        answer = usage["output_tokens"] - (thoughts or 0)
        if answer < 0:  # the wire's output is the answer without its thoughts: no count says it
            why = "smaller than the reasoning count"
            context.losses.add((*at, "output_tokens"), "output token count", why, "metadata")
            answer = 0
        wire["total_output_tokens"] = answer
    if usage.get("cache_read_tokens") is not None:
        wire["total_cached_tokens"] = usage["cache_read_tokens"]
    if thoughts is not None:
        wire["total_thought_tokens"] = thoughts
    if usage.get("cache_write_tokens"):
        context.losses.add((*at, "cache_write_tokens"), "cache_write_tokens", f"{DISPLAY} reports no such count")
    return wire
