"""A model call's span attributes as a request: ``{"gen_ai.system_instructions"?,
"gen_ai.input.messages", "gen_ai.output.messages"?, "gen_ai.tool.definitions"?,
"gen_ai.request.model"?, ...}`` (one line of a file of span attributes, or one span of an OTLP
export, :mod:`.otlp`) <-> a canonical request whose messages are the call's whole conversation
(:mod:`.conversation`) and whose tools are the ones it was offered (:mod:`.tool_definitions`).

The span's other attributes ride in the request's bag (written back by this format, reported
by any other); the attributes given as JSON text are written back as text. A request written
here reports its tool choice and the settings a span has no attribute for
(:mod:`.request_settings`), and the request fields a span has no place for.
``decode_message_list`` reads a bare list of the conventions' messages (what
``validate_messages`` is given).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.history import REQUEST_FIELDS, SETTINGS
from chatcodec._frameworks.otel_genai.capabilities import CAPABILITIES
from chatcodec._frameworks.otel_genai.conversation import as_text, read_conversation, write_conversation
from chatcodec._frameworks.otel_genai.events import read_placed
from chatcodec._frameworks.otel_genai.markers import (
    INPUT,
    KIT,
    MESSAGE_ATTRIBUTES,
    OUTPUT,
    PROVIDER,
    REQUEST_MODEL,
    TOOLS,
)
from chatcodec._frameworks.otel_genai.messages import decode_messages
from chatcodec._frameworks.otel_genai.request_settings import SETTINGS as REQUEST_SETTINGS
from chatcodec._frameworks.otel_genai.request_settings import WRITTEN, read_settings, write_settings
from chatcodec._frameworks.otel_genai.tool_definitions import read_tools, write_tools
from chatcodec._frameworks.otel_genai.wire import TITLE, attribute, checked, checked_messages, plain_attributes
from chatcodec.codec_kit import as_list, history_for, leftovers, refuse_unwritable_numbers, rule_error, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext

_MAPPED = (*MESSAGE_ATTRIBUTES, REQUEST_MODEL, TOOLS, *REQUEST_SETTINGS)


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read a span's attributes (or a call's events) as a canonical request dict."""
    del context
    return read_placed(plain_attributes(payload), _decode_row)


def _decode_row(payload: dict[str, Any]) -> dict[str, Any]:
    refuse_unwritable_numbers(payload)
    listed = as_list(payload.get("messages"))
    if listed is not None and not any(key in payload for key in MESSAGE_ATTRIBUTES):
        return _history(payload, listed)
    if INPUT not in payload and OUTPUT not in payload:
        why = "a model call's span holds gen_ai.input.messages or gen_ai.output.messages"
        why += " (an agent's or a tool's span holds neither)"
        raise rule_error(TITLE, (INPUT,), "missing", why, None)
    messages, texts = read_conversation(payload)
    canonical: dict[str, Any] = {"messages": messages}
    definitions, text = attribute(payload, TOOLS)
    if definitions is not None:
        texts += [TOOLS] * text
        tools, others = checked(read_tools, definitions, TOOLS, text)
        canonical.update({"tools": tools} if tools else {}, **({"provider_tools": others} if others else {}))
    canonical.update(read_settings(payload))
    model = payload.get(REQUEST_MODEL)
    if model is not None:
        if not isinstance(model, str):
            raise rule_error(TITLE, (REQUEST_MODEL,), "model", "the model is a string", model)
        canonical["model"] = model
    kept = leftovers(payload, _MAPPED)
    if texts:
        kept["_text"] = texts
    if kept:
        canonical["provider_options"] = {PROVIDER: kept}
    return canonical


def _history(payload: dict[str, Any], listed: list[Any]) -> dict[str, Any]:
    """A bare message list's history (``{"messages": [...]}``, what a file of message lists
    gives) as a canonical request: its messages are input messages."""
    canonical: dict[str, Any] = {"messages": decode_messages(checked_messages(listed, ("messages",)))}
    kept = leftovers(payload, ("messages",))
    if kept:
        canonical["provider_options"] = {PROVIDER: kept}
    return canonical


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare list of the conventions' messages as canonical message dicts."""
    del context
    refuse_unwritable_numbers(messages)
    return decode_messages(checked_messages(messages, ()))


def encode_request(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical request as a span's attributes; what they cannot hold is a loss."""
    losses = context.losses
    kept = KIT.claim(losses, request.get("provider_options"), ("provider_options",))
    messages = history_for(request.get("messages") or [], losses, PROVIDER, CAPABILITIES, reading=context.reading)
    attributes: dict[str, Any] = {}
    if request.get("model") is not None:
        attributes[REQUEST_MODEL] = request["model"]
    attributes.update(write_conversation(messages, context))
    attributes.update(write_settings(request))
    definitions = write_tools(request, context)
    if definitions is not None:
        attributes[TOOLS] = definitions
    for key, value in wire_fields(kept).items():
        if key in _MAPPED:
            losses.add(("provider_options", PROVIDER, key), key, "written from the request's own field")
        else:
            attributes[key] = value
    for key in ("tool_choice", "parallel_tool_calls"):  # the definitions are written, not how they were offered
        if request.get(key) is not None:
            losses.add((key,), key, f"a GenAI span keeps no {key}", "setting")
    for key in SETTINGS:
        if key not in WRITTEN and request.get(key) is not None:
            losses.add((key,), key, f"a GenAI span's messages keep no {key} setting", "setting")
    for key in REQUEST_FIELDS:
        if request.get(key) is not None:
            losses.add((key,), key, f"a GenAI span's messages keep no {key}", "metadata")
    texts = [key for key in as_list(kept.get("_text")) or () if isinstance(key, str)]
    return as_text(attributes, texts) if texts else attributes
