"""A response is ``{"messages": [assistant UIMessage]}`` without tool outputs: one answer.

An assistant ``UIMessage`` holding answered calls is a history of several turns (assistant,
tool, assistant...), read with the request; as a response it is refused, not cut.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ai_sdk_ui.messages import decode_message, encode_messages
from chatcodec._frameworks.ai_sdk_ui.wire import validated_history
from chatcodec.contract import DecodeContext, EncodeContext


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read one stored assistant ``UIMessage`` as a canonical response dict."""
    del context
    history = validated_history({"messages": payload.get("messages")}, "AI SDK UI response")
    entries = history["messages"]
    if len(entries) != 1 or entries[0]["role"] != "assistant":
        raise ValueError("an AI SDK UI response holds one assistant UIMessage")
    messages = decode_message(entries[0])
    if len(messages) != 1:
        raise ValueError("this UIMessage holds tool outputs: a history of several turns, read as a request")
    return {"choices": [{"index": 0, "message": messages[0]}]}


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response's first choice as one assistant ``UIMessage``."""
    choices: Any = response.get("choices") or [{"index": 0, "message": {"role": "assistant", "content": []}}]
    for index in range(1, len(choices)):
        context.losses.add(("choices", index), "choice", "an AI SDK UI answer is one message")
    for key in ("usage", "model", "id"):
        if response.get(key) is not None:
            context.losses.add((key,), key, f"a UIMessage keeps no {key} (an app may put it in metadata)", "metadata")
    if choices[0].get("finish_reason") is not None:
        context.losses.add(("choices", 0, "finish_reason"), "finish reason", "a UIMessage keeps no finish reason")
    message = choices[0]["message"]
    return {"messages": encode_messages([message], 0, context)}
