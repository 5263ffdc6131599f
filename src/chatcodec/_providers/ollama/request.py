"""Ollama ``POST /api/chat`` request bodies <-> canonical request dicts.

``messages`` are the messages (:mod:`.messages`), ``tools`` the tools (:mod:`.tools`),
``options``, ``think`` and ``format`` the settings (:mod:`.settings`). ``keep_alive``
(how long the model stays loaded: ``"5m"``, seconds, or ``0`` to unload), ``truncate``,
``shift`` and every other top-level field ride in ``provider_options["ollama"]`` and are
written back verbatim; ``logprobs`` and ``top_logprobs`` are the canonical fields of the
same names (:mod:`~chatcodec._providers.kit.logprob_settings`).

``stream`` maps to the canonical ``stream`` as it is, and a body without it stays without
it: note that the server streams when it is left out (``"stream": false`` asks for one
body), the other way round from the other formats, so a caller converting a request for a
client that wants one body sets ``stream=False``. A body without ``messages`` (the API's
way to load a model) reads as an empty conversation and is written back without them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.ollama.capabilities import CAPABILITIES
from chatcodec._providers.ollama.markers import KIT, PROVIDER
from chatcodec._providers.ollama.messages import decode_messages, encode_messages
from chatcodec._providers.ollama.settings import decode_settings, encode_settings
from chatcodec._providers.ollama.tools import decode_tools, encode_tools
from chatcodec._providers.ollama.wire import Request, validated, validated_messages
from chatcodec.codec_kit import (
    absent_keys,
    history_for,
    mark_absent,
    present_keys,
    read_logprob_settings,
    report_tier,
    report_user,
    restore_fields,
    split_fields,
    write_logprob_settings,
)
from chatcodec.contract import DecodeContext, EncodeContext

_MAPPED = ("model", "messages", "tools", "options", "think", "format", "stream")
"""Top-level fields with a canonical home (or read by :mod:`.settings` into the bag)."""

_SETTINGS_KEPT = ("options", "format")
"""Bag keys :mod:`.settings` writes back itself."""


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read an Ollama request body as a canonical request dict (the JSON
    :class:`~chatcodec.ChatRequest` validates); everything without a canonical field is kept."""
    request = validated(Request, payload, "Ollama request")
    canonical: dict[str, Any] = {}
    logprobs = read_logprob_settings(request, canonical)
    bag = split_fields(request, (*present_keys(request, *_MAPPED), *logprobs))
    mark_absent(bag, request, "messages")
    if "model" in request:
        canonical["model"] = request["model"]
    canonical["messages"] = decode_messages(request.get("messages") or [], context)
    decode_tools(request, canonical, bag, context)
    decode_settings(request, canonical, bag, context)
    if request.get("stream") is not None:
        canonical["stream"] = request["stream"]
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    return canonical


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare Ollama ``messages`` list (a stored conversation) as canonical message dicts."""
    wire = validated_messages(messages, "Ollama messages")
    return decode_messages(wire, context)


def encode_request(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical request dict as an Ollama request body; what Ollama cannot carry is
    recorded in ``context.losses``."""
    losses = context.losses
    bag = KIT.claim(losses, request.get("provider_options"), ("provider_options",))
    bag.pop("model", None)  # an option (read into the context), not a field to send back
    wire = restore_fields({key: value for key, value in bag.items() if key not in _SETTINGS_KEPT})
    model = request.get("model") if request.get("model") is not None else context.option("model")
    if model is not None:
        wire["model"] = model
    messages = history_for(request.get("messages") or [], losses, PROVIDER, CAPABILITIES, reading=context.reading)
    if messages or ("messages" not in wire and "messages" not in absent_keys(bag)):  # kept null or left out
        wire["messages"] = encode_messages(messages, 0, context)
    encode_tools(request, wire, bag, context)
    encode_settings(request, wire, bag, context)
    write_logprob_settings(request, wire)
    if request.get("stream") is not None:
        wire["stream"] = request["stream"]
    if request.get("metadata") is not None:
        losses.add(("metadata",), "metadata", "Ollama requests have no metadata field", "metadata")
    if request.get("cache_control") is not None:
        losses.add(("cache_control",), "cache_control", "Ollama has no prompt-cache breakpoints", "setting")
    for key in ("verbosity", "prompt_cache_key", "safety_identifier"):
        if request.get(key) is not None:
            losses.add((key,), key, f"Ollama has no {key} setting", "setting")
    report_user(request.get("user"), losses, "Ollama")
    report_tier(request.get("service_tier"), losses, "Ollama")
    return wire
