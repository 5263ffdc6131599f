"""A request's tool definitions and choice: an AI SDK history holds none (tools are given to
``generateText`` / ``streamText`` beside the messages), so each set one is a loss
(:mod:`chatcodec._frameworks.unsent`, as every framework format reports them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks import unsent
from chatcodec.contract import DecodeContext, EncodeContext

DISPLAY = "AI SDK"


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """A history has no tools to read."""
    del request, canonical, bag, context


def encode_tools(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext) -> None:
    """Each tool field the request sets is reported: a history cannot keep it."""
    del wire, bag
    unsent.report_tools(request, context, DISPLAY)
