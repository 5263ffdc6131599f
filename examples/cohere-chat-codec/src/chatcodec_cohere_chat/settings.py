"""Sampling settings: ``max_tokens``, ``stop_sequences``, ``temperature``, ``seed``,
``frequency_penalty``, ``presence_penalty``, ``k`` (top-k) and ``p`` (top-p). A canonical
setting the wire has no field for is a ``setting`` loss; the wire's own (``thinking``,
``response_format``, ``safety_mode``...) ride in the request's bag."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.contract import DecodeContext, EncodeContext
from chatcodec_cohere_chat.markers import DISPLAY

SETTINGS = {
    "max_tokens": "max_tokens",
    "stop_sequences": "stop",
    "temperature": "temperature",
    "seed": "seed",
    "frequency_penalty": "frequency_penalty",
    "presence_penalty": "presence_penalty",
    "k": "top_k",
    "p": "top_p",
}
"""Wire key -> canonical field."""

_UNSENT = ("reasoning", "response_format", "verbosity", "user", "service_tier", "metadata")
"""Canonical settings this wire has no field for in their canonical shape (``logprobs`` and
``top_logprobs`` are reported by the codec itself, from the capabilities)."""


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
        if value is not None and (field != "stop" or value):
            wire[key] = [value] if field == "stop" and isinstance(value, str) else value
    for field in _UNSENT:
        if request.get(field) is not None:
            context.losses.add((field,), field, f"{DISPLAY} has no {field} setting", "setting")
