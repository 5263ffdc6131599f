"""Anthropic ``Message`` (the non-streamed response body) <-> :class:`~chatcodec.ChatResponse`.

Content blocks map one to one and in order to the assistant message's parts; thinking
parts record ``provider="anthropic"`` and the response's model, so an encoder never
replays them to another provider as if they were its own. ``stop_reason`` becomes the
finish reason (unified plus raw), usage is normalized (see :mod:`.usage`), and the rest
(``stop_sequence``, ``stop_details``, ``container``, ...) rides in the response's bag.

An error body (``{"type": "error", ...}``) is not a response: decoding it raises
:class:`~chatcodec.ProviderAPIError` with the provider's error type and message.

Both directions are over canonical response data (as ``ChatResponse.model_dump()`` gives
it); no model is built here.
"""

from __future__ import annotations

from collections.abc import Mapping
from sys import get_int_max_str_digits, maxsize
from typing import Any

from chatcodec._providers.anthropic.encode_context import AnthropicContext
from chatcodec._providers.anthropic.finish_reason import (
    REFUSAL_SENT_AS_TEXT,
    decode_finish_reason,
    encode_finish_reason,
)
from chatcodec._providers.anthropic.markers import KIT, PROVIDER
from chatcodec._providers.anthropic.parts import (
    ASSISTANT_KINDS,
    decode_parts,
    encode_part,
)
from chatcodec._providers.anthropic.usage import decode_usage, encode_usage, no_usage
from chatcodec._providers.anthropic.wire import (
    COMMON_RESPONSE,
    DEEPEST,
    ErrorBody,
    Response,
    refuse_too_deep,
    validated_object,
)
from chatcodec.codec_kit import as_dict, report_invented, restore_fields, split_fields
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder, Steps

MESSAGE_DEFAULTS: Mapping[str, Any] = {
    "type": "message",
    "role": "assistant",
    "stop_reason": None,
    "stop_sequence": None,
}
"""Fields every ``Message`` has, with the value that carries no information."""

MESSAGE_MAPPED = frozenset({"id", "model", "content", "stop_reason", "usage"})
"""``Message`` fields with a canonical home."""


def message_bag(message: Mapping[str, Any]) -> dict[str, Any]:
    """The response-level bag for a wire ``Message``."""
    return split_fields(message, MESSAGE_MAPPED, MESSAGE_DEFAULTS)


def raise_if_error(payload: dict[str, Any]) -> None:
    """Raise :class:`~chatcodec.ProviderAPIError` when ``payload`` is an error body."""
    if payload.get("type") != "error":
        return
    body = validated_object(ErrorBody, payload, "Anthropic error")
    error = body["error"]
    raise KIT.api_error(error.get("message", ""), error.get("type"), payload)


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read an Anthropic response body into canonical response data."""
    raise_if_error(payload)
    message = COMMON_RESPONSE.validate(payload)
    common = message is not None
    if message is None:
        message = validated_object(Response, payload, "Anthropic response")
    model = message.get("model") or None  # an empty name says nothing about who thought
    digits = (get_int_max_str_digits() or maxsize) if common else 0  # parts.decode_parts
    choice: dict[str, Any] = {
        "index": 0,
        "message": {
            "role": "assistant",
            "content": decode_parts(message["content"], ASSISTANT_KINDS, model, digits=digits),
        },
    }
    bag = message_bag(message)
    finish_reason = decode_finish_reason(message.get("stop_reason"), bag)
    if finish_reason is not None:
        choice["finish_reason"] = finish_reason
    canonical: dict[str, Any] = {key: message[key] for key in ("id", "model") if message.get(key) is not None}
    canonical["choices"] = [choice]
    usage = as_dict(message.get("usage"))
    if usage is not None:
        canonical["usage"] = decode_usage(usage)
    KIT.attach(canonical, bag)
    # no model is built to refuse a kept value nested too deep; in the common shapes only the
    # fields kept as they came can nest (the bag, two levels down; usage's, one)
    if common:
        refuse_too_deep(bag, payload, limit=DEEPEST - 2)
        refuse_too_deep(canonical.get("usage"), payload, limit=DEEPEST - 1)
    else:
        refuse_too_deep(canonical, payload)
    return canonical


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write canonical response data as an Anthropic ``Message`` (one choice: Anthropic has no ``n``)."""
    losses = context.losses
    bag = KIT.claim(losses, response.get("provider_metadata"), ())
    wire = restore_fields(bag, MESSAGE_DEFAULTS)
    for key in ("id", "model"):
        value = response.get(key)
        if value is not None or not bag:
            wire[key] = value if value is not None else _invented(losses, key)
    # ``created`` is the server's clock, nothing a user sent: Anthropic has no field for it
    # and drops it without a report (like the time a request took)
    choices = response["choices"]
    for index in range(1, len(choices)):
        losses.add(("choices", index), "extra choice", "Anthropic returns one answer per response")
    choice = choices[0]
    wire["content"] = encode_content(
        choice, context.extend(AnthropicContext, for_request=False), ("choices", 0, "message")
    )
    stop_reason = encode_finish_reason(choice.get("finish_reason"), bag, context, ("choices", 0, "finish_reason"))
    if stop_reason is not None:
        wire["stop_reason"] = stop_reason
    usage = response.get("usage")
    if usage is not None:
        wire["usage"] = encode_usage(usage, context, ("usage",))  # it reports a count written as 0
    elif not bag:
        wire["usage"] = no_usage()
        report_invented(losses, ("usage",), "usage", OWNER, wire["usage"])
    return wire


