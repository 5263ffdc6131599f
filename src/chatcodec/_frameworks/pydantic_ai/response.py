"""A response is the ``ModelResponse`` a model returned, stored as a history stores it.

Its ``usage`` is the response's usage, ``finish_reason`` its finish reason, ``model_name`` its
model and ``provider_response_id`` its id; all stay in the message's bag too, so the message
written back is the message read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.history import answer_choice, the_answer
from chatcodec._frameworks.pydantic_ai.finish_reason import decode_finish_reason, encode_finish_reason
from chatcodec._frameworks.pydantic_ai.markers import KIT
from chatcodec._frameworks.pydantic_ai.response_parts import decode_response_message, encode_response_message
from chatcodec._frameworks.pydantic_ai.usage import decode_usage, encode_usage
from chatcodec._frameworks.pydantic_ai.wire import validated_response
from chatcodec.codec_kit import as_dict
from chatcodec.contract import DecodeContext, EncodeContext


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a stored ``ModelResponse`` as a canonical response dict."""
    del context
    entry = validated_response(payload, "pydantic-ai ModelResponse")
    choice = answer_choice(decode_response_message(entry), entry.get("finish_reason"), decode_finish_reason)
    response: dict[str, Any] = {"choices": [choice]}
    usage = as_dict(entry.get("usage"))
    if usage is not None:
        response["usage"] = decode_usage(usage)
    if isinstance(entry.get("provider_response_id"), str):
        response["id"] = entry["provider_response_id"]
    if isinstance(entry.get("model_name"), str):
        response["model"] = entry["model_name"]
    return response


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response's first choice as a stored ``ModelResponse``."""
    choice: Any = the_answer(response, context, "a pydantic-ai ModelResponse is one answer")
    kept = KIT.own(choice["message"].get("provider_metadata"))
    entry = encode_response_message(choice["message"], context, ("choices", 0, "message"))
    if response.get("usage") and "usage" not in kept:
        entry["usage"] = encode_usage(response["usage"], context, ("usage",))
    word = encode_finish_reason(choice.get("finish_reason"), {}, context, ("choices", 0, "finish_reason"))
    if word is not None and "finish_reason" not in kept:
        entry["finish_reason"] = word
    if response.get("model") is not None and "model_name" not in kept:
        entry["model_name"] = response["model"]
    if response.get("id") is not None and "provider_response_id" not in kept:
        entry["provider_response_id"] = response["id"]
    return entry
