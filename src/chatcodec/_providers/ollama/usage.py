"""Token counts both ways, and the timings that come with them.

The last object of an answer carries ``api.Metrics``: ``prompt_eval_count`` (the prompt's
tokens; a prompt served from the server's cache counts only what was evaluated) and
``eval_count`` (every generated token, thinking included), which are the canonical input
and output tokens, and four durations in nanoseconds (``total_duration``,
``load_duration``, ``prompt_eval_duration``, ``eval_duration``), which ride in the
usage's bag. The server leaves a zero count out (``omitempty``). Ollama reports no cache
or reasoning counts: such counts from another provider are reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.ollama.markers import KIT
from chatcodec.codec_kit import wire_fields
from chatcodec.contract import EncodeContext

COUNTS = (("prompt_eval_count", "input_tokens"), ("eval_count", "output_tokens"))
"""Wire count -> canonical count."""

DURATIONS = ("total_duration", "load_duration", "prompt_eval_duration", "eval_duration")
"""The timings kept in the usage's bag."""

FIELDS = (*(wire for wire, _ in COUNTS), *DURATIONS)
"""Every top-level field the usage is made of."""


def has_usage(wire: Mapping[str, Any]) -> bool:
    """Whether a response (or stream line) carries any count or timing."""
    return any(key in wire for key in FIELDS)


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    """The canonical usage dict of a response body (or the last line of a stream)."""
    canonical = {key: wire[wire_key] for wire_key, key in COUNTS if wire.get(wire_key) is not None}
    bag = {key: wire[key] for key in (*DURATIONS, *(wire_key for wire_key, _ in COUNTS)) if key in wire}
    for wire_key, key in COUNTS:
        if key in canonical:
            del bag[wire_key]
    return KIT.attach(canonical, bag)


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: tuple[int | str, ...]) -> dict[str, Any]:
    """The top-level count and timing fields for canonical usage."""
    losses = context.losses
    KIT.report_foreign(losses, usage.get("provider_metadata"), at)
    wire = wire_fields(KIT.own(usage.get("provider_metadata")))
    for wire_key, key in COUNTS:
        if usage.get(key) is not None:
            wire[wire_key] = usage[key]
    for key in ("cache_read_tokens", "cache_write_tokens", "reasoning_tokens"):
        if usage.get(key):  # a count of 0 says nothing: no loss
            losses.add((*at, key), key, "Ollama reports no such count", "metadata")
    return wire
