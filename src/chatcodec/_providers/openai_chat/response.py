"""``chat.completion`` response bodies, both ways.

Every choice is kept (``n`` > 1), its ``logprobs`` are the canonical ones (:mod:`.logprobs`),
and what has no canonical field is kept too: OpenRouter's ``native_finish_reason`` (and
logprobs of another shape) in the choice's bag, message
``annotations``, ``audio`` and ``refusal: null`` in the message's bag, and
``system_fingerprint``, ``service_tier``, ``moderation`` or OpenRouter's ``provider`` in
the response's bag. A ``null`` in a field the SDK or a compatible server documents (vLLM's
``kv_transfer_params: null`` on every answer) is spelling (:mod:`.null_spelling`).

The SDK's ``ChatCompletion`` requires ``id``, ``created``, ``model`` and each choice's
``finish_reason``. A canonical response from elsewhere may lack them; ``id`` and ``model``
are then written as ``""`` and ``created`` as the current time (a client that sorts or
expires by it reads 1970 from ``0``), and a usage's missing ``prompt_tokens`` or
``completion_tokens`` as 0 (:mod:`.usage`): each is reported, as read back it is a value the
answer never had (:mod:`chatcodec._providers.kit.invented`). A missing finish reason is
written as ``"stop"``, also with a loss.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._providers.families.openai.edge import raise_openai_error
from chatcodec._providers.openai_chat import reasoning
from chatcodec._providers.openai_chat.assistant import decode_assistant, encode_assistant
from chatcodec._providers.openai_chat.finish_reason import (
    decode_finish_reason,
    encode_finish_reason,
    encode_unknown_finish,
)
from chatcodec._providers.openai_chat.logprobs import (
    NO_REFUSAL,
    lacks_refusal,
    place_choice_logprobs,
    read_choice_logprobs,
)
from chatcodec._providers.openai_chat.markers import KIT
from chatcodec._providers.openai_chat.null_spelling import documented_nulls, message_fields
from chatcodec._providers.openai_chat.usage import decode_usage, encode_usage
from chatcodec._providers.openai_chat.wire_validators import fully_validated, response_adapter
from chatcodec.codec_kit import (
    INVENTED_TIME,
    absent_keys,
    leftovers,
    mark_absent,
    present_keys,
    report_invented,
)

if TYPE_CHECKING:
    from chatcodec.contract import DecodeContext, EncodeContext

OBJECT = "chat.completion"
OWNER = "an OpenAI ChatCompletion"
_PLACEHOLDERS: tuple[tuple[str, object], ...] = (("id", ""), ("created", 0), ("model", ""))


def decode_response(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a response body as canonical data; everything without a canonical field is kept.

    An error body (``{"error": {...}}``, what a 4xx/5xx carries) raises
    :class:`~chatcodec.ProviderAPIError` with the provider's message and type.
    """
    if "error" in payload and "choices" not in payload:
        raise_openai_error(payload, KIT.name)
    validated = fully_validated(response_adapter(), payload, "OpenAI Chat response")
    wire: dict[str, Any] = dict(validated)
    known = present_keys(wire, "id", "created", "model")
    data: dict[str, Any] = {key: wire[key] for key in known}
    mapped = ["choices", *known]
    if wire.get("object") == OBJECT:
        mapped.append("object")
    data["choices"] = [decode_choice(choice) for choice in wire["choices"]]
    if isinstance(wire.get("usage"), dict):
        data["usage"] = decode_usage(wire["usage"])
        mapped.append("usage")
    bag = documented_nulls(leftovers(wire, mapped), "ChatCompletion")
    mark_absent(bag, wire, "id", "object", "created", "model")
    data = KIT.attach(data, bag)
    indexes = {choice["index"] for choice in data["choices"]}
    if not indexes or len(indexes) < len(data["choices"]):
        _refused(data)  # no choice, or two at one index: the canonical response's rules
    return data


def _refused(data: dict[str, Any]) -> None:
    """Raise the canonical response's error for ``data`` (what the wire lets through and a
    :class:`~chatcodec.ChatResponse` refuses: its path and rule, as decoding to the model
    gives them)."""
    from chatcodec import ChatResponse
    from chatcodec.codec_kit import validate_canonical

    validate_canonical(ChatResponse, data)


def decode_choice(choice: dict[str, Any]) -> dict[str, Any]:
    """One wire choice as a canonical choice dict."""
    message = decode_assistant(choice["message"], response=True)
    canonical: dict[str, Any] = {"index": choice["index"], "message": message}
    bag = leftovers(choice, ("index", "message", *present_keys(choice, "finish_reason")))
    content = message["content"]
    has_calls = content.__class__ is list and any(part["type"] == "tool_use" for part in content)
    finish_reason = decode_finish_reason(choice.get("finish_reason"), bag, has_tool_calls=has_calls)
    if finish_reason is not None:
        canonical["finish_reason"] = finish_reason
    tokens = read_choice_logprobs(bag.get("logprobs"))
    if tokens is not None:
        canonical["logprobs"] = tokens
        if lacks_refusal(bag.pop("logprobs")):
            bag[NO_REFUSAL] = True
    mark_absent(documented_nulls(bag, "Choice"), choice, "finish_reason")
    return KIT.attach(canonical, bag)


def encode_response(response: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a body for canonical response data; what OpenAI cannot carry is recorded in
    ``context.losses``."""
    losses = context.losses
    metadata = response.get("provider_metadata")
    KIT.report_foreign(losses, metadata, ())
    bag = KIT.own(metadata)
    reasoning_field = reasoning.output_option(context, ("options", reasoning.PUBLIC_OPTION))
    left_out = absent_keys(bag)
    wire = message_fields(bag)
    for key, default in _PLACEHOLDERS:
        value = response.get(key)
        if value is not None:
            wire[key] = value
        elif key not in left_out and key not in wire:
            wire[key] = int(time.time()) if key == "created" else default
            report_invented(losses, (key,), key, OWNER, INVENTED_TIME if key == "created" else default)
    if "object" not in wire and "object" not in left_out:
        wire["object"] = OBJECT
    wire["choices"] = [
        _encode_choice(choice, reasoning_field, context, index) for index, choice in enumerate(response["choices"])
    ]
    usage = response.get("usage")
    if usage is not None:
        wire["usage"] = encode_usage(usage, context, ("usage",))
    return wire


def _encode_choice(
    choice: Mapping[str, Any], reasoning_field: str | None, context: EncodeContext, index: int
) -> dict[str, Any]:
    losses = context.losses
    metadata = choice.get("provider_metadata")
    KIT.report_foreign(losses, metadata, ("choices", index))
    bag = KIT.own(metadata)
    at = ("choices", index, "message")
    message = encode_assistant(choice["message"], reasoning_field, losses, at, response=True)
    wire = message_fields(bag)
    tokens = choice.get("logprobs")
    if tokens is not None:
        wire = place_choice_logprobs(wire, tokens, losses, ("choices", index), bag)
    wire.update(index=choice.get("index", 0), message=message)
    at = ("choices", index, "finish_reason")
    finish_reason = choice.get("finish_reason")
    if finish_reason is not None:
        wire["finish_reason"] = encode_finish_reason(finish_reason, bag, context, at)
    elif "finish_reason" not in wire and "finish_reason" not in absent_keys(bag):
        wire["finish_reason"] = encode_unknown_finish(losses, at)
    return wire
