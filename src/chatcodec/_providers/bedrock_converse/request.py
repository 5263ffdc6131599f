"""Bedrock ``Converse`` / ``ConverseStream`` request <-> canonical request data: the one
reader and the one writer.

The body is the REST API's; ``modelId`` (in the URL there, a parameter in boto3) is read
when present and written when the request names a model, so the output is what boto3's
``converse(**body)`` takes. ``inferenceConfig`` maps to ``max_tokens``, ``temperature``,
``top_p`` and ``stop``; ``toolConfig`` to tools (``tools.py``);
``additionalModelRequestFields`` and ``outputConfig`` to reasoning and response format
(``settings.py``); ``guardrailConfig``, ``promptVariables``,
``additionalModelResponseFieldPaths``, ``requestMetadata``, ``performanceConfig`` and
any newer member ride in ``provider_options["bedrock-converse"]`` and are written back
verbatim; ``serviceTier`` is the canonical ``service_tier`` when it names a tier Converse
has (:mod:`chatcodec._providers.kit.service_tier`).

Reading validates a body with the closed schema of the common shapes first, in one Rust
pass (:data:`~chatcodec._providers.bedrock_converse.wire.REQUEST`); a body it refuses is
validated by the wire adapter, whose errors name the wire path and rule, and both are
read by the same functions into canonical data (what ``ChatRequest.model_dump()`` gives:
tags written, nothing ``None``). No canonical model is built.

Options for this encoder (``options=``, or in the same bag as a stored request spells
them): ``unsigned_thinking`` (``"drop"``, the default, or ``"text"``) and
``tool_result_status`` (``"source"``, the default: written where the source had it and
for errors; ``"always"``; ``"never"``, for model families that reject the field).

Canonical settings Converse has no field for (``top_k``, penalties, ``seed``,
``metadata``, ``stream``: streaming is the ``ConverseStream`` operation) are reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from chatcodec._providers.bedrock_converse import wire as shapes
from chatcodec._providers.bedrock_converse.capabilities import CAPABILITIES
from chatcodec._providers.bedrock_converse.markers import BODY, KIT, PROVIDER
from chatcodec._providers.bedrock_converse.messages import (
    decode_messages,
    decode_system,
    encode_messages,
    encode_system,
    leading_system_count,
)
from chatcodec._providers.bedrock_converse.settings import decode_settings, encode_settings
from chatcodec._providers.bedrock_converse.tools import decode_tools, encode_tools
from chatcodec._providers.bedrock_converse.wire import REQUEST, adapters, closed_messages, refuse_too_deep, validated
from chatcodec._providers.families.aws.body import Body
from chatcodec._providers.families.aws.context import BedrockContext
from chatcodec._providers.families.aws.stop_sequences import read_stop, write_stop
from chatcodec._providers.families.aws.tool_ids import MAPPING
from chatcodec._providers.families.claude.wire_rules import unsigned_thinking
from chatcodec.codec_kit import (
    as_dict,
    as_sampling_number,
    history_for,
    is_neutral_setting,
    keeps_a_container,
    leftovers,
    mark_integers,
    read_tier,
    report_user,
    respell_integers,
    restore_fields,
    shape_fields,
    unmapped_fields,
    write_tier,
)
from chatcodec.contract import DecodeContext, EncodeContext

if TYPE_CHECKING:
    from chatcodec import ChatRequest

_MAPPED = shape_fields(shapes.Request)
"""The members the request shape types (``wire.py``), all read here: any other is kept."""
_INFERENCE = (("maxTokens", "max_tokens"), ("temperature", "temperature"), ("topP", "top_p"))
_SAMPLING = frozenset({"temperature", "top_p"})
"""Canonical sampling numbers (``request.SamplingNumber``: an integer a double holds is a float)."""
_KNOBS = ("unsigned_thinking", "tool_result_status")
UNSUPPORTED = (
    *("top_k", "frequency_penalty", "presence_penalty", "seed", "verbosity", "metadata", "stream"),
    *("prompt_cache_key", "safety_identifier"),
)
"""Canonical settings Converse has no field for."""
UNSUPPORTED_WHY = "Bedrock Converse has no such setting"
TITLE = "Bedrock Converse request"

JSON_FRONT = REQUEST
"""The closed schema that parses a JSON body and validates it in one pass in Rust
(:meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.read_request_json`)."""


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a Converse request body as canonical request data (the API's rules are not
    enforced: decoding is not the API)."""
    request = REQUEST.validate(payload)
    closed = request is not None
    if request is None:
        request = validated(adapters().request, payload, TITLE)
        refuse_too_deep(payload)
    model = request.get("modelId")
    canonical: dict[str, Any] = {} if model is None else {"model": model}
    bag = leftovers(request, _MAPPED)
    messages = decode_messages(request.get("messages", []), context, model=model, closed=closed)
    if "messages" not in request:
        bag["_no_messages"] = True
    if "system" in request:  # even an empty list: an empty system prompt, as Anthropic reads one
        messages.insert(0, decode_system(request["system"], closed=closed))
    canonical["messages"] = messages
    if "inferenceConfig" in request:
        _decode_inference(request["inferenceConfig"], canonical, bag)
    if "toolConfig" in request:
        decode_tools(request, canonical, bag, context)
    if "additionalModelRequestFields" in request or "outputConfig" in request:
        decode_settings(request, canonical, bag, context)
    if "serviceTier" in request:
        _decode_tier(request["serviceTier"], canonical, bag)
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    # outputConfig's schema and additionalModelRequestFields sit deeper in canonical than they came
    context.closed = closed and "outputConfig" not in request and not keeps_a_container(canonical)
    return canonical


SERVICE_TIERS = {tier: tier for tier in ("priority", "default", "flex", "reserved")}
"""Converse's tiers (botocore ``ServiceTierType``), canonical's words
(:mod:`chatcodec._providers.kit.service_tier`)."""


def _decode_tier(service_tier: object, canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    """``serviceTier: {"type": ...}`` as the canonical tier when it holds only a tier Converse has."""
    fields = as_dict(service_tier)
    tier = read_tier(fields.get("type"), SERVICE_TIERS) if fields is not None and len(fields) == 1 else None
    if tier is not None:
        canonical["service_tier"] = tier
        bag.pop("serviceTier", None)


def _decode_inference(config: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    mark_integers(config, ("temperature", "topP"), bag)  # canonical holds a float: ``1`` would come back as ``1.0``
    for wire_key, canonical_key in _INFERENCE:
        if wire_key in config:
            value = config[wire_key]
            canonical[canonical_key] = as_sampling_number(value) if canonical_key in _SAMPLING else value
    mapped = ["temperature", "topP", "stopSequences"]
    if canonical.get("max_tokens", 1) >= 1:
        mapped.append("maxTokens")
    else:
        del canonical["max_tokens"]  # canonical needs >= 1: kept as it was
    read_stop(config.get("stopSequences"), canonical, bag)
    rest = unmapped_fields(config, mapped)
    if rest:
        bag["inferenceConfig"] = rest
    if not config:
        bag["_inference_config"] = True  # sent empty (pydantic-ai does): written back so


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare Converse ``messages`` list (a stored conversation) as canonical message data."""
    wire = closed_messages(messages)
    if wire is not None:
        return decode_messages(wire, context, closed=True)
    from chatcodec.codec_kit import validate_with

    wire = validate_with(adapters().messages, messages, "Bedrock Converse messages")
    refuse_too_deep(messages)
    return decode_messages(wire, context)


@dataclass(slots=True, kw_only=True)
class ConverseContext(BedrockContext):
    """A Converse request's :class:`~chatcodec._providers.families.aws.context.BedrockContext`,
    its body Converse's, so the codec can make it at once (:data:`CONTEXT`)."""

    body: Body = BODY


CONTEXT = ConverseContext
"""The context :func:`encode_request` writes with, which the codec makes at once for it
(:meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.write_request`), so no
second one is made from the shared fields."""


def encode_request(request: Mapping[str, Any], shared: EncodeContext) -> dict[str, Any]:
    """Write canonical request data as a Converse request body, applying the API's rules."""
    losses = shared.losses
    read: list[Any] = request.get("messages") or []
    messages = history_for(read, losses, PROVIDER, CAPABILITIES, reading=shared.reading)
    bag = KIT.claim(losses, request.get("provider_options"), ("provider_options",))
    for key in _KNOBS:  # options (read into the context), not fields to send
        bag.pop(key, None)
    status = shared.option("tool_result_status")
    context = shared if type(shared) is ConverseContext else shared.extend(ConverseContext)  # the codec's: CONTEXT
    context.unsigned_thinking = unsigned_thinking(shared)
    context.tool_result_status = status if status in ("always", "never") else "source"
    wire = restore_fields({key: value for key, value in bag.items() if key not in _MAPPED}) if bag else {}
    model = request.get("model")
    if model is not None:
        wire["modelId"] = model
    tier = request.get("service_tier")
    if tier is not None:
        written = write_tier(tier, SERVICE_TIERS, losses, "Bedrock Converse")
        if written is not None:
            wire["serviceTier"] = {"type": written}
    leading = leading_system_count(messages)
    turns = encode_messages(messages, leading, context)
    if turns or not bag.get("_no_messages"):
        wire["messages"] = turns
    if leading:
        wire["system"] = encode_system(messages[:leading], context)
    _encode_inference(request, wire, bag, context)
    encode_tools(request, wire, bag, context)
    encode_settings(request, wire, bag, context)
    _report_unsupported(request, context)
    return wire


