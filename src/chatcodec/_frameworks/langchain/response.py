"""A response is the ``AIMessage`` a chat model returned, stored as a history stores it.

Its ``usage_metadata`` is the response's usage and ``response_metadata``'s ``finish_reason``
(or ``stop_reason``) its finish reason; both stay in the message's bag too, so the message
written back is the message read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.history import answer_choice, the_answer, validated_answer
from chatcodec._frameworks.langchain.finish_reason import decode_finish_reason, encode_finish_reason
from chatcodec._frameworks.langchain.markers import KIT
from chatcodec._frameworks.langchain.messages import encode_message
from chatcodec._frameworks.langchain.usage import decode_usage, encode_usage
from chatcodec._frameworks.langchain.wire import validated_history
from chatcodec.codec_kit import as_dict
from chatcodec.contract import DecodeContext, EncodeContext


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a stored ``AIMessage`` as a canonical response dict."""
    from chatcodec._frameworks.langchain.messages import decode_messages, unwrap

    entry = validated_answer(validated_history, payload, "LangChain AIMessage")
    _, data, _ = unwrap(entry)
    meta: Any = data.get("response_metadata") or {}
    word: Any = meta.get("finish_reason", meta.get("stop_reason"))
    response: dict[str, Any] = {
        "choices": [answer_choice(decode_messages([entry], context)[0], word, decode_finish_reason)]
    }
    if isinstance(data.get("usage_metadata"), dict):
        response["usage"] = decode_usage(data["usage_metadata"])
    if isinstance(data.get("id"), str):
        response["id"] = data["id"]
    if isinstance(meta.get("model_name"), str):
        response["model"] = meta["model_name"]
    return response


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response's first choice as a stored ``AIMessage``."""
    choice: Any = the_answer(response, context, "a LangChain AIMessage is one answer")
    entry = encode_message(choice["message"], context, ("choices", 0, "message"))
    data = as_dict(entry.get("data", entry.get("kwargs")))
    assert data is not None
    kept = KIT.own(choice["message"].get("provider_metadata"))
    if response.get("usage") and "usage_metadata" not in kept:
        data["usage_metadata"] = encode_usage(response["usage"], context, ("usage",))
    meta: Any = (
        data.setdefault("response_metadata", {}) if "response_metadata" not in kept else data["response_metadata"]
    )
    word = encode_finish_reason(choice.get("finish_reason"), {}, context, ("choices", 0, "finish_reason"))
    if word is not None and "finish_reason" not in meta and "stop_reason" not in meta:
        meta["finish_reason"] = word
    if response.get("model") is not None and "model_name" not in meta:
        meta["model_name"] = response["model"]
    if response.get("id") is not None and "id" not in kept:
        data["id"] = response["id"]
    return entry
