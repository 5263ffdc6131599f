"""The one reader and the one writer of a ``POST /v2/chat`` body, over canonical data.

``model``, the messages, tools and sampling settings map to their canonical fields; the
wire's own fields (``documents``, ``citation_options``, ``safety_mode``, ``strict_tools``,
``thinking``, ``response_format``, ``logprobs``, ``priority``) have no canonical field in
this shape and ride in ``provider_options["cohere-chat"]``, written back here and reported by
any other format."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import history_for, leftovers, shape_fields, validate_shape, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext
from chatcodec_cohere_chat.capabilities import CAPABILITIES
from chatcodec_cohere_chat.markers import DISPLAY, KIT, PROVIDER
from chatcodec_cohere_chat.messages import decode_messages, encode_messages
from chatcodec_cohere_chat.settings import decode_settings, encode_settings
from chatcodec_cohere_chat.tools import decode_tools, encode_tools
from chatcodec_cohere_chat.wire import Message, Request

_MAPPED = ("model", "messages", "stream")


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a chat request body as a canonical request dict."""
    request = validate_shape(Request, payload, f"{DISPLAY} request")
    canonical: dict[str, Any] = {"messages": decode_messages(request["messages"], context)}
    if "model" in request:
        canonical["model"] = request["model"]
    if "stream" in request:
        canonical["stream"] = request["stream"]
    bag = leftovers(request, _MAPPED)
    decode_tools(request, canonical, bag, context)
    decode_settings(request, canonical, bag, context)
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    return canonical


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare list of chat messages (a stored conversation)."""
    return decode_messages([validate_shape(Message, message, f"{DISPLAY} message") for message in messages], context)


def encode_request(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical request dict as a chat request body; what the wire cannot carry is a loss."""
    losses = context.losses
    wire = wire_fields(KIT.claim(losses, request.get("provider_options"), ("provider_options",)))
    if request.get("model") is not None:
        wire["model"] = request["model"]
    messages = history_for(request.get("messages") or [], losses, PROVIDER, CAPABILITIES, reading=context.reading)
    wire["messages"] = encode_messages(messages, 0, context)
    encode_tools(request, wire, {}, context)
    encode_settings(request, wire, {}, context)
    if request.get("stream"):
        why = f"this {DISPLAY} codec reads no streams; the request asks for the whole answer"
        losses.add(("stream",), "stream", why, "setting")
    elif request.get("stream") is False:
        wire["stream"] = False
    if request.get("cache_control"):
        losses.add(("cache_control",), "cache_control", f"{DISPLAY} requests have no cache_control", "setting")
    return {key: wire[key] for key in (*shape_fields(Request), *wire) if key in wire}  # the reference's order