def _report_unsupported(request: Mapping[str, Any], context: EncodeContext) -> None:
    for key in UNSUPPORTED:
        value = request.get(key)
        if value is not None and not is_neutral_setting(key, value):
            context.losses.add((key,), key, UNSUPPORTED_WHY, "setting")
    report_user(request.get("user"), context.losses, "Bedrock Converse")
    if request.get("cache_control") is not None:
        what = "request cache_control"
        context.losses.add(("cache_control",), what, "Bedrock caches at cachePoint blocks only", "setting")


def _encode_inference(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    kept = as_dict(bag.get("inferenceConfig"))
    config: dict[str, Any] = {} if kept is None else dict(kept)
    for wire_key, canonical_key in _INFERENCE:
        value = request.get(canonical_key)
        if value is not None:
            config[wire_key] = value
    write_stop(request, config, bag, context)
    respell_integers(config, bag)
    if config or bag.get("_inference_config"):
        wire["inferenceConfig"] = config


def tool_id_map(request: ChatRequest | Mapping[str, Any]) -> dict[str, str]:
    """``{original id: id sent to Bedrock}`` for every tool id the encoder rewrites (a
    proxy inverts it to restore ids in what it sends back); ``request``: a
    :class:`~chatcodec.ChatRequest` or canonical request data."""
    data: Mapping[str, Any] = request.model_dump() if not isinstance(request, Mapping) else request
    ids: list[str] = []
    for message in data.get("messages") or ():
        content = message["content"]
        for part in () if isinstance(content, str) else content:
            if part["type"] == "tool_use":
                ids.append(part["id"])
            elif part["type"] == "tool_result":
                ids.append(part["tool_use_id"])
    return MAPPING.rewrites(ids)
