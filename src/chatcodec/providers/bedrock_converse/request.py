"""Bedrock ``Converse`` / ``ConverseStream`` request <-> :class:`~chatcodec.ChatRequest`.

The body is the REST API's; ``modelId`` (in the URL there, a parameter in boto3) is read
when present and written when the request names a model, so the output is what boto3's
``converse(**body)`` takes. ``inferenceConfig`` maps to ``max_tokens``, ``temperature``,
``top_p`` and ``stop``; ``toolConfig`` to tools (``tools.py``);
``additionalModelRequestFields`` and ``outputConfig`` to reasoning and response format
(``settings.py``); ``guardrailConfig``, ``promptVariables``,
``additionalModelResponseFieldPaths``, ``requestMetadata``, ``performanceConfig``,
``serviceTier`` and any newer member ride in ``provider_options["bedrock-converse"]`` and
are written back verbatim; an OpenAI ``service_tier`` Bedrock also has is written as
``serviceTier`` (:mod:`chatcodec.providers.service_tiers`).

Options for this encoder, in the same bag: ``unsigned_thinking`` (``"drop"``, the
default, or ``"text"``) and ``tool_result_status`` (``"source"``, the default: written
where the source had it and for errors; ``"always"``; ``"never"``, for model families
that reject the field).

Canonical settings Converse has no field for (``top_k``, penalties, ``seed``,
``metadata``, ``stream``: streaming is the ``ConverseStream`` operation) are reported.
"""

from __future__ import annotations

from typing import Any

from chatcodec._narrow import as_dict
from chatcodec.canonical_validation import validate_canonical, validate_with
from chatcodec.messages import MESSAGES_ADAPTER as MESSAGES_LIST_ADAPTER
from chatcodec.messages import AnyMessage
from chatcodec.providers import service_tiers
from chatcodec.providers.bedrock_converse.context import BedrockContext
from chatcodec.providers.bedrock_converse.markers import KIT, PROVIDER
from chatcodec.providers.bedrock_converse.messages import (
    decode_messages,
    decode_system,
    encode_messages,
    encode_system,
    leading_system_count,
)
from chatcodec.providers.bedrock_converse.settings import decode_settings, encode_settings
from chatcodec.providers.bedrock_converse.tool_ids import MAPPING
from chatcodec.providers.bedrock_converse.tools import decode_tools, encode_tools
from chatcodec.providers.bedrock_converse.wire import MESSAGES_ADAPTER, REQUEST_ADAPTER, validated
from chatcodec.providers.history import history_for
from chatcodec.providers.kit import leftovers, restore_fields, unmapped
from chatcodec.providers.kit.claude import unsigned_thinking
from chatcodec.providers.kit.context import DecodeContext, EncodeContext
from chatcodec.providers.target_rules import carries_nothing
from chatcodec.request import ChatRequest

_MAPPED = (
    "modelId",
    "messages",
    "system",
    "inferenceConfig",
    "toolConfig",
    "additionalModelRequestFields",
    "outputConfig",
)
_INFERENCE = (("maxTokens", "max_tokens"), ("temperature", "temperature"), ("topP", "top_p"))
_KNOBS = ("unsigned_thinking", "tool_result_status")
UNSUPPORTED = ("top_k", "frequency_penalty", "presence_penalty", "seed", "metadata", "stream")
"""Canonical settings Converse has no field for."""
UNSUPPORTED_WHY = "Bedrock Converse has no such setting"


def decode_request(payload: dict[str, Any], context: DecodeContext) -> ChatRequest:
    """Read a Converse request body (the API's rules are not enforced: decoding is not the API)."""
    request = validated(REQUEST_ADAPTER, payload, "Bedrock Converse request")
    model = request.get("modelId")
    canonical: dict[str, Any] = {} if model is None else {"model": model}
    bag = leftovers(request, _MAPPED)
    messages = decode_messages(request.get("messages", []), context, model=model)
    if "messages" not in request:
        bag["_no_messages"] = True
    if "system" in request:  # even an empty list: an empty system prompt, as Anthropic reads one
        messages.insert(0, decode_system(request["system"]))
    canonical["messages"] = messages
    _decode_inference(request, canonical, bag)
    decode_tools(request, canonical, bag, context)
    decode_settings(request, canonical, bag, context)
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    return validate_canonical(ChatRequest, canonical)


