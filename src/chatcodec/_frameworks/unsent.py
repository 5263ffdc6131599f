"""What a stored history has no place for, reported the same way by every framework format.

A framework stores the conversation, not the call that produced it: tool definitions and
sampling settings are bound to the agent or the chat model, never kept in the messages. A
request written as a history reports each one it sets (kind ``setting``), and the request
fields a history has no place for (kind ``metadata``), rather than dropping them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.contract import EncodeContext

TOOL_FIELDS = ("tools", "provider_tools", "tool_choice", "parallel_tool_calls")
"""The request's tool fields."""

SETTINGS = (
    *("max_tokens", "temperature", "stop", "top_p", "top_k", "frequency_penalty", "presence_penalty", "seed"),
    *("reasoning", "response_format"),
)
"""The request's sampling, reasoning and output-format settings."""

REQUEST_FIELDS = ("metadata", "cache_control", "user", "service_tier", "stream")
"""The request's other fields a stored history has no place for."""


def report_tools(request: Mapping[str, Any], context: EncodeContext, display: str) -> None:
    """Each tool field the request sets is a loss: the history keeps no tool definitions."""
    for key in TOOL_FIELDS:
        if request.get(key):
            context.losses.add((key,), key, f"{_a(display)} history keeps no tool definitions", "setting")


def report_settings(request: Mapping[str, Any], context: EncodeContext, display: str) -> None:
    """Each setting the request sets is a loss: the history keeps none."""
    for key in SETTINGS:
        if request.get(key) is not None:
            context.losses.add((key,), key, f"{_a(display)} history keeps no {key} setting", "setting")


def report_request_fields(request: Mapping[str, Any], context: EncodeContext, display: str) -> None:
    """Each other request field set is a loss of kind ``metadata``."""
    for key in REQUEST_FIELDS:
        if request.get(key) is not None:
            context.losses.add((key,), key, f"{_a(display)} history keeps no {key}", "metadata")


def _a(display: str) -> str:
    """``display`` with its article: "a LangChain", "an AI SDK"."""
    return f"{'an' if display[:1].lower() in 'aeiou' else 'a'} {display}"
