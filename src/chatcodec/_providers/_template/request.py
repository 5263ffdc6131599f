"""The one reader and the one writer of requests, over canonical *data*.

``decode_request(payload, context)`` validates the body once (``wire.py``) and gives a
canonical request dict, equal to what :class:`~chatcodec.ChatRequest` dumps;
``encode_request(request, context)`` takes such a dict (a key holding its default may be
absent) and writes the body, recording in ``context.losses`` what the format cannot
carry; ``decode_message_list(messages, context)`` reads a bare stored ``messages`` list.
No model is built here: ``ProviderCodec`` builds one only where the public API returns it,
so a conversion loads no canonical model. The per-concern roles (messages, tools,
settings) are called from here, and the shared history rules (``history_for``: results
after their calls, a developer turn where the wire has none) run before the messages are
written, reading ``capabilities.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers._template.capabilities import CAPABILITIES
from chatcodec._providers._template.markers import KIT, PROVIDER
from chatcodec._providers._template.messages import decode_messages, encode_messages
from chatcodec._providers._template.settings import SAMPLING, decode_settings, encode_settings
from chatcodec._providers._template.tools import decode_tools, encode_tools
from chatcodec._providers._template.wire import Message, Request
from chatcodec.codec_kit import (
    history_for,
    leftovers,
    report_tier,
    report_user,
    shape_fields,
    validate_shape,
    wire_fields,
)
from chatcodec.contract import DecodeContext, EncodeContext

_MAPPED = ("model", "messages", "stream", *SAMPLING)
"""Top-level fields with a canonical home."""

_UNSENT = ("metadata", "cache_control")
"""Canonical request fields this wire has no place for (reported when set)."""


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a request body as a canonical request dict; everything without a canonical
    field is kept in ``provider_options[PROVIDER]``."""
    request = validate_shape(Request, payload, "Template request")
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
    """Read a bare wire ``messages`` list (a stored conversation) as canonical message dicts."""
    checked = [validate_shape(Message, message, "Template message") for message in messages]
    return decode_messages(checked, context)


def encode_request(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical request dict as a body; what the wire cannot carry is a loss."""
    losses = context.losses
    bag = KIT.claim(losses, request.get("provider_options"), ("provider_options",))
    bag.pop("model", None)  # an option (read into the context), not a field to send back
    wire = wire_fields(bag)
    model = request.get("model") if request.get("model") is not None else context.option("model")
    if model is not None:
        wire["model"] = model
    messages = history_for(request.get("messages") or [], losses, PROVIDER, CAPABILITIES, reading=context.reading)
    wire["messages"] = encode_messages(messages, 0, context)
    encode_tools(request, wire, bag, context)
    encode_settings(request, wire, bag, context)
    if request.get("stream") is not None:
        wire["stream"] = request["stream"]
    for key in _UNSENT:
        if request.get(key) is not None:
            losses.add((key,), key, f"Template Chat requests have no {key} field", "metadata")
    report_user(request.get("user"), losses, CAPABILITIES.display_name)
    report_tier(request.get("service_tier"), losses, CAPABILITIES.display_name)
    return {key: wire[key] for key in (*shape_fields(Request), *wire) if key in wire}  # the wire's order
