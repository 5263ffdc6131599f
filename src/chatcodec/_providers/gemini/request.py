"""Gemini ``generateContent`` request <-> :class:`~chatcodec.ChatRequest`.

``contents`` and ``systemInstruction`` are the messages (:mod:`.messages`), ``tools`` and
``toolConfig`` the tools (:mod:`.tools`), ``generationConfig`` the settings
(:mod:`.settings`). ``safetySettings``, ``cachedContent``, ``labels`` and every other
top-level field ride in ``provider_options["gemini"]`` and are written back verbatim,
in the spelling they came in (:mod:`.spelling`).

The model is part of the URL, not the body: the REST API refuses a ``model`` field
("Invalid JSON payload received. Unknown name \"model\""), so the encoder leaves it out
and a caller puts ``request.model`` in the URL. A body that names one
(``model``, as SDK dumps do) gives the canonical model and the ``_model_in_body`` marker,
so such a dump round-trips.

One reader and one writer, over canonical data (no model is built here): the reader
checks the body with the closed schema of the common shapes first (``wire.checked_request``:
one validation in Rust), else with the full wire shapes, then reads it with one set of
reading functions, the plain shapes first in each; the writer takes canonical request
data (``ChatRequest.model_dump()`` or a reader's output; a key holding its default may be
absent) and writes each plain part as it is. Encoder options arrive in the context:
``missing_signature`` (see :mod:`.signatures`) and ``tools_layout`` (:mod:`.tools`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._providers.gemini import wire as shapes
from chatcodec._providers.gemini.capabilities import CAPABILITIES
from chatcodec._providers.gemini.markers import KIT, NO_CACHE_MARKER, PROVIDER, SNAKE, SYNTHESIZED_ID
from chatcodec._providers.gemini.messages import (
    decode_messages,
    decode_system,
    encode_messages,
    encode_system,
    leading_system_count,
)
from chatcodec._providers.gemini.parts import GeminiContext
from chatcodec._providers.gemini.settings import decode_settings, encode_settings
from chatcodec._providers.gemini.spelling import snake_cased
from chatcodec._providers.gemini.tools import decode_tools, encode_tools
from chatcodec._providers.gemini.wire import REQUEST, Content, checked_request, holds_json, refuse_unheld, validated
from chatcodec.codec_kit import history_for, leftovers, read_tier, report_user, restore_fields, shape_fields, write_tier
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder

_MAPPED = shape_fields(shapes.Request)
"""The fields the request shape types (``wire.py``), all read here: any other is kept."""
SERVICE_TIERS = {"flex": "flex", "standard": "default", "priority": "priority"}
"""Gemini's tiers (google-genai 3.4 ``ServiceTier``, sent as the request's ``serviceTier``;
``standard`` is OpenAI's ``default``), canonical's words
(:mod:`chatcodec._providers.kit.service_tier`)."""
_KNOBS = ("missing_signature",)
MODEL_IN_BODY = "_model_in_body"

JSON_FRONT = REQUEST
"""The closed schema that parses a JSON body and validates it in one pass in Rust
(:meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.read_request_json`)."""


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a Gemini request body, in either spelling, as canonical request data (the
    API's rules are not enforced)."""
    request, snake, common = checked_request(payload)
    context.closed = common
    canonical: dict[str, Any] = {}
    bag = leftovers(request, _MAPPED)
    if "model" in request:
        canonical["model"] = request["model"]
        bag[MODEL_IN_BODY] = True
    if snake:
        bag[SNAKE] = snake
    digits = (sys.get_int_max_str_digits() or sys.maxsize) if common else 0
    messages = decode_messages(request["contents"], context, digits=digits)
    if "systemInstruction" in request:
        messages.insert(0, decode_system(request["systemInstruction"]))
    canonical["messages"] = messages
    decode_tools(request, canonical, bag, context)
    decode_settings(request, canonical, bag, context)
    tier = read_tier(request.get("serviceTier"), SERVICE_TIERS)
    if tier is not None:
        canonical["service_tier"] = tier
        bag.pop("serviceTier", None)
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    if not common and not holds_json(request):
        refuse_unheld("request", canonical)
    return canonical


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare Gemini ``contents`` list (a stored conversation) as canonical messages."""
    contents, _ = validated(list[Content], messages, "Gemini contents")
    canonical = decode_messages(contents, context)
    if not holds_json(messages):
        refuse_unheld("messages", canonical)
    return canonical


CONTEXT = GeminiContext
"""The context :func:`encode_request` writes with, which the codec makes at once for it
(:meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.write_request`), so no
second one is made from the shared fields."""


def encode_request(request: Mapping[str, Any], shared: EncodeContext) -> dict[str, Any]:
    """Write canonical request data as a Gemini request body, applying the API's rules."""
    losses = shared.losses
    read: list[Any] = request.get("messages", [])
    messages = history_for(read, losses, PROVIDER, CAPABILITIES, reading=shared.reading)
    bag = KIT.claim(losses, request.get("provider_options"), ("provider_options",))
    for key in _KNOBS:  # options (read into the context), not fields to send
        bag.pop(key, None)
    names, synthesized = _calls(messages)
    context = shared if type(shared) is GeminiContext else shared.extend(GeminiContext)  # the codec's: CONTEXT
    context.synthesized = synthesized
    context.names = names
    wire = restore_fields(bag)
    model = request.get("model")
    if model is not None and bag.get(MODEL_IN_BODY):
        wire["model"] = model
    leading = leading_system_count(messages)
    system = encode_system(messages[:leading], context)
    if system == _NO_INSTRUCTION:  # an empty system prompt (Bedrock's `system: []`) says nothing
        system = None
    if system is not None and leading == len(messages):
        wire["contents"] = [system_as_turn(system, losses)]
    else:
        if system is not None:
            wire["systemInstruction"] = system
        wire["contents"] = encode_messages(messages, leading, context)
        if not wire["contents"] and messages:
            losses.add(("messages",), "conversation", _NO_CONTENTS)
    encode_tools(request, wire, bag, context)
    encode_settings(request, wire, bag, context)
    tier = request.get("service_tier")
    if tier is not None:
        written = write_tier(tier, SERVICE_TIERS, losses, "Gemini")
        if written is not None:
            wire["serviceTier"] = written
    report_unmapped(request.get("stream"), request.get("metadata"), request.get("cache_control"), losses)
    report_user(request.get("user"), losses, "Gemini")
    for key in _UNSENT:  # (thinkingLevel is the thinking's, not the answer's length)
        if request.get(key) is not None:
            losses.add((key,), key, f"Gemini has no {key} setting", "setting")
    return snake_cased(wire, bag.get(SNAKE))


