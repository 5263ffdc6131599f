"""A history as a request: ``{"messages": [...]}`` (a LangGraph state's messages channel) <->
a canonical request.

A stored history holds messages only: the request's tools, settings and model have no
place in it, so writing one reports each (``tools.py``, ``settings.py``) rather than
dropping it. ``decode_message_list`` reads the bare list ``messages_to_dict`` returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks import unsent
from chatcodec._frameworks.langchain import settings, tools
from chatcodec._frameworks.langchain.capabilities import CAPABILITIES
from chatcodec._frameworks.langchain.markers import KIT, PROVIDER
from chatcodec._frameworks.langchain.messages import decode_messages, encode_messages
from chatcodec._frameworks.langchain.wire import validated_history
from chatcodec.contract import DecodeContext, EncodeContext, history_for


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a stored history as a canonical request dict."""
    history = validated_history(payload, "LangChain history")
    canonical: dict[str, Any] = {"messages": decode_messages(history["messages"], context)}
    if "model" in history:
        canonical["model"] = history["model"]
    return canonical


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare stored list (``messages_to_dict``'s) as canonical message dicts."""
    return decode_messages(validated_history({"messages": messages}, "LangChain history")["messages"], context)


def encode_request(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical request as a stored history; what a history cannot hold is a loss."""
    losses = context.losses
    KIT.claim(losses, request.get("provider_options"), ("provider_options",))
    messages = history_for(request.get("messages") or [], losses, PROVIDER, CAPABILITIES)
    wire: dict[str, Any] = {"messages": encode_messages(messages, 0, context)}
    if request.get("model") is not None:
        wire["model"] = request["model"]
    tools.encode_tools(request, wire, {}, context)
    settings.encode_settings(request, wire, {}, context)
    unsent.report_request_fields(request, context, tools.DISPLAY)
    return wire
