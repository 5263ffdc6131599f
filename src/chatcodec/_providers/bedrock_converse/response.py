"""Bedrock ``Converse`` output <-> canonical response data (no model built).

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

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from chatcodec import ProviderAPIError
from chatcodec._providers.bedrock_converse import wire as shapes
from chatcodec._providers.bedrock_converse.markers import BODY, KIT, PROVIDER
from chatcodec._providers.bedrock_converse.messages import encode_message
from chatcodec._providers.bedrock_converse.usage import decode_usage, encode_usage
from chatcodec._providers.bedrock_converse.wire import adapters, refuse_too_deep, validated
from chatcodec._providers.families.aws.context import BedrockContext
from chatcodec._providers.families.aws.finish_reason import (
    decode_finish_reason,
    encode_finish_reason,
    encode_unknown_finish,
)
from chatcodec._providers.families.aws.parts import ASSISTANT_KINDS, decode_blocks
from chatcodec._providers.families.aws.tool_ids import name_empty_calls
from chatcodec.codec_kit import as_dict, leftovers, report_invented, restore_fields, shape_fields
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder, Steps

RESPONSE_MAPPED = shape_fields(shapes.Response)
"""Response members with a canonical home: the ones its shape types (``wire.py``)."""


def raise_if_error(payload: dict[str, Any]) -> None:
    """Raise :class:`~chatcodec.ProviderAPIError` when ``payload`` is an error body."""
    if "output" in payload or "message" not in payload:
        return
    body = validated(adapters().error, payload, "Bedrock Converse error")
    error_type = payload.get("__type")
    raise ProviderAPIError(
        body["message"], error_type if isinstance(error_type, str) else None, payload, provider=PROVIDER
    )


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a Converse response body as canonical response data."""
    raise_if_error(payload)
    response = validated(adapters().response, payload, "Bedrock Converse response")
    refuse_too_deep(payload)
    output = response["output"]
    message = output["message"]
    content = name_empty_calls(decode_blocks(BODY, message["content"], ASSISTANT_KINDS), PROVIDER)
    message_bag = leftovers(message, ("role", "content"))
    if message["role"] != "assistant":
        message_bag["role"] = message["role"]
    assistant = KIT.attach({"role": "assistant", "content": content}, message_bag)
    choice: dict[str, Any] = KIT.attach({"index": 0, "message": assistant}, leftovers(output, ("message",)))
    bag = leftovers(response, RESPONSE_MAPPED)
    finish_reason = decode_finish_reason(response.get("stopReason"), bag)
    if finish_reason is not None:
        choice["finish_reason"] = finish_reason
    canonical: dict[str, Any] = {"choices": [choice]}
    usage = as_dict(response.get("usage"))
    if usage is not None:
        canonical["usage"] = decode_usage(usage)
    return KIT.attach(canonical, bag)


def encode_response(response: Mapping[str, Any], shared: EncodeContext) -> dict[str, Any]:
    """Write canonical response data as a Converse output (one choice: Converse has no ``n``)."""
    losses = shared.losses
    bag = KIT.claim(losses, response.get("provider_metadata"), ())
    wire = restore_fields(bag)
    for key in ("id", "model"):  # not ``created``: the server's clock, nothing a user sent
        if response.get(key) is not None:
            losses.add((key,), f"response {key}", "a Converse response has none", "metadata")
    choices: list[Mapping[str, Any]] = response["choices"]
    for index in range(1, len(choices)):
        losses.add(("choices", index), "extra choice", "Bedrock returns one answer per response")
    choice = choices[0]
    context = shared.extend(
        BedrockContext, body=BODY, model=None
    )  # a response replays the answering model's own signatures
    output = restore_fields(KIT.claim(losses, choice.get("provider_metadata"), ("choices", 0)))
    output["message"] = encode_message(choice["message"], context, ("choices", 0, "message"))
    wire["output"] = output
    at: Steps = ("choices", 0, "finish_reason")
    stop_reason = encode_finish_reason(choice.get("finish_reason"), bag, context, at)
    wire["stopReason"] = stop_reason if stop_reason is not None else encode_unknown_finish(losses, at)
    usage = response.get("usage")
    if usage is not None:
        wire["usage"] = encode_usage(usage, context, ("usage",))
    elif "usage" not in wire:  # botocore requires it: the whole usage is made up, one report
        wire["usage"] = encode_usage({}, replace(context, losses=LossRecorder()), ("usage",))
        report_invented(losses, ("usage",), "usage", "a Converse response", wire["usage"])
    if "metrics" not in wire:  # botocore requires them; read back, a 0 latency is a time never measured
        wire["metrics"] = {"latencyMs": 0}
        report_invented(losses, METRICS_AT, "metrics.latencyMs", "a Converse response", 0)
    return wire


METRICS_AT: Steps = ("provider_metadata", PROVIDER, "metrics")
"""Where a Converse answer's ``metrics`` are kept (the response's bag): where an invented
latency is reported."""
