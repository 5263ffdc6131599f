"""Sampling, reasoning and output-format settings, the same shape as ``tools.py``.

A setting the wire spells as the canonical request does is read and written here; one it
cannot carry is a loss of kind ``setting`` (the caller's ``on_loss`` decides), never a
field dropped unasked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.contract import DecodeContext, EncodeContext

SAMPLING = ("max_tokens", "temperature")
"""The settings this wire spells as the canonical request does."""

_UNSENT = (
    *("stop", "top_p", "top_k", "frequency_penalty", "presence_penalty", "seed"),
    *("reasoning", "response_format", "verbosity", "prompt_cache_key", "safety_identifier"),
)
"""The canonical settings this wire has no field for (``logprobs`` and ``top_logprobs``
too, reported by the codec itself from ``Capabilities.logprob_settings``)."""


def decode_settings(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Read the body's settings into ``canonical``."""
    del bag, context
    canonical.update({key: request[key] for key in SAMPLING if key in request})


def encode_settings(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    """Write the request's settings into ``wire``; one the wire has no field for is a loss."""
    del bag
    wire.update({key: request[key] for key in SAMPLING if request.get(key) is not None})
    for key in _UNSENT:
        if request.get(key) is not None:
            context.losses.add((key,), key, f"Template Chat has no {key} setting", "setting")
