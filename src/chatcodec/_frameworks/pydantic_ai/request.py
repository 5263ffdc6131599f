"""A history as a request: ``{"messages": [...]}``, the list ``ModelMessagesTypeAdapter``
dumps under ``messages`` (as a LangGraph state holds LangChain's) <-> a canonical request.

A stored history holds messages only: the request's tools, settings and model parameters
belong to the agent, so writing one reports each (:mod:`chatcodec._frameworks.unsent`).
``decode_message_list`` reads the bare list itself (what ``dump_json`` wrote).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks import unsent
from chatcodec._frameworks.pydantic_ai.capabilities import CAPABILITIES
from chatcodec._frameworks.pydantic_ai.markers import DISPLAY, KIT, PROVIDER
from chatcodec._frameworks.pydantic_ai.messages import decode_messages, encode_messages
from chatcodec._frameworks.pydantic_ai.wire import validated_history
from chatcodec.contract import DecodeContext, EncodeContext, history_for


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a stored history as a canonical request dict."""
    history = validated_history(payload, "pydantic-ai history")
    canonical: dict[str, Any] = {"messages": decode_messages(history["messages"], context)}
    if "model" in history:
        canonical["model"] = history["model"]
    return canonical


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare stored list (``ModelMessagesTypeAdapter``'s) as canonical message dicts."""
    return decode_messages(validated_history({"messages": messages}, "pydantic-ai history")["messages"], context)


def encode_request(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical request as a stored history; what a history cannot hold is a loss."""
    KIT.claim(context.losses, request.get("provider_options"), ("provider_options",))
    messages = history_for(request.get("messages") or [], context.losses, PROVIDER, CAPABILITIES)
    wire: dict[str, Any] = {"messages": encode_messages(messages, 0, context)}
    if request.get("model") is not None:
        wire["model"] = request["model"]
    unsent.report_tools(request, context, DISPLAY)
    unsent.report_settings(request, context, DISPLAY)
    unsent.report_request_fields(request, context, DISPLAY)
    return wire
