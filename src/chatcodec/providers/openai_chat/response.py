"""``chat.completion`` response bodies, both ways.

Every choice is kept (``n`` > 1), and so is what has no canonical field: per-choice
``logprobs`` and OpenRouter's ``native_finish_reason`` in the choice's bag, message
``annotations``, ``audio`` and ``refusal: null`` in the message's bag, and
``system_fingerprint``, ``service_tier``, ``moderation`` or OpenRouter's ``provider`` in
the response's bag.

The SDK's ``ChatCompletion`` requires ``id``, ``created``, ``model`` and each choice's
``finish_reason``. A canonical response from elsewhere may lack them; ``id`` and ``model``
are then written as ``""`` (placeholders, not data) and ``created`` as the current time (a
client that sorts or expires by it reads 1970 from ``0``, issue 23), and a missing
finish reason as ``"stop"`` with a loss, since that one tells the client something.
"""

from __future__ import annotations

import json
import time
from typing import Any

from chatcodec._narrow import as_dict
from chatcodec.canonical_validation import validate_canonical, validate_with
from chatcodec.errors import ProviderAPIError
from chatcodec.providers.kit import absent_keys, leftovers, mark_absent, present, wire_fields
from chatcodec.providers.kit.context import DecodeContext, EncodeContext
from chatcodec.providers.openai_chat import reasoning
from chatcodec.providers.openai_chat.assistant import decode_assistant, encode_assistant
from chatcodec.providers.openai_chat.finish_reason import (
    decode_finish_reason,
    encode_finish_reason,
    encode_unknown_finish,
)
from chatcodec.providers.openai_chat.markers import KIT
from chatcodec.providers.openai_chat.usage import decode_usage, encode_usage
from chatcodec.providers.openai_chat.wire import RESPONSE_ADAPTER
from chatcodec.response import ChatResponse, ResponseChoice
from chatcodec.stream_events import ErrorEvent

OBJECT = "chat.completion"
_PLACEHOLDERS: tuple[tuple[str, object], ...] = (("id", ""), ("created", 0), ("model", ""))


def decode_response(payload: dict[str, Any], context: DecodeContext) -> ChatResponse:
    """Read a response body; everything without a canonical field is kept.

    An error body (``{"error": {...}}``, what a 4xx/5xx carries) raises
    :class:`~chatcodec.ProviderAPIError` with the provider's message and type.
    """
    if "error" in payload and "choices" not in payload:
        error = as_dict(payload["error"]) or {"message": str(payload["error"])}
        kind = error.get("type") or error.get("code")
        raise ProviderAPIError(str(error.get("message", error)), None if kind is None else str(kind), payload["error"])
    validated = validate_with(RESPONSE_ADAPTER, payload, "OpenAI Chat response")
    wire: dict[str, Any] = dict(validated)
    known = present(wire, "id", "created", "model")
    data: dict[str, Any] = {key: wire[key] for key in known}
    mapped = ["choices", *known]
    if wire.get("object") == OBJECT:
        mapped.append("object")
    data["choices"] = [decode_choice(choice) for choice in wire["choices"]]
    if isinstance(wire.get("usage"), dict):
        data["usage"] = decode_usage(wire["usage"])
        mapped.append("usage")
    bag = leftovers(wire, mapped)
    mark_absent(bag, wire, "id", "object", "created", "model")
    return validate_canonical(ChatResponse, KIT.attach(data, bag))


def decode_choice(choice: dict[str, Any]) -> dict[str, Any]:
    """One wire choice as a canonical choice dict."""
    message = decode_assistant(choice["message"], response=True)
    canonical: dict[str, Any] = {"index": choice["index"], "message": message}
    bag = leftovers(choice, ("index", "message", *present(choice, "finish_reason")))
    finish_reason = decode_finish_reason(choice.get("finish_reason"), bag)
    if finish_reason is not None:
        canonical["finish_reason"] = finish_reason
    mark_absent(bag, choice, "finish_reason")
    return KIT.attach(canonical, bag)


def encode_response(response: ChatResponse, context: EncodeContext) -> dict[str, Any]:
    """Write a response body; what OpenAI cannot carry is recorded in ``context.losses``."""
    losses = context.losses
    KIT.report_foreign(losses, response.provider_metadata, ())
    bag = KIT.own(response.provider_metadata)
    reasoning_field = reasoning.output_option(context, ("provider_metadata", "openai-chat", reasoning.OPTION))
    left_out = absent_keys(bag)
    wire = wire_fields(bag)
    for key, default in _PLACEHOLDERS:
        value = getattr(response, key)
        if value is not None:
            wire[key] = value
        elif key not in left_out and key not in wire:
            wire[key] = int(time.time()) if key == "created" else default
    if "object" not in wire and "object" not in left_out:
        wire["object"] = OBJECT
    wire["choices"] = [
        _encode_choice(choice, reasoning_field, context, index) for index, choice in enumerate(response.choices)
    ]
    if response.usage is not None:
        wire["usage"] = encode_usage(response.usage, context, ("usage",))
    return wire


def _encode_choice(
    choice: ResponseChoice, reasoning_field: str | None, context: EncodeContext, index: int
) -> dict[str, Any]:
    losses = context.losses
    KIT.report_foreign(losses, choice.provider_metadata, ("choices", index))
    bag = KIT.own(choice.provider_metadata)
    message = encode_assistant(choice.message, reasoning_field, losses, ("choices", index, "message"), response=True)
    wire = {**wire_fields(bag), "index": choice.index, "message": message}
    at = ("choices", index, "finish_reason")
    if choice.finish_reason is not None:
        wire["finish_reason"] = encode_finish_reason(choice.finish_reason, bag, context, at)
    elif "finish_reason" not in wire and "finish_reason" not in absent_keys(bag):
        wire["finish_reason"] = encode_unknown_finish(losses, at)
    return wire


def error_event(error: object) -> ErrorEvent:
    """An ``error`` object inside a 200 stream (or an ``event: error``) as a canonical
    event: the same fields :func:`decode_response` reads from an error body."""
    fields = as_dict(error)
    if fields is not None:
        message = fields.get("message")
        kind = fields.get("type") or fields.get("code")
        return ErrorEvent(
            message=message if isinstance(message, str) else json.dumps(error),
            error_type=str(kind) if kind is not None else None,
            body=fields,
        )
    return ErrorEvent(message=str(error), body=error if isinstance(error, str | int | float | bool) else None)