OWNER = "an Anthropic Message"


def _invented(losses: LossRecorder, key: str) -> str:
    """The empty string for a field an Anthropic ``Message`` requires and the response lacks."""
    report_invented(losses, (key,), key, OWNER, "")
    return ""


RESPONSE_PARTS = frozenset({"text", "thinking", "tool_use", "opaque", "refusal"})
"""The canonical parts an Anthropic response (or its stream) can hold."""


def encode_content(choice: Mapping[str, Any], context: AnthropicContext, at: Steps) -> list[dict[str, Any]]:
    """The response's content blocks; parts a response cannot hold (images, audio) are losses."""
    message = choice["message"]
    why = "an Anthropic message is the whole answer: its decoder keeps no choice or message bag"
    KIT.report_unplaced(context.losses, choice.get("provider_metadata"), at[:-1], why)
    KIT.report_unplaced(context.losses, message.get("provider_metadata"), at, why)
    if message.get("name") is not None:
        context.losses.add((*at, "name"), "participant name", "Anthropic messages have no name")
    if message.get("cache_control") is not None:
        context.losses.add(
            (*at, "cache_control"), "cache_control", "Anthropic responses carry no cache markers", "setting"
        )
    content = message.get("content", "")
    parts = ([{"type": "text", "text": content}] if content else []) if isinstance(content, str) else content
    blocks: list[dict[str, Any]] = []
    for index, part in enumerate(parts):
        part_at = (*at, "content", index)
        if part["type"] not in RESPONSE_PARTS:
            context.losses.add(part_at, f"{part['type']} part", "an Anthropic response cannot contain it")
            continue
        if empty_text(part):  # Anthropic sends no empty text block (nor does its stream encoder)
            if part["type"] == "refusal":  # but the answer said it refused: that is gone
                context.losses.add(part_at, "refusal part", REFUSAL_SENT_AS_TEXT)
            continue
        block = encode_part(part, context, part_at)
        if block is not None:
            blocks.append(block)
    return blocks


def empty_text(part: Mapping[str, Any]) -> bool:
    """A text part with no text and no citations (an OpenAI-compatible ``"content": ""``
    beside tool calls), or an empty refusal (sent as text): an Anthropic answer has no
    such block (the refusal is reported by the caller)."""
    if part["type"] == "refusal":
        return not part["text"]  # sent as text: an empty one is an empty text block
    if part["type"] != "text" or part["text"]:
        return False
    own = as_dict((as_dict(part.get("provider_metadata")) or {}).get(PROVIDER)) or {}
    return not own.get("citations")
