"""Responses request body <-> :class:`~chatcodec.ChatRequest`.

``instructions`` is a leading system message (marked, so it goes back to
``instructions``, not into ``input``); ``input`` as one string is one user message
(marked), as a list it is items (:mod:`.messages`); ``max_output_tokens`` is
``max_tokens``; ``reasoning`` and ``text.format`` are the canonical settings; every other
top-level field (``previous_response_id``, ``store``, ``include``, ``truncation``,
``prompt_cache_key``, ``service_tier``, ``user`` ...) rides in
``provider_options["openai-responses"]`` and is written back verbatim.

A system message from another provider goes into ``input`` with its role (exact: the
same instructions in the same place), never into ``instructions``, which does not carry
over with ``previous_response_id``.

The API's rule on encode: a stateless request (``store: false``, or items from another
store) that replays reasoning must ask for ``include: ["reasoning.encrypted_content"]``
to keep getting it back, or the next turn's reasoning cannot be replayed. A request built
in canonical (a :class:`~chatcodec.Conversation` of Responses turns) that replays this
provider's encrypted reasoning gets that ``include`` entry added; a request read from
the wire keeps what it said.

With ``store: false`` nothing is kept server-side, so a reasoning item replayed by its
``id`` alone (no ``encrypted_content``) is a 404 "Item with id 'rs_...' not found. Items
are not persisted when `store` is set to false"
(https://platform.openai.com/docs/guides/reasoning#keeping-reasoning-items-in-context):
such an item is left out and reported.
"""

from __future__ import annotations

from typing import Any

from chatcodec.canonical_validation import validate_canonical, validate_with
from chatcodec.content import ThinkingPart
from chatcodec.losses import LossRecorder
from chatcodec.messages import MESSAGES_ADAPTER as MESSAGES_LIST_ADAPTER
from chatcodec.messages import AnyMessage, SystemMessage, UserMessage
from chatcodec.providers import service_tiers
from chatcodec.providers.history import history_for
from chatcodec.providers.kit import restore_fields, split_fields
from chatcodec.providers.kit.context import DecodeContext, EncodeContext
from chatcodec.providers.openai_responses.markers import INPUT_STRING, INSTRUCTIONS, KIT, PROVIDER
from chatcodec.providers.openai_responses.messages import decode_messages, encode_messages
from chatcodec.providers.openai_responses.plain_rules import (
    MAPPED_FIELDS,
    SCALAR_FIELDS,
    UNSENT_SETTINGS,
    text_metadata,
    unsent_setting,
    unsent_stop,
)
from chatcodec.providers.openai_responses.settings import decode_settings, encode_settings
from chatcodec.providers.openai_responses.tools import decode_tools, encode_tools
from chatcodec.providers.openai_responses.wire import ITEMS_ADAPTER, REQUEST_ADAPTER, validated
from chatcodec.request import ChatRequest

ENCRYPTED_REASONING = "reasoning.encrypted_content"
"""The ``include`` entry that makes the API return reasoning's ``encrypted_content``."""

_NO_INCLUDE = "_no_include"
_NO_INPUT = "_no_input"
_INTEGERS = "_integers"
_SAMPLING = ("temperature", "top_p")


def decode_request(payload: dict[str, Any], context: DecodeContext) -> ChatRequest:
    """Read a Responses request body (the API's rules are not enforced: decoding is not the API)."""
    request = validated(REQUEST_ADAPTER, payload, "OpenAI Responses request")
    canonical: dict[str, Any] = {key: request[key] for key in SCALAR_FIELDS if request.get(key) is not None}
    bag = split_fields(request, MAPPED_FIELDS)
    integers = [key for key in _SAMPLING if type(request.get(key)) is int]
    if integers:  # canonical holds a float: ``1`` would come back as ``1.0`` (issue 24 item 15)
        bag[_INTEGERS] = integers
    messages: list[dict[str, Any]] = []
    if isinstance(request.get("instructions"), str):
        messages.append(
            {
                "role": "system",
                "content": request["instructions"],
                "provider_metadata": {PROVIDER: {INSTRUCTIONS: True}},
            }
        )
    wire_input = request.get("input")
    if isinstance(wire_input, str):
        messages.append({"role": "user", "content": wire_input, "provider_metadata": {PROVIDER: {INPUT_STRING: True}}})
    elif wire_input is not None:
        messages.extend(decode_messages(wire_input, context))
        if "include" not in request and _replays_encrypted(wire_input):
            bag[_NO_INCLUDE] = True
    elif "input" not in request:
        bag[_NO_INPUT] = True
    canonical["messages"] = messages
    max_tokens = request.get("max_output_tokens")
    if max_tokens is not None and max_tokens >= 1:
        canonical["max_tokens"] = max_tokens
    elif max_tokens is not None:
        bag["max_output_tokens"] = max_tokens
    decode_tools(request, canonical, bag, context)
    decode_settings(request, canonical, bag, context)
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    return validate_canonical(ChatRequest, canonical)


