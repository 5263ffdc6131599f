"""The one reader and the one writer of ``CreateMessageRequestParams``, over canonical data.

``systemPrompt`` is the canonical leading system message; the first model hint the
canonical ``model`` (``model_hint``); ``modelPreferences``' other fields, ``includeContext``,
``task`` and ``_meta`` have no canonical field and ride in ``provider_options["mcp-sampling"]``,
as do the members of the JSON-RPC request around the params, when the body is one (:mod:`.json_rpc`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.mcp_sampling import json_rpc
from chatcodec._frameworks.mcp_sampling.capabilities import CAPABILITIES
from chatcodec._frameworks.mcp_sampling.markers import DISPLAY, KIT, PROVIDER
from chatcodec._frameworks.mcp_sampling.messages import decode_messages, encode_messages, misplaced
from chatcodec._frameworks.mcp_sampling.model_hint import put_model, take_model
from chatcodec._frameworks.mcp_sampling.settings import decode_settings, encode_settings
from chatcodec._frameworks.mcp_sampling.tools import decode_tools, encode_tools
from chatcodec._frameworks.mcp_sampling.wire import Message, Request
from chatcodec.codec_kit import (
    Problem,
    history_for,
    leftovers,
    problems_error,
    shape_fields,
    validate_shape,
    wire_fields,
)
from chatcodec.contract import DecodeContext, EncodeContext

_MAPPED = ("messages", "systemPrompt")


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read request params, or the JSON-RPC request holding them, as a canonical request dict."""
    key, params = json_rpc.request_body(payload)
    canonical = json_rpc.read_inside(key, lambda: _decode_params(params, context), "MCP sampling request")
    members = json_rpc.envelope(payload, key)
    if members:
        options = canonical.setdefault("provider_options", {PROVIDER: {}})
        options[PROVIDER][json_rpc.ENVELOPE] = members
    return canonical


def _decode_params(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    request = validate_shape(Request, payload, "MCP sampling request")
    problems = [
        Problem(("messages", index, *problem.location), problem.rule, problem.message, problem.value)
        for index, message in enumerate(request["messages"])
        for problem in misplaced(message["role"], message["content"])
    ]
    if problems:
        raise problems_error("MCP sampling request", problems)
    messages = decode_messages(request["messages"], context)
    if "systemPrompt" in request:
        messages.insert(0, {"role": "system", "content": request["systemPrompt"]})
    canonical: dict[str, Any] = {"messages": messages}
    bag = leftovers(request, _MAPPED)
    model = take_model(bag)
    if model is not None:
        canonical["model"] = model
    decode_tools(request, canonical, bag, context)
    decode_settings(request, canonical, bag, context)
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    return canonical


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare list of sampling messages (a stored conversation)."""
    return decode_messages([validate_shape(Message, message, "MCP sampling message") for message in messages], context)


def encode_request(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical request dict as request params (inside the JSON-RPC request it was
    read from, if any); what the wire cannot carry is a loss."""
    losses = context.losses
    own = KIT.claim(losses, request.get("provider_options"), ("provider_options",))
    members = own.pop(json_rpc.ENVELOPE, None)
    wire = wire_fields(own)
    messages = history_for(request.get("messages") or [], losses, PROVIDER, CAPABILITIES, reading=context.reading)
    start = 0
    while start < len(messages) and messages[start]["role"] in ("system", "developer"):
        start += 1
    if start:
        wire["systemPrompt"] = _system_prompt(messages[:start], context)
    wire["messages"] = encode_messages(messages, start, context)
    encode_tools(request, wire, {}, context)
    encode_settings(request, wire, {}, context)
    if request.get("model") is not None:
        put_model(request["model"], wire)
    for key in ("stream", "cache_control"):
        if request.get(key):
            losses.add((key,), key, f"{DISPLAY} requests have no {key}", "setting")
    params = {key: wire[key] for key in (*shape_fields(Request), *wire) if key in wire}  # the schema's order
    return json_rpc.wrapped(members, "params", params)


def _system_prompt(messages: list[Mapping[str, Any]], context: EncodeContext) -> str:
    """The leading system turns as the one ``systemPrompt`` text: a part that is not text,
    and the breaks between several turns or parts, are reported."""
    texts: list[str] = []
    for index, message in enumerate(messages):
        at = ("messages", index)
        KIT.claim(context.losses, message.get("provider_metadata"), at)
        content = message["content"]
        if isinstance(content, str):
            texts.append(content)
            continue
        for number, part in enumerate(content):
            if part["type"] == "text":
                texts.append(part["text"])
            else:
                context.losses.add(
                    (*at, "content", number), f"{part['type']} part", f"{DISPLAY}'s systemPrompt is text"
                )
    if len(texts) > 1:
        context.losses.add(
            ("messages",), "system turns", f"{DISPLAY} has one systemPrompt; they were joined", "content"
        )
    return "\n\n".join(texts)
