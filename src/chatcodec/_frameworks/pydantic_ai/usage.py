"""A ``ModelResponse``'s ``usage`` (pydantic-ai's ``RequestUsage``) <-> canonical usage.

``input_tokens`` (cache reads and writes included, as canonical counts them),
``output_tokens``, ``cache_read_tokens``, ``cache_write_tokens`` and ``output_reasoning_tokens``
have canonical homes; the audio counts, ``cache_write_1h_tokens``, ``details`` and ``cost`` ride
in the usage's bag (their zero defaults as spelling).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.pydantic_ai.markers import KIT
from chatcodec.codec_kit import restore_fields, split_fields
from chatcodec.contract import EncodeContext, Steps

_COUNTS = (
    ("input_tokens", "input_tokens"),
    ("output_tokens", "output_tokens"),
    ("cache_read_tokens", "cache_read_tokens"),
    ("cache_write_tokens", "cache_write_tokens"),
    ("output_reasoning_tokens", "reasoning_tokens"),
)
"""pydantic-ai's count -> the canonical one."""

DEFAULTS: Mapping[str, Any] = {
    "cache_write_1h_tokens": 0,
    "input_audio_tokens": 0,
    "cache_audio_read_tokens": 0,
    "output_audio_tokens": 0,
    "audio_seconds": 0.0,
    "details": {},
}
"""``RequestUsage``'s other fields at their defaults."""


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    """pydantic-ai's ``usage`` as canonical usage."""
    usage = {ours: wire[theirs] for theirs, ours in _COUNTS if isinstance(wire.get(theirs), int)}
    return KIT.attach(usage, split_fields(wire, tuple(theirs for theirs, _ in _COUNTS), DEFAULTS))


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """Canonical usage as pydantic-ai's ``usage``."""
    bag = KIT.claim(context.losses, usage.get("provider_metadata"), at)
    wire = restore_fields(bag, DEFAULTS)
    for theirs, ours in _COUNTS:
        if usage.get(ours) is not None:
            wire[theirs] = usage[ours]
    return wire
