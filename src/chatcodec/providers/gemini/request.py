"""Gemini ``generateContent`` request <-> :class:`~chatcodec.ChatRequest`.

``contents`` and ``systemInstruction`` are the messages (:mod:`.messages`), ``tools`` and
``toolConfig`` the tools (:mod:`.tools`), ``generationConfig`` the settings
(:mod:`.settings`). ``safetySettings``, ``cachedContent``, ``labels`` and every other
top-level field ride in ``provider_options["gemini"]`` and are written back verbatim,
in the spelling they came in (:mod:`.spelling`).

The model is part of the URL, not the body: the REST API refuses a ``model`` field
("Invalid JSON payload received. Unknown name \"model\""), so the encoder leaves it out
and a caller puts ``request.model`` in the URL (issue 23). A body that names one
(``model``, as SDK dumps do) gives the canonical model and the ``_model_in_body`` marker,
so such a dump round-trips.
Encoder options in ``provider_options["gemini"]``: ``missing_signature`` (see
:mod:`.signatures`).
"""

from __future__ import annotations

from typing import Any

from chatcodec.canonical_validation import validate_canonical, validate_with
from chatcodec.losses import LossRecorder
from chatcodec.messages import MESSAGES_ADAPTER as MESSAGES_LIST_ADAPTER
from chatcodec.messages import AnyMessage
from chatcodec.providers.gemini.markers import KIT, PROVIDER, SNAKE, SYNTHESIZED_ID
from chatcodec.providers.gemini.messages import (
    decode_messages,
    decode_system,
    encode_messages,
    encode_system,
    leading_system_count,
)
from chatcodec.providers.gemini.parts import GeminiContext
from chatcodec.providers.gemini.settings import decode_settings, encode_settings
from chatcodec.providers.gemini.spelling import snake_cased
from chatcodec.providers.gemini.tools import decode_tools, encode_tools
from chatcodec.providers.gemini.wire import CONTENTS_ADAPTER, REQUEST_ADAPTER, validated
from chatcodec.providers.history import history_for
from chatcodec.providers.kit import leftovers, restore_fields
from chatcodec.providers.kit.context import DecodeContext, EncodeContext
from chatcodec.request import ChatRequest

_MAPPED = ("model", "contents", "systemInstruction", "tools", "toolConfig", "generationConfig")
_KNOBS = ("missing_signature",)
MODEL_IN_BODY = "_model_in_body"


def decode_request(payload: dict[str, Any], context: DecodeContext) -> ChatRequest:
    """Read a Gemini request body, in either spelling (the API's rules are not enforced)."""
    request, snake = validated(REQUEST_ADAPTER, payload, "Gemini request")
    canonical: dict[str, Any] = {}
    bag = leftovers(request, _MAPPED)
    if request.get("model") is not None:
        canonical["model"] = request["model"]
        bag[MODEL_IN_BODY] = True
    if snake:
        bag[SNAKE] = snake
    messages = decode_messages(request["contents"], context)
    if "systemInstruction" in request:
        messages.insert(0, decode_system(request["systemInstruction"]))
    canonical["messages"] = messages
    decode_tools(request, canonical, bag, context)
    decode_settings(request, canonical, bag, context)
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    return validate_canonical(ChatRequest, canonical)


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[AnyMessage]:
    """Read a bare Gemini ``contents`` list (a stored conversation)."""
    contents, _ = validated(CONTENTS_ADAPTER, messages, "Gemini contents")
    return validate_with(MESSAGES_LIST_ADAPTER, decode_messages(contents, context), "Messages")


def encode_request(request: ChatRequest, shared: EncodeContext) -> dict[str, Any]:
    """Write ``request`` as a Gemini request body, applying the API's rules."""
    losses = shared.losses
    request = history_for(
        request, losses, PROVIDER, "Gemini", freeform_calls=False, results_follow_calls=True, developer_role=False
    )
    bag = KIT.claim(losses, request.provider_options, ("provider_options",))
    for key in _KNOBS:  # options (read into the context), not fields to send
        bag.pop(key, None)
    context = shared.extend(GeminiContext, synthesized=_synthesized_ids(request), names=_names(request))
    wire = restore_fields(bag)
    if request.model is not None and bag.get(MODEL_IN_BODY):
        wire["model"] = request.model
    leading = leading_system_count(request.messages)
    system = encode_system(request.messages[:leading], context)
    if system is not None:
        wire["systemInstruction"] = system
    wire["contents"] = encode_messages(request.messages, leading, context)
    encode_tools(request, wire, bag, context)
    encode_settings(request, wire, bag, context)
    report_unmapped(request.stream, request.metadata, request.cache_control, losses)
    return snake_cased(wire, bag.get(SNAKE))


def report_unmapped(stream: bool | None, metadata: object, cache_control: object, losses: LossRecorder) -> None:
    """The request fields Gemini has no place for, reported (the one-pass encoder too)."""
    if stream:
        losses.add(
            ("stream",), "stream", "Gemini streams by endpoint (streamGenerateContent), not by a field", "setting"
        )
    if metadata is not None:
        losses.add(("metadata",), "metadata", "Gemini requests have no metadata field", "metadata")
    if cache_control is not None:
        losses.add(("cache_control",), "cache_control", "Gemini caches whole prompts (cachedContent)", "setting")


def _names(request: ChatRequest) -> dict[str, str]:
    """Tool names by call id: a Gemini result must name its function."""
    return {
        call.id: call.name for message in request.messages if message.role == "assistant" for call in message.tool_calls
    }


def _synthesized_ids(request: ChatRequest) -> frozenset[str]:
    """Ids the decoder made up for calls: results answering them are sent without an id."""
    return frozenset(
        call.id
        for message in request.messages
        if message.role == "assistant"
        for call in message.tool_calls
        if KIT.marker(call.provider_metadata, SYNTHESIZED_ID) is True
    )
