"""Chat Completions request bodies, both ways.

Top-level fields without a canonical home (``n``, ``logprobs``, ``stream_options``,
``web_search_options``, ``user``, ``store``, a compatible server's ``thinking`` or
``top_k``...) stay in ``provider_options["openai-chat"]`` and are sent back as they were.
``max_tokens`` and ``max_completion_tokens`` both mean the canonical ``max_tokens``; the
newer ``max_completion_tokens`` is written unless the payload used ``max_tokens`` (or the
caller sets ``provider_options["openai-chat"]["_max_tokens_key"] = "max_tokens"``, for
servers that know only that one). That choice is not a pure spelling, so converting such a
request to another provider reports it (``markers.py``). Custom tools (``type: custom``) are kept whole in
``provider_tools``.
"""

from __future__ import annotations

from typing import Any

from chatcodec._narrow import as_dict
from chatcodec.canonical_validation import validate_canonical, validate_with
from chatcodec.losses import LossRecorder
from chatcodec.messages import MESSAGES_ADAPTER, AnyMessage
from chatcodec.providers import service_tiers
from chatcodec.providers.history import history_for
from chatcodec.providers.kit import leftovers, wire_fields
from chatcodec.providers.kit.context import DecodeContext, EncodeContext
from chatcodec.providers.openai_chat import settings, tools
from chatcodec.providers.openai_chat.markers import KIT, PROVIDER
from chatcodec.providers.openai_chat.messages import decode_messages, encode_messages
from chatcodec.providers.openai_chat.request_fields import (
    DECODERS,
    DEFAULTS,
    MAX_TOKENS_KEYS,
    NEUTRAL,
    SAME_NAME,
    SAME_NAME_TOO,
)
from chatcodec.providers.openai_chat.wire import MESSAGES_ADAPTER as WIRE_MESSAGES_ADAPTER
from chatcodec.providers.openai_chat.wire import REQUEST_ADAPTER
from chatcodec.request import ChatRequest

# --- decode --------------------------------------------------------------------------


def decode_request(payload: dict[str, Any], context: DecodeContext) -> ChatRequest:
    """Read a request body; everything without a canonical field is kept."""
    validated = validate_with(REQUEST_ADAPTER, payload, "OpenAI Chat request")
    wire: dict[str, Any] = dict(validated)
    data: dict[str, Any] = {"messages": decode_messages(wire["messages"], context)}
    bag: dict[str, Any] = {}
    mapped = ["messages"]
    for decoder in DECODERS:
        mapped += decoder(wire, data, bag, context)
    bag = {**leftovers(wire, mapped), **bag}
    if bag:
        data["provider_options"] = {PROVIDER: bag}
    return validate_canonical(ChatRequest, data)


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[AnyMessage]:
    """Read a bare ``messages`` list (a stored conversation) with this format's rules."""
    wire = validate_with(WIRE_MESSAGES_ADAPTER, messages, "OpenAI Chat messages")
    return validate_with(MESSAGES_ADAPTER, decode_messages([dict(message) for message in wire], context), "Messages")


def _neutral_fields(bag: dict[str, Any]) -> dict[str, Any]:
    kept = as_dict(bag.get(DEFAULTS)) or {}
    return {key: value for key, value in kept.items() if key in NEUTRAL and value == NEUTRAL[key]}


# --- encode --------------------------------------------------------------------------


def encode_request(request: ChatRequest, context: EncodeContext) -> dict[str, Any]:
    """Write a request body; what OpenAI cannot carry is recorded in ``context.losses``."""
    losses = context.losses
    request = history_for(
        request, losses, PROVIDER, "OpenAI Chat", freeform_calls=True, results_follow_calls=True, developer_role=True
    )
    tier, options = service_tiers.from_bedrock(request.provider_options)
    KIT.report_foreign(losses, options, ("provider_options",))
    bag = KIT.own(request.provider_options)
    wire = {**_neutral_fields(bag), **wire_fields(bag)}
    wire.pop("model", None)  # an option (read into the context), not a field to send back
    if tier is not None:
        wire.setdefault("service_tier", tier)
    model = request.model if request.model is not None else context.option("model")
    if model is not None:
        wire["model"] = model
    wire["messages"] = encode_messages(request.messages, 0, context)
    tools.encode_tools(request, wire, bag, context)
    _encode_knobs(request, context, wire)
    settings.encode_settings(request, wire, bag, context)
    if request.cache_control is not None:
        why = "OpenAI caches prompts automatically; explicit breakpoints sit on content parts"
        losses.add(("cache_control",), "request-wide cache_control", why, "setting")
    return wire


def _encode_knobs(request: ChatRequest, context: EncodeContext, wire: dict[str, Any]) -> None:
    losses, bag = context.losses, KIT.own(request.provider_options)
    for key in (*SAME_NAME[1:], *SAME_NAME_TOO):
        value = getattr(request, key)
        if value is not None:
            wire[key] = value
    if request.max_tokens is not None:
        spelled = context.option("max_tokens_key")
        wire[spelled if spelled in MAX_TOKENS_KEYS else "max_completion_tokens"] = request.max_tokens
    if request.stop:
        one_string = bag.get("_stop") == "string" and len(request.stop) == 1
        wire["stop"] = request.stop[0] if one_string else list(request.stop)
    if request.top_k is not None:
        losses.add(("top_k",), "top_k", "OpenAI Chat has no top-k sampling", "setting")
    if request.metadata is not None:
        _encode_metadata(request.metadata, wire, losses)


def _encode_metadata(metadata: dict[str, Any], wire: dict[str, Any], losses: LossRecorder) -> None:
    kept = {key: value for key, value in metadata.items() if isinstance(value, str)}
    for key in metadata.keys() - kept.keys():
        losses.add(
            ("metadata", key), "metadata value that is not a string", "OpenAI metadata values are strings", "metadata"
        )
    wire["metadata"] = kept
