"""Canonical parts <-> the fields of an Ollama message.

Ollama has no content parts: a message is ``content`` (text), ``thinking`` (text, on
assistant turns), ``images`` (base64 strings) and ``tool_calls``. So a canonical part
encodes to the message fields it contributes (:func:`encode_part`): ``{"content": text}``,
``{"thinking": text}``, ``{"images": [data]}`` or ``{"tool_calls": [call]}``, which
:mod:`.messages` merges, in the order the server lays a message out for the model:
thinking, images (the server puts each image's tag ahead of the text, ``server/prompt.go``),
text, tool calls.

A tool call's arguments are a JSON object on the wire and text in canonical form: decoding
writes the object's compact JSON (the object keeps its key order, as the server's ordered
map does), encoding parses the text back by the rule shared with the other object wires
(:mod:`chatcodec._providers.kit.tool_arguments`: text that is not an object is wrapped, never
sent as ``{}``, and a parse that changes what the text said is reported).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.ollama import wire
from chatcodec._providers.ollama.markers import INDEX, KIT, NO_ARGUMENTS, PROVIDER, SYNTHESIZED_ID, TYPED
from chatcodec._providers.ollama.media import encode_image
from chatcodec.codec_kit import (
    as_dict,
    compact_json,
    input_object,
    leftovers,
    present_keys,
    shape_fields,
    unblank_tool_name,
    unmapped_fields,
    wire_fields,
)
from chatcodec.contract import EncodeContext, LossRecorder, Steps

Part = Mapping[str, Any]
"""A canonical part as a dict (the JSON ``ContentPart`` validates)."""


# --- decode --------------------------------------------------------------------------


def decode_thinking(text: str) -> dict[str, Any]:
    """A thinking part for a message's ``thinking``: Ollama's reasoning is plain text, unsigned."""
    return {"type": "thinking", "text": text, "provider": PROVIDER}


def decode_call(call: Mapping[str, Any], position: int, made_up_id: str) -> dict[str, Any]:
    """A tool-use part for ``tool_calls[position]``; ``made_up_id`` stands in when the call
    has no ``id`` (:mod:`.call_ids`)."""
    function: Mapping[str, Any] = call["function"]
    wire_id = call.get("id")
    arguments = function.get("arguments")
    part = {
        "type": "tool_use",
        "id": wire_id if wire_id is not None else made_up_id,
        "name": function["name"],
        "arguments": compact_json(arguments if arguments is not None else {}),
    }
    if wire_id is not None and len(call) == 2 and arguments is not None and function.keys() <= _PLAIN_FUNCTION:
        index = function.get("index", _MISSING)  # the usual call (a server's): nothing kept but the index
        if index is _MISSING:
            return part
        if type(index) is int and index == position:
            part["provider_metadata"] = {PROVIDER: {INDEX: True}}
            return part
    return KIT.attach(part, _call_bag(call, function, position))


_PLAIN_FUNCTION = frozenset(shape_fields(wire.CallFunction))
"""The keys of a call's ``function`` as the server writes it (its shape's, ``wire.py``)."""


def _call_bag(call: Mapping[str, Any], function: Mapping[str, Any], position: int) -> dict[str, Any]:
    """What a call keeps beside its canonical fields: unknown fields and spelling markers."""
    wire_id = call.get("id")
    typed = call.get("type") == "function"
    bag = leftovers(call, ("function", *present_keys(call, "id"), *(("type",) if typed else ())))
    if wire_id is None:
        bag[SYNTHESIZED_ID] = True
    if typed:
        bag[TYPED] = True
    index = function.get("index")
    positioned = type(index) is int and index == position
    if positioned:
        bag[INDEX] = True
    if "arguments" not in function:
        bag[NO_ARGUMENTS] = True
    function_rest = unmapped_fields(
        function, ("name", *present_keys(function, "arguments"), *(("index",) if positioned else ()))
    )
    if function_rest:
        bag["function"] = function_rest
    return bag


# --- encode --------------------------------------------------------------------------


def encode_part(part: Part, context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The message fields one canonical part contributes (None: Ollama cannot carry it,
    reported)."""
    losses = context.losses
    kind = part["type"]
    if kind in ("text", "thinking", "image", "refusal"):
        _report_part_extras(part, losses, at)
    if kind == "text":
        return {"content": part["text"]}
    if kind == "thinking":
        return _encode_thinking(part, losses, at)
    if kind == "image":
        data = encode_image(part, losses, at)
        return None if data is None else {"images": [data]}
    if kind == "tool_use":
        return {"tool_calls": [encode_call(part, 0, context, at)]}  # alone: the message's first call
    if kind == "refusal":
        losses.add(at, "refusal", "Ollama has no refusal field; sent as text")
        return {"content": part["text"]}
    if kind == "opaque":
        losses.add(at, f"{part['provider']} block", "Ollama messages have no place for another format's blocks")
        return None
    losses.add(at, f"{kind} part", f"Ollama messages carry text, images and tool calls, not {kind}")
    return None


