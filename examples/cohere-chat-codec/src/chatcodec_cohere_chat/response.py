"""The one reader and the one writer of a ``V2ChatResponse``, over canonical data.

A response is one assistant ``message`` (:func:`.messages.decode_assistant`), its ``id``,
``finish_reason`` and ``usage``; it names no model and has no clock, so a response converted
here loses its model, reported (``created`` excepted: the server's clock is nothing a user
sent). An error body (``{"message": ...}``) is raised as a :class:`~chatcodec.ProviderAPIError`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import as_dict, leftovers, validate_shape, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext
from chatcodec_cohere_chat.finish_reason import decode_finish_reason, encode_finish_reason
from chatcodec_cohere_chat.markers import DISPLAY, KIT
from chatcodec_cohere_chat.messages import decode_assistant, encode_assistant
from chatcodec_cohere_chat.usage import decode_usage, encode_usage
from chatcodec_cohere_chat.wire import ErrorBody, Response

MAPPED = ("id", "finish_reason", "message", "usage")


def raise_if_error(payload: Mapping[str, Any]) -> None:
    """Raise :class:`~chatcodec.ProviderAPIError` for an error body (a ``message`` text, no
    ``finish_reason``); its type is the status's, which only the HTTP answer carries."""
    if "finish_reason" not in payload and isinstance(payload.get("message"), str):
        error = validate_shape(ErrorBody, dict(payload), f"{DISPLAY} error")
        raise KIT.api_error(error["message"], None, dict(payload))


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a chat response as a canonical response dict (one choice)."""
    raise_if_error(payload)
    response = validate_shape(Response, payload, f"{DISPLAY} response")
    choice: dict[str, Any] = {"index": 0, "message": decode_assistant(response["message"], context)}
    reason = decode_finish_reason(response["finish_reason"], {})
    if reason is not None:
        choice["finish_reason"] = reason
    canonical: dict[str, Any] = {"id": response["id"], "choices": [choice]}
    if "usage" in response:
        canonical["usage"] = decode_usage(response["usage"])
    return KIT.attach(canonical, leftovers(response, MAPPED))


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response dict as a chat response: its first choice (another is a loss)."""
    losses = context.losses
    own = KIT.claim(losses, response.get("provider_metadata"), ())
    wire: dict[str, Any] = {}
    if response.get("id") is None:
        losses.add(("id",), "response id", f"{DISPLAY} responses have an id; none was known, sent ''", "required")
    wire["id"] = response.get("id") or ""
    choices = response["choices"]
    for index in range(1, len(choices)):
        losses.add(("choices", index), f"answer {index}", f"{DISPLAY} responses hold one answer")
    first = as_dict(choices[0]) if choices else None
    at = ("choices", 0, "message")
    message: Mapping[str, Any] = (first or {}).get("message") or {"role": "assistant", "content": []}
    reason = encode_finish_reason((first or {}).get("finish_reason"), {}, context, ("choices", 0, "finish_reason"))
    wire["finish_reason"] = reason
    message_bag = KIT.claim(losses, message.get("provider_metadata"), at)
    wire["message"] = encode_assistant(message.get("content") or [], message_bag, context, at)
    if response.get("usage") is not None:
        wire["usage"] = encode_usage(response["usage"], context, ("usage",))
    if response.get("model") is not None:
        losses.add(("model",), "model", f"{DISPLAY} responses name no model", "metadata")
    return {**wire, **wire_fields(own)}