def _decode_inference(request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    config = as_dict(request.get("inferenceConfig"))
    if config is None:
        return
    for wire_key, canonical_key in _INFERENCE:
        if wire_key in config:
            canonical[canonical_key] = config[wire_key]
    mapped = ["temperature", "topP", "stopSequences"]
    if canonical.get("max_tokens", 1) >= 1:
        mapped.append("maxTokens")
    else:
        del canonical["max_tokens"]  # canonical needs >= 1: kept as it was
    if "stopSequences" in config:
        canonical["stop"] = config["stopSequences"]
    rest = unmapped(config, mapped)
    if rest:
        bag["inferenceConfig"] = rest
    if not config:
        bag["_inference_config"] = True
    if config.get("stopSequences") == []:
        bag["_empty_stop"] = True


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[AnyMessage]:
    """Read a bare Converse ``messages`` list (a stored conversation)."""
    wire = validate_with(MESSAGES_ADAPTER, messages, "Bedrock Converse messages")
    return validate_with(MESSAGES_LIST_ADAPTER, decode_messages(wire, context), "Messages")


def encode_request(request: ChatRequest, shared: EncodeContext) -> dict[str, Any]:
    """Write ``request`` as a Converse request body, applying the API's rules."""
    losses = shared.losses
    request = history_for(
        request,
        losses,
        PROVIDER,
        "Bedrock Converse",
        freeform_calls=False,
        results_follow_calls=True,
        developer_role=False,
    )
    tier, options = service_tiers.from_openai(request.provider_options)
    bag = KIT.claim(losses, options, ("provider_options",))
    for key in _KNOBS:  # options (read into the context), not fields to send
        bag.pop(key, None)
    status = shared.option("tool_result_status")
    context = shared.extend(
        BedrockContext,
        unsigned_thinking=unsigned_thinking(shared),
        tool_result_status=status if status in ("always", "never") else "source",
    )
    wire = restore_fields({key: value for key, value in bag.items() if key not in _MAPPED})
    if request.model is not None:
        wire["modelId"] = request.model
    if tier is not None and "serviceTier" not in wire:
        wire["serviceTier"] = tier
    leading = leading_system_count(request.messages)
    turns = encode_messages(request.messages, leading, context)
    if turns or not bag.get("_no_messages"):
        wire["messages"] = turns
    if leading:
        wire["system"] = encode_system(request.messages[:leading], context)
    _encode_inference(request, wire, bag)
    encode_tools(request, wire, bag, context)
    encode_settings(request, wire, bag, context)
    for key in UNSUPPORTED:
        if getattr(request, key) is not None and not carries_nothing(key, getattr(request, key)):
            losses.add((key,), key, UNSUPPORTED_WHY, "setting")
    if request.cache_control is not None:
        losses.add(("cache_control",), "request cache_control", "Bedrock caches at cachePoint blocks only", "setting")
    return wire


def _encode_inference(request: ChatRequest, wire: dict[str, Any], bag: dict[str, Any]) -> None:
    config: dict[str, Any] = dict(as_dict(bag.get("inferenceConfig")) or {})
    for wire_key, canonical_key in _INFERENCE:
        value = getattr(request, canonical_key)
        if value is not None:
            config[wire_key] = value
    if request.stop or bag.get("_empty_stop"):
        config["stopSequences"] = list(request.stop)
    if config or bag.get("_inference_config"):
        wire["inferenceConfig"] = config


def tool_id_map(request: ChatRequest) -> dict[str, str]:
    """``{original id: id sent to Bedrock}`` for every tool id the encoder rewrites (a
    proxy inverts it to restore ids in what it sends back)."""
    ids: list[str] = []
    for message in request.messages:
        for part in message.parts:
            if part.type == "tool_use":
                ids.append(part.id)
            elif part.type == "tool_result":
                ids.append(part.tool_use_id)
    return MAPPING.rewrites(ids)
