"""Bedrock ``Converse`` output <-> :class:`~chatcodec.ChatResponse`.

``output.message`` is the one choice's message (blocks map one to one and in order, a
``cachePoint`` aside); ``stopReason`` the finish reason (unified plus raw); ``usage`` is
normalized (``usage.py``); ``metrics``, ``trace``, ``additionalModelResponseFields``,
``performanceConfig``, ``serviceTier`` and newer members ride in the response's bag. A
Converse response names no model, so thinking parts record ``provider`` only.

An error body (``{"message": ...}``, the error type being in the dropped
``x-amzn-errortype`` header) is not a response: decoding it raises
:class:`~chatcodec.ProviderAPIError` with that message.
"""

from __future__ import annotations

from typing import Any

from chatcodec._narrow import as_dict
from chatcodec.canonical_validation import validate_canonical
from chatcodec.content import ImagePart, OpaquePart, RefusalPart, TextPart, ThinkingPart, ToolUsePart
from chatcodec.errors import ProviderAPIError
from chatcodec.providers.bedrock_converse.context import BedrockContext
from chatcodec.providers.bedrock_converse.finish_reason import (
    decode_finish_reason,
    encode_finish_reason,
    encode_unknown_finish,
)
from chatcodec.providers.bedrock_converse.markers import KIT, PROVIDER
from chatcodec.providers.bedrock_converse.parts import ASSISTANT_KINDS, decode_blocks, encode_blocks
from chatcodec.providers.bedrock_converse.tool_ids import name_empty_calls
from chatcodec.providers.bedrock_converse.usage import decode_usage, encode_usage
from chatcodec.providers.bedrock_converse.wire import ERROR_ADAPTER, RESPONSE_ADAPTER, validated
from chatcodec.providers.kit import Steps, leftovers, restore_fields
from chatcodec.providers.kit.context import DecodeContext, EncodeContext
from chatcodec.response import ChatResponse, ResponseChoice, Usage

RESPONSE_MAPPED = ("output", "stopReason", "usage")
"""Response members with a canonical home."""


def raise_if_error(payload: dict[str, Any]) -> None:
    """Raise :class:`~chatcodec.ProviderAPIError` when ``payload`` is an error body."""
    if "output" in payload or "message" not in payload:
        return
    body = validated(ERROR_ADAPTER, payload, "Bedrock Converse error")
    error_type = payload.get("__type")
    raise ProviderAPIError(body["message"], error_type if isinstance(error_type, str) else None, payload)


def decode_response(payload: dict[str, Any], context: DecodeContext) -> ChatResponse:
    """Read a Converse response body."""
    raise_if_error(payload)
    response = validated(RESPONSE_ADAPTER, payload, "Bedrock Converse response")
    output = response["output"]
    message = output["message"]
    assistant = KIT.attach(
        {
            "role": "assistant",
            "content": name_empty_calls(decode_blocks(message["content"], ASSISTANT_KINDS), PROVIDER),
        },
        leftovers(message, ("role", "content")) | ({"role": message["role"]} if message["role"] != "assistant" else {}),
    )
    choice: dict[str, Any] = KIT.attach({"message": assistant}, leftovers(output, ("message",)))
    bag = leftovers(response, RESPONSE_MAPPED)
    finish_reason = decode_finish_reason(response.get("stopReason"), bag)
    if finish_reason is not None:
        choice["finish_reason"] = finish_reason
    canonical: dict[str, Any] = {"choices": [choice]}
    usage = as_dict(response.get("usage"))
    if usage is not None:
        canonical["usage"] = decode_usage(usage)
    return validate_canonical(ChatResponse, KIT.attach(canonical, bag))


def encode_response(response: ChatResponse, shared: EncodeContext) -> dict[str, Any]:
    """Write ``response`` as a Converse output (one choice: Converse has no ``n``)."""
    losses = shared.losses
    bag = KIT.claim(losses, response.provider_metadata, ())
    wire = restore_fields(bag)
    for key in ("id", "model", "created"):
        if getattr(response, key) is not None:
            losses.add((key,), f"response {key}", "a Converse response has none")
    for index in range(1, len(response.choices)):
        losses.add(("choices", index), "extra choice", "Bedrock returns one answer per response")
    choice = response.choices[0]
    context = shared.extend(BedrockContext, model=None)  # a response replays the answering model's own signatures
    output = restore_fields(KIT.claim(losses, choice.provider_metadata, ("choices", 0)))
    output["message"] = encode_message(choice, context, ("choices", 0, "message"))
    wire["output"] = output
    at: Steps = ("choices", 0, "finish_reason")
    stop_reason = encode_finish_reason(choice.finish_reason, bag, context, at)
    wire["stopReason"] = stop_reason if stop_reason is not None else encode_unknown_finish(losses, at)
    wire["usage"] = encode_usage(response.usage or _NO_USAGE, context, ("usage",))
    wire.setdefault("metrics", {"latencyMs": 0})
    return wire


_RESPONSE_PARTS = (TextPart, ThinkingPart, ToolUsePart, OpaquePart, RefusalPart, ImagePart)


def encode_message(choice: ResponseChoice, context: BedrockContext, at: Steps) -> dict[str, Any]:
    """The response's ``output.message``; parts a response cannot hold are losses."""
    message = choice.message
    bag = KIT.claim(context.losses, message.provider_metadata, at)
    if message.name is not None:
        context.losses.add((*at, "name"), "participant name", "Bedrock messages have no name")
    if message.cache_control is not None:
        context.losses.add(
            (*at, "cache_control"), "cache_control", "Bedrock responses carry no cache points", "setting"
        )
    blocks: list[dict[str, Any]] = []
    for index, part in enumerate(message.parts):
        part_at = (*at, "content", index)
        if not isinstance(part, _RESPONSE_PARTS):
            context.losses.add(part_at, f"{part.type} part", "a Converse response cannot contain it")
            continue
        blocks.extend(encode_blocks(part, context, part_at))
    return {"role": "assistant", **restore_fields(bag), "content": blocks}


_NO_USAGE = Usage()
