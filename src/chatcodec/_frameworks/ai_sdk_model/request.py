"""A history as a request: ``{"messages": ModelMessage[]}`` (what ``generateText`` /
``streamText`` take) <-> a canonical request.

A stored history holds messages only: the request's tools and settings have no place in it,
so writing one reports each (:mod:`..ai_sdk.tools`, :mod:`..ai_sdk.settings`).
``decode_message_list`` reads a bare ``ModelMessage[]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ai_sdk import settings, tools
from chatcodec._frameworks.ai_sdk_model.capabilities import CAPABILITIES
from chatcodec._frameworks.ai_sdk_model.markers import KIT, PROVIDER
from chatcodec._frameworks.ai_sdk_model.messages import decode_messages, encode_messages
from chatcodec._frameworks.ai_sdk_model.wire import validated_history
from chatcodec.contract import DecodeContext, EncodeContext, history_for

TITLE = "AI SDK ModelMessage history"


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a stored history as a canonical request dict."""
    history = validated_history(payload, TITLE)
    canonical: dict[str, Any] = {"messages": decode_messages(history["messages"], context)}
    if "model" in history:
        canonical["model"] = history["model"]
    return canonical


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare ``ModelMessage[]`` as canonical message dicts."""
    return decode_messages(validated_history({"messages": messages}, TITLE)["messages"], context)


def encode_request(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical request as a stored history; what a history cannot hold is a loss."""
    KIT.claim(context.losses, request.get("provider_options"), ("provider_options",))
    messages = history_for(request.get("messages") or [], context.losses, PROVIDER, CAPABILITIES)
    wire: dict[str, Any] = {"messages": encode_messages(messages, 0, context)}
    if request.get("model") is not None:
        wire["model"] = request["model"]
    tools.encode_tools(request, wire, {}, context)
    settings.encode_settings(request, wire, {}, context)
    return wire
