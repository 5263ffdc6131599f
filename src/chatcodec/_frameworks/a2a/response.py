"""A response is the agent's ``Message`` (what ``SendMessage`` answers with when no task is
made), bare or as its ``SendMessageResponse`` holds it (``{"message": ...}``, written back so:
the ``_in`` marker in the response's bag): its parts the answer, its ``messageId`` the
response's ``id``, its other fields in the message's bag. A task is no answer but the
conversation it holds: it is read as a request. An A2A message names no model, counts no
tokens and has no finish reason (it is the agent's whole word): written, a model, a non-zero
count and a finish other than ``stop`` are losses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec import ValidationError
from chatcodec._frameworks.a2a.markers import AGENT, DISPLAY, KIT, WRAPPED
from chatcodec._frameworks.a2a.messages import decode_message, default_id, encode_message, with_id
from chatcodec._frameworks.a2a.wire import validated_message
from chatcodec._frameworks.history import the_answer
from chatcodec.codec_kit import Problem, as_dict, leftovers, problems_error, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext

TITLE = f"{DISPLAY} message"


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read an agent's message (or a ``SendMessageResponse`` holding one) as a canonical response dict."""
    if "task" in payload and "parts" not in payload:
        problem = Problem(("task",), "value_error", "a task is the conversation it holds: read it as a request", None)
        raise problems_error(TITLE, [problem])
    if "message" in payload and "parts" not in payload:
        try:
            held = decode_response(as_dict(payload["message"]) or {}, context)
        except ValidationError as error:
            problems = [
                Problem(("message", *detail["loc"]), detail["type"], detail["msg"], detail.get("input"))
                for detail in error.errors()
            ]
            raise problems_error(TITLE, problems) from None
        held["provider_metadata"] = {KIT.name: {WRAPPED: "message", **leftovers(payload, ("message",))}}
        return held
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
    message = with_id(written, 0)
    own = KIT.own(as_dict(response.get("provider_metadata")))
    if own.get(WRAPPED) == "message":
        return {"message": message, **wire_fields(own)}
    return message
