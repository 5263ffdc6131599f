"""A response is ``{"messages": [assistant ModelMessage], "finishReason"?, "usage"?}``: the
answer as ``response.messages`` holds it, with ``generateText``'s finish reason and usage."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ai_sdk.finish_reason import decode_finish_reason, encode_finish_reason
from chatcodec._frameworks.ai_sdk.usage import decode_usage, encode_usage, refuse_bad_counts
from chatcodec._frameworks.ai_sdk_model.messages import decode_message, encode_message
from chatcodec._frameworks.ai_sdk_model.wire import validated_history
from chatcodec._frameworks.history import answer_choice, the_answer
from chatcodec.codec_kit import as_dict, rule_error
from chatcodec.contract import DecodeContext, EncodeContext


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a stored answer as a canonical response dict."""
    del context
    history = validated_history(payload, "AI SDK response")
    if len(history["messages"]) != 1 or history["messages"][0]["role"] != "assistant":
        why = "an AI SDK response holds one assistant ModelMessage"
        raise rule_error("AI SDK response", ("messages",), "one_answer", why, payload.get("messages"))
    choice = answer_choice(decode_message(history["messages"][0]), payload.get("finishReason"), decode_finish_reason)
    response: dict[str, Any] = {"choices": [choice]}
    usage = as_dict(payload.get("usage"))
    if usage is not None:
        refuse_bad_counts(usage, "AI SDK response", ("usage",))
        response["usage"] = decode_usage(usage)
    return response


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response's first choice as a stored answer."""
    choice: Any = the_answer(response, context, "an AI SDK answer is one message")
    wire: dict[str, Any] = {"messages": [encode_message(choice["message"], {}, context, ("choices", 0, "message"))]}
    word = encode_finish_reason(choice.get("finish_reason"), {}, context, ("choices", 0, "finish_reason"))
    if word is not None:
        wire["finishReason"] = word
    if response.get("usage"):
        wire["usage"] = encode_usage(response["usage"], context, ("usage",))
    for key, what in _UNPLACED:
        if response.get(key) is not None:
            context.losses.add((key,), what, "an AI SDK answer is the ModelMessages it adds: it has none", "metadata")
    return wire


_UNPLACED = (("id", "response id"), ("model", "response model"))
"""The response's fields a stored answer has no place for (``generateText``'s ``response``
holds them; ``response.messages``, what a history keeps, does not). Its creation time is not
reported: the server's clock is nothing a user sent (``law_server_facts``)."""
