"""Sampling settings: ``maxTokens``, ``temperature``, ``stopSequences`` and ``metadata``
(the spec's "metadata to pass through to the LLM provider", the canonical ``metadata``).
A canonical setting the wire has no field for is a ``setting`` loss."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.mcp_sampling.markers import DISPLAY
from chatcodec._frameworks.mcp_sampling.rules import DEFAULT_MAX_TOKENS
from chatcodec.contract import DecodeContext, EncodeContext

SETTINGS = {"maxTokens": "max_tokens", "temperature": "temperature", "stopSequences": "stop", "metadata": "metadata"}
"""Wire key -> canonical field."""

_UNSENT = (
    *("top_p", "top_k", "frequency_penalty", "presence_penalty", "seed"),
    *("reasoning", "response_format", "verbosity", "user", "service_tier"),
    *("prompt_cache_key", "safety_identifier"),
)
"""Canonical settings this wire has no field for (``logprobs`` and ``top_logprobs`` are
reported by the codec itself, from the capabilities)."""


def decode_settings(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    del context
    for key, field in SETTINGS.items():
        if key in request:
            bag.pop(key, None)
            canonical[field] = request[key]


def encode_settings(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    del bag
    for key, field in SETTINGS.items():
        value = request.get(field)
        if value is not None:
            wire[key] = [value] if field == "stop" and isinstance(value, str) else value
    if "maxTokens" not in wire:
        wire["maxTokens"] = DEFAULT_MAX_TOKENS
        why = f"{DISPLAY} requires maxTokens and the request has none; sent {DEFAULT_MAX_TOKENS}"
        context.losses.add(("max_tokens",), "max_tokens", why, "default")
    for field in _UNSENT:
        if request.get(field) is not None:
            context.losses.add((field,), field, f"{DISPLAY} has no {field} setting", "setting")