_UNSENT = ("verbosity", "prompt_cache_key", "safety_identifier")
"""Canonical settings Gemini has no field for (its caches are made ahead and named, not keyed)."""

_NO_INSTRUCTION: dict[str, list[object]] = {"parts": []}
"""The ``systemInstruction`` of system messages with no part: not written, as nothing is
lost by leaving it out, and Gemini refuses a ``Content`` of no parts ("contents.parts must
not be empty"; gateways drop it too: https://github.com/QuantumNous/new-api/pull/1226)."""
_NO_CONTENTS = (
    'nothing in it could be sent, and Gemini refuses a request with no contents (400 "contents is not specified";'
    " the API reference marks contents Required)"
)


def system_as_turn(system: dict[str, Any] | str, losses: LossRecorder) -> dict[str, Any]:
    """A request of system messages only as one user turn: ``generateContent`` requires
    ``contents`` and refuses a request with none (Gemini API reference, ``contents``
    "Required"; LangChain google-genai raises "contents are required." before sending), so
    the instruction is what the model is given to answer, reported."""
    why = "Gemini requires contents: a request of system messages only is sent as one user turn"
    losses.add(("messages",), "system prompt", why)
    if isinstance(system, str):
        return {"role": "user", "parts": [{"text": system}]}
    return {**system, "role": "user", "parts": system.get("parts", [])}


def report_unmapped(stream: bool | None, metadata: object, cache_control: object, losses: LossRecorder) -> None:
    """The request fields Gemini has no place for, reported."""
    if stream:
        losses.add(
            ("stream",), "stream", "Gemini streams by endpoint (streamGenerateContent), not by a field", "setting"
        )
    if metadata is not None:
        losses.add(("metadata",), "metadata", "Gemini requests have no metadata field", "metadata")
    if cache_control is not None:
        losses.add(("cache_control",), "cache_control", NO_CACHE_MARKER, "setting")


def _calls(messages: Sequence[Mapping[str, Any]]) -> tuple[dict[str, str], frozenset[str]]:
    """Tool names by call id (a Gemini result must name its function), and the ids the
    decoder made up for calls (results answering them are sent without an id)."""
    names: dict[str, str] = {}
    synthesized: list[str] = []
    for message in messages:
        if message["role"] != "assistant":
            continue
        content = message.get("content", "")
        if isinstance(content, str):
            continue
        for part in content:
            if part["type"] != "tool_use":
                continue
            names[part["id"]] = part["name"]
            if "provider_metadata" in part and KIT.marker(part["provider_metadata"], SYNTHESIZED_ID) is True:
                synthesized.append(part["id"])
    return names, frozenset(synthesized)
