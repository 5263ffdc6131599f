"""A response is the agent's ``Message`` (what ``SendMessage`` answers with when no task is
made): its parts the answer, its ``messageId`` the response's ``id``, its other fields in the
message's bag. An A2A message names no model and counts no tokens, and has no finish reason
(it is the agent's whole word): written, a model, a non-zero count and a finish other than
``stop`` are losses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.a2a.markers import AGENT, DISPLAY, KIT
from chatcodec._frameworks.a2a.messages import decode_message, default_id, encode_message, with_id
from chatcodec._frameworks.a2a.wire import validated_message
from chatcodec._frameworks.history import the_answer
from chatcodec.codec_kit import Problem, as_dict, problems_error
from chatcodec.contract import DecodeContext, EncodeContext

TITLE = f"{DISPLAY} message"


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read an agent's message as a canonical response dict."""
    del context
    message = validated_message(payload, TITLE)
    if message["role"] != AGENT:
        problem = Problem(("role",), "value_error", f"an answer is the agent's: {AGENT}", message["role"])
        raise problems_error(TITLE, [problem])
    answer = decode_message(message, default_id(0))
    bags = as_dict(answer.get("provider_metadata")) or {}
    bag = as_dict(bags.get(KIT.name)) or {}
    response: dict[str, Any] = {"choices": [{"index": 0, "message": answer}]}
    if "messageId" in bag:  # the response's id
        response["id"] = bag.pop("messageId")
        if not bag:
            del answer["provider_metadata"]
    return response


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response as the agent's message."""
    losses = context.losses
    choice = the_answer(response, context, f"an {DISPLAY} answer is one message")
    at = ("choices", 0, "message")
    written = encode_message(choice["message"], context, at) or {"role": AGENT, "parts": []}
    if response.get("id") is not None:
        if written.get("messageId") is not None:
            losses.add(at, "messageId", "written from the response's own id", "metadata")
        written["messageId"] = response["id"]
    KIT.report_foreign(losses, response.get("provider_metadata"), ())
    if response.get("model") is not None:
        losses.add(("model",), "model", f"an {DISPLAY} message names no model", "metadata")
    usage = as_dict(response.get("usage")) or {}
    if any(isinstance(count, int) and count for count in usage.values()):
        losses.add(("usage",), "token counts", f"an {DISPLAY} message counts no tokens", "metadata")
    reason = as_dict(choice.get("finish_reason"))
    if reason is not None and reason.get("unified") != "stop":
        why = f"an {DISPLAY} message is the agent's whole word: it has no finish reason"
        losses.add(("choices", 0, "finish_reason"), "finish reason", why, "metadata")
    if choice.get("logprobs"):
        losses.add(("choices", 0, "logprobs"), "token log probabilities", f"{DISPLAY} has none", "metadata")
    return with_id(written, 0)
