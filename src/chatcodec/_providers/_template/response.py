"""The one reader and the one writer of responses, over canonical data.

``decode_response(payload, context)`` gives a canonical response dict (what
:class:`~chatcodec.ChatResponse` validates), ``encode_response(response, context)`` writes
one as a body (for proxies and test doubles). An error body is the provider's own error,
raised as a :class:`~chatcodec.ProviderAPIError`, never read as an answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers._template.finish_reason import decode_finish_reason, encode_finish_reason
from chatcodec._providers._template.markers import KIT
from chatcodec._providers._template.messages import decode_messages, encode_message
from chatcodec._providers._template.usage import decode_usage, encode_usage
from chatcodec._providers._template.wire import ErrorBody, Response, is_error_body
from chatcodec.codec_kit import leftovers, validate_shape, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext

MAPPED = ("id", "model", "message", "stop_reason", "usage")
"""Response fields with a canonical home."""


def raise_if_error(payload: object) -> None:
    """Raise :class:`~chatcodec.ProviderAPIError` when ``payload`` is an error body."""
    if is_error_body(payload):
        error = validate_shape(ErrorBody, payload, "Template error")["error"]
        raise KIT.api_error(error["message"], error.get("type"), payload)  # its type read in its own edge's namespace


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a response body as a canonical response dict (one choice)."""
    raise_if_error(payload)
    response = validate_shape(Response, payload, "Template response")
    choice: dict[str, Any] = {"index": 0, "message": decode_messages([response["message"]], context)[0]}
    reason = decode_finish_reason(response.get("stop_reason"), {})
    if reason is not None:
        choice["finish_reason"] = reason
    canonical: dict[str, Any] = {key: response[key] for key in ("id", "model") if key in response}
    canonical["choices"] = [choice]
    if "usage" in response:
        canonical["usage"] = decode_usage(response["usage"])
    return KIT.attach(canonical, leftovers(response, MAPPED))


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response dict as a body: its first choice (another is a loss)."""
    losses = context.losses
    wire = wire_fields(KIT.claim(losses, response.get("provider_metadata"), ()))
    wire.update({key: response[key] for key in ("id", "model") if response.get(key) is not None})
    # ``created`` is the server's clock, nothing a user sent: dropped without a report
    # where the wire has no field for it (tests/conformance/test_server_facts_are_no_loss.py)
    choices = response["choices"]
    for index in range(1, len(choices)):
        losses.add(("choices", index), f"answer {index}", "Template Chat responses hold one answer")
    message = choices[0]["message"] if choices else {"role": "assistant", "content": ""}
    wire["message"] = encode_message(message, context, ("choices", 0, "message"))
    reason = choices[0].get("finish_reason") if choices else None
    word = encode_finish_reason(reason, {}, context, ("choices", 0, "finish_reason"))
    if word is not None:
        wire["stop_reason"] = word
    if response.get("usage") is not None:
        wire["usage"] = encode_usage(response["usage"], context, ("usage",))
    return wire
