"""A model call's answer as its span holds it: ``{"gen_ai.output.messages": [...],
"gen_ai.response.id"?, "gen_ai.response.model"?, "gen_ai.usage.*_tokens"?,
"gen_ai.response.finish_reasons"?, ...}`` <-> a canonical
response, a choice per output message, its ``finish_reason`` the choice's, its token counts the
usage (:mod:`.usage`). The span's other attributes (its input messages among them) ride in the
response's bag.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.otel_genai.conversation import as_text, output_message
from chatcodec._frameworks.otel_genai.events import read_placed
from chatcodec._frameworks.otel_genai.finish_reason import decode_finish_reason, encode_finish_reason
from chatcodec._frameworks.otel_genai.markers import (
    FINISH_REASONS,
    KIT,
    OUTPUT,
    PROVIDER,
    RESPONSE_ID,
    RESPONSE_MODEL,
)
from chatcodec._frameworks.otel_genai.messages import decode_message
from chatcodec._frameworks.otel_genai.token_counts import PREFIX as USAGE_PREFIX
from chatcodec._frameworks.otel_genai.token_counts import read_usage, write_usage
from chatcodec._frameworks.otel_genai.wire import TITLE, attribute, checked, checked_messages, plain_attributes
from chatcodec.codec_kit import as_dict, leftovers, refuse_unwritable_numbers, rule_error, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext

_MAPPED = (OUTPUT, RESPONSE_ID, RESPONSE_MODEL, FINISH_REASONS)
"""The attributes a response maps (and every ``gen_ai.usage.*`` one, :mod:`.usage`)."""


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a span's answer as a canonical response dict."""
    del context
    return read_placed(plain_attributes(payload), _decode_row)


def _decode_row(payload: dict[str, Any]) -> dict[str, Any]:
    refuse_unwritable_numbers(payload)
    listed, text = attribute(payload, OUTPUT)
    if not listed:
        why = "a GenAI answer is the span's gen_ai.output.messages, one message or more"
        raise rule_error(
            TITLE, (OUTPUT,), "output_messages" if OUTPUT in payload else "missing", why, payload.get(OUTPUT)
        )
    choices = [
        _choice(index, message, text) for index, message in enumerate(checked(checked_messages, listed, OUTPUT, text))
    ]
    response: dict[str, Any] = {"choices": choices}
    for key, field in ((RESPONSE_ID, "id"), (RESPONSE_MODEL, "model")):
        if payload.get(key) is not None:
            if not isinstance(payload[key], str):
                raise rule_error(TITLE, (key,), field, f"the response's {field} is a string", payload[key])
            response[field] = payload[key]
    usage = read_usage(payload)
    if usage is not None:
        response["usage"] = usage
    kept = {key: value for key, value in leftovers(payload, _MAPPED).items() if not key.startswith(USAGE_PREFIX)}
    if text:
        kept["_text"] = True
    return KIT.attach(response, kept)


def _choice(index: int, message: dict[str, Any], text: bool) -> dict[str, Any]:
    read = decode_message(message)
    if read[-1]["role"] != "assistant" or len(read) != 1:  # ``model`` (Gemini's) is the assistant too
        why = "an output message is the assistant's answer"
        if text:  # the place the input has: the attribute
            raise rule_error(TITLE, (OUTPUT,), "assistant", f"[{index}].role in the attribute's JSON text: {why}", None)
        raise rule_error(TITLE, (OUTPUT, index, "role"), "assistant", why, message["role"])
    answer = read[0]
    own = as_dict(as_dict(answer.get("provider_metadata")) and answer["provider_metadata"].get(PROVIDER)) or {}
    word = own.pop("finish_reason", None)
    if not own:
        answer.get("provider_metadata", {}).pop(PROVIDER, None)
        if not answer.get("provider_metadata"):
            answer.pop("provider_metadata", None)
    choice: dict[str, Any] = {"index": index, "message": answer}
    reason = decode_finish_reason(word if isinstance(word, str) else None, {})
    if reason is not None:
        choice["finish_reason"] = reason
    return choice


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical response as a span's answer attributes."""
    kept = KIT.claim(context.losses, response.get("provider_metadata"), ())
    outputs: list[dict[str, Any]] = []
    words: list[str] = []
    for index, choice in enumerate(response.get("choices") or ()):
        at = ("choices", index)
        word = encode_finish_reason(choice.get("finish_reason"), {}, context, (*at, "finish_reason"))
        outputs.append(output_message(choice["message"], word, context, (*at, "message")))
        words.append(word or "")
    attributes: dict[str, Any] = {OUTPUT: outputs}
    if kept.get(FINISH_REASONS) is not None or any(words):
        attributes[FINISH_REASONS] = words
    for key, field in ((RESPONSE_ID, "id"), (RESPONSE_MODEL, "model")):
        if response.get(field) is not None:
            attributes[key] = response[field]
    attributes.update(write_usage(response.get("usage") or {}, context))
    for key, value in wire_fields(kept).items():
        attributes.setdefault(key, value)
    return as_text(attributes, [OUTPUT]) if kept.get("_text") else attributes
