"""Sampling, reasoning and output settings: an AI SDK history holds none (they are
``generateText``'s call settings), so each set one is a loss of kind ``setting``; so are the
request fields a stored history has no place for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.contract import DecodeContext, EncodeContext

_SETTINGS = (
    *("max_tokens", "temperature", "stop", "top_p", "top_k", "frequency_penalty", "presence_penalty", "seed"),
    *("reasoning", "response_format", "logprobs", "top_logprobs"),
)
_UNSENT = ("metadata", "cache_control", "user", "service_tier", "stream")


def decode_settings(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """A history has no settings to read."""
    del request, canonical, bag, context


def encode_settings(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    """Each setting and request field the request sets is reported: a history cannot keep it."""
    del wire, bag
    for key in _SETTINGS:
        if request.get(key) is not None:
            context.losses.add((key,), key, f"an AI SDK history keeps no {key} setting", "setting")
    for key in _UNSENT:
        if request.get(key) is not None:
            context.losses.add((key,), key, f"an AI SDK history keeps no {key}", "metadata")
