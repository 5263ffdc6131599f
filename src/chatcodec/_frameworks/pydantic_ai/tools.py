"""A request's tool definitions and tool choice: a stored pydantic-ai history holds none
(tools are registered on the agent, not kept in the messages), so each is a loss."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks import unsent
from chatcodec._frameworks.pydantic_ai.markers import DISPLAY
from chatcodec.contract import DecodeContext, EncodeContext


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """A history has no tools to read."""
    del request, canonical, bag, context


def encode_tools(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext) -> None:
    """Each tool field the request sets is reported: a history cannot keep it."""
    del wire, bag
    unsent.report_tools(request, context, DISPLAY)
