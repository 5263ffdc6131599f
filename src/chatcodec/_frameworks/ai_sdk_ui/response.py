"""A response is ``{"messages": [assistant UIMessage]}`` without tool outputs: one answer.

A ``UIMessage`` has no usage or finish reason of its own; an app puts what it wants of the
answer in the message's ``metadata`` (``toUIMessageStream({messageMetadata})``). This format
reads and writes ``metadata.usage`` (the AI SDK's ``LanguageModelUsage``),
``metadata.finishReason`` and ``metadata.model`` there, and the response's id as the message's.
An assistant ``UIMessage`` holding answered calls is a history of several turns (assistant,
tool, assistant...), read with the request; as a response it is refused, not cut.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ai_sdk.finish_reason import decode_finish_reason, encode_finish_reason
from chatcodec._frameworks.ai_sdk.usage import decode_usage, encode_usage, refuse_bad_counts
from chatcodec._frameworks.ai_sdk_ui.messages import decode_message, encode_messages, made_up_id
from chatcodec._frameworks.ai_sdk_ui.wire import validated_history
from chatcodec._frameworks.history import answer_choice, the_answer
from chatcodec.codec_kit import as_dict, rule_error
from chatcodec.contract import DecodeContext, EncodeContext


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read one stored assistant ``UIMessage`` as a canonical response dict."""
    del context
    history = validated_history(payload, "AI SDK UI response")
    entries = history["messages"]
    if len(entries) != 1 or entries[0]["role"] != "assistant":
        why = "an AI SDK UI response holds one assistant UIMessage"
        raise rule_error("AI SDK UI response", ("messages",), "one_answer", why, payload.get("messages"))
    messages = decode_message(entries[0])
    if len(messages) != 1:
        why = "this UIMessage holds tool outputs: a history of several turns, read as a request"
        raise rule_error("AI SDK UI response", ("messages", 0), "one_answer", why, entries[0])
    metadata = as_dict(entries[0].get("metadata")) or {}
    choice = answer_choice(messages[0], metadata.get("finishReason"), decode_finish_reason)
    response: dict[str, Any] = {"choices": [choice], "id": entries[0]["id"]}
    usage = as_dict(metadata.get("usage"))
    if usage is not None:
        refuse_bad_counts(usage, "AI SDK UI response", ("messages", 0, "metadata", "usage"))
        response["usage"] = decode_usage(usage)
    if isinstance(metadata.get("model"), str):
        response["model"] = metadata["model"]
    return response


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response's first choice as one assistant ``UIMessage``."""
    choice: Any = the_answer(response, context, "an AI SDK UI answer is one message")
    written = encode_messages([choice["message"]], 0, context)
    # an answer none of whose parts has a place (each reported) is still the one message asked for
    message: dict[str, Any] = written[0] if written else {"id": made_up_id(0), "role": "assistant", "parts": []}
    if response.get("id") is not None:
        message["id"] = response["id"]
    metadata: dict[str, Any] = dict(as_dict(message.get("metadata")) or {})
    word = encode_finish_reason(choice.get("finish_reason"), {}, context, ("choices", 0, "finish_reason"))
    if word is not None:
        metadata.setdefault("finishReason", word)
    if response.get("usage"):
        metadata.setdefault("usage", encode_usage(response["usage"], context, ("usage",)))
    if response.get("model") is not None:
        metadata.setdefault("model", response["model"])
    if metadata:
        message["metadata"] = metadata
    return {"messages": [message]}