def _as_spelled(key: str, value: object, bag: dict[str, Any]) -> object:
    """A sampling number spelled as an integer when the decoded request spelled it so."""
    integers = bag.get(_INTEGERS)
    if isinstance(value, float) and value.is_integer() and isinstance(integers, list) and key in integers:
        return int(value)
    return value


def _replays_encrypted(items: list[Any]) -> bool:
    return any(item.get("type") == "reasoning" and item.get("encrypted_content") for item in items)


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[AnyMessage]:
    """Read a bare Responses ``input`` item list (a stored conversation)."""
    wire = validate_with(ITEMS_ADAPTER, messages, "OpenAI Responses input items")
    return validate_with(MESSAGES_LIST_ADAPTER, decode_messages([dict(item) for item in wire], context), "Messages")


def encode_request(request: ChatRequest, context: EncodeContext) -> dict[str, Any]:
    """Write ``request`` as a Responses request body, applying the API's rules."""
    losses = context.losses
    request = history_for(
        request,
        losses,
        PROVIDER,
        "The Responses API",
        freeform_calls=False,
        results_follow_calls=False,
        developer_role=True,
    )
    tier, options = service_tiers.from_bedrock(request.provider_options)
    bag = KIT.claim(losses, options, ("provider_options",))
    wire = restore_fields(bag)
    wire.pop("model", None)  # an option (read into the context), not a field to send back
    if tier is not None:
        wire.setdefault("service_tier", tier)
    model = request.model if request.model is not None else context.option("model")
    if model is not None:
        wire["model"] = model
    _encode_input(request.messages, wire, bag, context)
    if request.max_tokens is not None:
        wire["max_output_tokens"] = request.max_tokens
    for key in ("temperature", "top_p", "stream"):
        value = getattr(request, key)
        if value is not None:
            wire[key] = _as_spelled(key, value, bag)
    if request.metadata is not None:
        wire["metadata"] = text_metadata(request.metadata, losses)
    for key in UNSENT_SETTINGS:
        unsent_setting(key, getattr(request, key), losses)
    if request.stop:
        unsent_stop(losses)
    encode_tools(request, wire, bag, context)
    encode_settings(request, wire, bag, context)
    if "include" not in wire and not bag.get(_NO_INCLUDE) and _has_encrypted_reasoning(request):
        wire["include"] = [ENCRYPTED_REASONING]
    return wire


def _encode_input(
    messages: list[AnyMessage], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    """``instructions`` (a marked leading system message) and ``input``."""
    start = 0
    if messages and _is_instructions(messages[0]):
        wire["instructions"] = messages[0].content
        start = 1
    if _is_input_string(messages, start):
        wire["input"] = messages[start].content
    elif len(messages) > start or not bag.get(_NO_INPUT):
        wire["input"] = encode_messages(messages, start, context)
        if wire.get("store") is False:
            wire["input"] = _without_unpersisted_reasoning(messages, wire["input"], context.losses)


def _without_unpersisted_reasoning(
    messages: list[AnyMessage], items: list[dict[str, Any]], losses: LossRecorder
) -> list[dict[str, Any]]:
    """The items without reasoning that only an id names (``store: false`` keeps none)."""
    unpersisted = {
        item["id"]
        for item in items
        if item.get("type") == "reasoning" and isinstance(item.get("id"), str) and not item.get("encrypted_content")
    }
    if not unpersisted:
        return items
    why = "with store: false the API keeps no item to find by id, and it has no encrypted_content"
    for index, message in enumerate(messages):
        for part_index, part in enumerate(message.parts if message.role == "assistant" else ()):
            if isinstance(part, ThinkingPart) and KIT.own(part.provider_metadata).get("id") in unpersisted:
                losses.add(("messages", index, "content", part_index), "reasoning item replayed by id", why)
    return [item for item in items if not (item.get("type") == "reasoning" and item.get("id") in unpersisted)]


def _is_instructions(message: AnyMessage) -> bool:
    return (
        isinstance(message, SystemMessage)
        and isinstance(message.content, str)
        and KIT.marker(message.provider_metadata, INSTRUCTIONS) is True
        and message.role == "system"
        and message.name is None
        and message.cache_control is None
    )


def _is_input_string(messages: list[AnyMessage], start: int) -> bool:
    if len(messages) != start + 1:
        return False
    message = messages[start]
    return (
        isinstance(message, UserMessage)
        and isinstance(message.content, str)
        and KIT.marker(message.provider_metadata, INPUT_STRING) is True
        and message.name is None
        and message.cache_control is None
    )


def _has_encrypted_reasoning(request: ChatRequest) -> bool:
    return any(
        isinstance(part, ThinkingPart) and part.provider == PROVIDER and part.encrypted
        for message in request.messages
        if message.role == "assistant" and not isinstance(message.content, str)
        for part in message.content
    )
