"""The one reader and the one writer of Nova's InvokeModel request body.

The body holds no model: it is in the URL (``POST /model/{modelId}/invoke``), where the
caller puts ``request.model`` (as for Gemini's ``generateContent``), so the writer leaves
it out and the reader gives none.
Streaming is the operation (InvokeModelWithResponseStream), not a field: ``stream`` is
reported too. ``schemaVersion`` and every field without a canonical home ride in
``provider_options["bedrock-nova"]``; the leading system messages are the top-level
``system`` blocks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.bedrock_nova.capabilities import CAPABILITIES
from chatcodec._providers.bedrock_nova.markers import BODY, KIT, PROVIDER
from chatcodec._providers.bedrock_nova.messages import (
    decode_messages,
    decode_system,
    encode_messages,
    encode_system,
    leading_system_count,
)
from chatcodec._providers.bedrock_nova.settings import decode_settings, encode_settings
from chatcodec._providers.bedrock_nova.tools import decode_tools, encode_tools
from chatcodec._providers.bedrock_nova.wire import adapters, validated
from chatcodec._providers.families.aws.context import BedrockContext
from chatcodec.codec_kit import history_for, is_neutral_setting, leftovers, report_tier, report_user, restore_fields
from chatcodec.contract import DecodeContext, EncodeContext

TITLE = "Nova request"
_MAPPED = ("messages", "inferenceConfig", "toolConfig", "reasoningConfig")
_UNSENT = (
    *("frequency_penalty", "presence_penalty", "seed", "verbosity", "prompt_cache_key", "safety_identifier"),
    *("metadata", "stream", "response_format", "cache_control"),
)
"""Canonical request fields Nova's body has no place for (reported when set)."""
_ORDER = ("schemaVersion", "system", "messages", "inferenceConfig", "toolConfig", "reasoningConfig")


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a Nova InvokeModel body as canonical request data."""
    request = validated(adapters().request, payload, TITLE)
    messages = decode_messages(request["messages"], context)
    if "system" in request:
        messages.insert(0, decode_system(request["system"]))
    canonical: dict[str, Any] = {"messages": messages}
    bag = leftovers(request, (*_MAPPED, "system"))
    bag.pop("inferenceConfig", None)
    bag.pop("reasoningConfig", None)
    decode_settings(request, canonical, bag, context)
    if "toolConfig" in request:
        bag.pop("toolConfig", None)
        decode_tools(request, canonical, bag, context)
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    return canonical


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """A bare stored ``messages`` list as canonical message data."""
    return decode_messages(validated(adapters().messages, messages, "Nova messages"), context)


def encode_request(request: Mapping[str, Any], shared: EncodeContext) -> dict[str, Any]:
    """Write canonical request data as a Nova InvokeModel body."""
    context = shared.extend(BedrockContext, body=BODY)
    losses = context.losses
    bag = KIT.claim(losses, request.get("provider_options"), ("provider_options",))
    wire = restore_fields({key: value for key, value in bag.items() if key not in ("inferenceConfig",)})
    messages = history_for(request.get("messages") or [], losses, PROVIDER, CAPABILITIES, reading=context.reading)
    leading = leading_system_count(messages)
    if leading:
        wire["system"] = encode_system(messages[:leading], context)
    wire["messages"] = encode_messages(messages, leading, context)
    encode_settings(request, wire, bag, context)
    encode_tools(request, wire, bag, context)
    for key in _UNSENT:
        value = request.get(key)
        if value is not None and not is_neutral_setting(key, value):
            losses.add((key,), key, "Nova's InvokeModel body has no such field", "setting")
    report_user(request.get("user"), losses, CAPABILITIES.display_name)
    report_tier(request.get("service_tier"), losses, CAPABILITIES.display_name)
    return {key: wire[key] for key in (*_ORDER, *wire) if key in wire}
