"""The request's tool definitions and tool choice.

``decode_tools(request, canonical, bag, context)`` reads the validated wire body into
``canonical`` and keeps what has no canonical field in ``bag``; ``encode_tools(request,
wire, bag, context)`` writes into ``wire``, reading such kept fields back from ``bag``.
The toy wire has no tools: the decoder has nothing to read, and the encoder reports every
tool a canonical request holds, so a conversion never drops one silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.contract import DecodeContext, EncodeContext

_TOOL_FIELDS = ("tools", "provider_tools", "tool_choice", "parallel_tool_calls")
"""The canonical request's tool fields."""


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Read the body's tools into ``canonical`` (this wire has none)."""
    del request, canonical, bag, context


def encode_tools(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext) -> None:
    """Write the request's tools into ``wire``: this wire has none, so each is a loss."""
    del wire, bag
    for key in _TOOL_FIELDS:
        if request.get(key):
            context.losses.add((key,), key, "Template Chat has no tools", "setting")
