"""A response is ``{"messages": [...]}``: the AG-UI messages one answer became (its reasoning
messages, then its assistant message), as a run's ``MESSAGES_SNAPSHOT`` ends with them.

AG-UI messages hold no usage, finish reason or model (a run's ``RUN_FINISHED`` event does, in
the stream), so writing a response reports each; the response's id is its assistant message's.
A list that reads as more than one canonical message (a tool result, a user's turn) is no
answer: refused, not cut.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ag_ui.markers import DISPLAY, KIT
from chatcodec._frameworks.ag_ui.messages import decode_messages, encode_messages
from chatcodec._frameworks.ag_ui.wire import validated_history
from chatcodec._frameworks.history import the_answer
from chatcodec.codec_kit import as_dict, rule_error
from chatcodec.contract import DecodeContext, EncodeContext

_TITLE = f"{DISPLAY} response"
_NO_FIELD = f"an {DISPLAY} message has no field for it (a run's RUN_FINISHED event does)"


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read the messages of one answer as a canonical response dict."""
    history = validated_history(payload, _TITLE)
    messages = decode_messages(history["messages"], context)
    if len(messages) != 1 or messages[0]["role"] != "assistant":
        why = f"an {DISPLAY} answer is one assistant message and the reasoning before it"
        raise rule_error(_TITLE, ("messages",), "one_answer", why, payload.get("messages"))
    message = messages[0]
    response: dict[str, Any] = {"choices": [{"index": 0, "message": message}]}
    bag = KIT.own(message.get("provider_metadata"))
    if isinstance(bag.get("id"), str):
        response["id"] = bag.pop("id")
        _put_bag(message, bag)
    return response


def _put_bag(message: dict[str, Any], bag: dict[str, Any]) -> None:
    bags = dict(as_dict(message.get("provider_metadata")) or {})
    bags.pop(KIT.name, None)
    if bag:
        bags[KIT.name] = bag
    if bags:
        message["provider_metadata"] = bags
    else:
        message.pop("provider_metadata", None)


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response's first choice as the AG-UI messages of one answer."""
    choice: Any = the_answer(response, context, f"an {DISPLAY} answer is one message")
    message = dict(choice["message"])
    if response.get("id") is not None:
        bag = KIT.own(message.get("provider_metadata"))
        if bag.get("id") not in (None, response["id"]):
            context.losses.add(("id",), "response id", "the assistant message keeps its own id", "metadata")
        else:
            _put_bag(message, {**bag, "id": response["id"]})
    messages = encode_messages([message], 0, context)
    for key in ("usage", "model"):
        if response.get(key) is not None:
            context.losses.add((key,), key, _NO_FIELD, "metadata")
    if choice.get("finish_reason") is not None:
        context.losses.add(("choices", 0, "finish_reason"), "finish_reason", _NO_FIELD, "metadata")
    KIT.report_unplaced(context.losses, response.get("provider_metadata"), ("provider_metadata",), _NO_FIELD)
    KIT.report_unplaced(context.losses, choice.get("provider_metadata"), ("choices", 0, "provider_metadata"), _NO_FIELD)
    return {"messages": messages}