def _report_part_extras(part: Part, losses: LossRecorder, at: Steps) -> None:
    """A part's cache breakpoint and bags: an Ollama message field has room for neither
    (a tool call's own bag is written back by :func:`encode_call`)."""
    if part.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache_control", "Ollama has no prompt-cache breakpoints", "setting")
    metadata = part.get("provider_metadata")
    if part["type"] == "tool_use":
        KIT.report_foreign(losses, metadata, at)
    else:
        KIT.report_unplaced(losses, metadata, at, "an Ollama message field has no room for it")


def _encode_thinking(part: Part, losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """Thinking is sent as text: Ollama replays any reasoning as the model's thinking, but
    carries no signature and no encrypted payload."""
    source = part.get("provider")
    if source is not None and source != PROVIDER:  # a part no provider produced has no producer to lose
        losses.add(
            at, f"thinking part from {source}", "sent as Ollama thinking text; reads back as Ollama's", "metadata"
        )
    if part.get("signature") is not None:
        losses.add((*at, "signature"), "thinking signature", "Ollama thinking carries no signature")
    if part.get("encrypted") is not None:
        losses.add((*at, "encrypted"), "encrypted reasoning", "Ollama thinking carries no encrypted payload")
    if part.get("model") is not None:
        losses.add((*at, "model"), "thinking model", "Ollama thinking names no model", "metadata")
    return {"thinking": part.get("text", "")}


def encode_call(part: Part, position: int, context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A wire tool call for a canonical tool-use part at ``position`` among its message's calls."""
    name: str = part["name"]
    if context.for_request:  # a blank one names no tool the model was shown (an answer's is as said)
        name = unblank_tool_name(name, context.losses, at, "Ollama")
    metadata = part.get("provider_metadata")
    if metadata is None and part.get("cache_control") is None:  # the usual call: id, name, arguments
        arguments_object = input_object(part.get("arguments", ""), context.losses, at, "Ollama")
        return {"id": part["id"], "function": {"name": name, "arguments": arguments_object}}
    _report_part_extras(part, context.losses, at)
    bag = KIT.own(metadata)
    wire: dict[str, Any] = {"type": "function"} if bag.get(TYPED) else {}
    wire.update(wire_fields(bag))
    if not bag.get(SYNTHESIZED_ID):
        wire["id"] = part["id"]
    function: dict[str, Any] = dict(as_dict(wire.pop("function", None)) or {})
    if bag.get(INDEX):
        function["index"] = position
    function["name"] = name
    arguments: str = part.get("arguments", "")
    kept_as_it_came = bag.get(NO_ARGUMENTS) or function.get("arguments", _MISSING) is None
    if not (kept_as_it_came and arguments.strip() in ("", "{}")):  # no arguments, or null: "{}" says so too
        function["arguments"] = input_object(arguments, context.losses, at, "Ollama")
    wire["function"] = function
    return wire


_MISSING = object()
"""Stands for a key that is not there (a ``null`` is kept as ``null``)."""
