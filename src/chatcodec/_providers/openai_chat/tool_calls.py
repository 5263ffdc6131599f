"""One OpenAI Chat tool call <-> one canonical ``tool_use`` part: the plain call (an id,
``type: function``, a function of name and argument text) both ways in one step (read by
the rule the dialect readers share, ``plain_parts.py``), and the
rest (a bag, an SDK-accumulated ``index``, a Gemini thought signature, a cache marker, a
custom-tool call kept opaque) by the full reading and writing; and a message's calls
written to its ``tool_calls`` (or deprecated ``function_call``) field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._providers.openai_chat import cache_control, functions, parts, thought_signatures
from chatcodec._providers.openai_chat.markers import KIT, PROVIDER, SDK_INDEX, SDK_PARSED, opaque
from chatcodec._providers.openai_chat.plain_parts import plain_call
from chatcodec.codec_kit import (
    COMMON_TOOL_NAMES,
    PLAIN_TOOL_USE,
    absent_keys,
    as_dict,
    leftovers,
    mark_absent,
    tool_name,
    unmapped_fields,
    wire_fields,
)

if TYPE_CHECKING:
    from chatcodec.contract import LossRecorder, Steps

Part = Mapping[str, Any]

TAKEN, TAKES = COMMON_TOOL_NAMES.accepted, COMMON_TOOL_NAMES.takes
"""Whether OpenAI takes a tool name as it is: ``name in TAKEN or TAKES(name)`` (a remembered
name is a set lookup, :meth:`~chatcodec._providers.kit.ToolNameRule.takes`)."""


def decode_tool_call(call: Mapping[str, Any]) -> dict[str, Any]:
    """A wire tool call as a ``tool_use`` part (a custom-tool call as one of ``kind:
    custom``); a call of another kind is kept opaque."""
    plain = plain_call(call)
    if plain is not None:
        return plain
    kind = call.get("type", "function")
    if kind == "custom" and _is_custom_call(call):
        return decode_custom_call(call)
    if kind != "function":
        return opaque(dict(call), {"_in": "tool_calls"})
    function: dict[str, Any] = call["function"]
    bag = leftovers(call, ("id", "type", "function"))
    if "index" in bag:  # the OpenAI SDK's stream accumulation leaves it: a position, written back
        bag[SDK_INDEX] = bag.pop("index")
    arguments = functions.decode_arguments(function, bag)
    part = {"type": "tool_use", "id": call["id"], "name": function["name"], "arguments": arguments}
    function_rest = unmapped_fields(function, ("name", "arguments"))
    if function_rest.get("parsed_arguments", 0) is None:  # the SDK's parse and stream helpers' null: spelling
        del function_rest["parsed_arguments"]
        bag[SDK_PARSED] = True
    if function_rest:
        bag["function"] = function_rest
    mark_absent(bag, call, "type")
    cache_control.take(bag, part)
    signature = thought_signatures.take_signature(bag)
    return thought_signatures.attach_signature(KIT.attach(part, bag), signature)


def _is_custom_call(call: Mapping[str, Any]) -> bool:
    """Whether a ``type: custom`` call has the shape of OpenAI's (an id, a ``custom`` of a
    name and text input); one that has not stays opaque, kept as it came."""
    custom = as_dict(call.get("custom"))
    return (
        isinstance(call.get("id"), str)
        and custom is not None
        and isinstance(custom.get("name"), str)
        and isinstance(custom.get("input", ""), str)
    )


def decode_custom_call(call: Mapping[str, Any]) -> dict[str, Any]:
    """A custom (freeform) tool call, ``{"id", "type": "custom", "custom": {"name",
    "input"}}`` (openai 3.54 ``ChatCompletionMessageCustomToolCallParam``), as a ``tool_use``
    part of ``kind: custom`` whose ``arguments`` are the free-text input."""
    custom: dict[str, Any] = call["custom"]
    bag = leftovers(call, ("id", "type", "custom"))
    if "index" in bag:  # the OpenAI SDK's stream accumulation leaves it: a position, written back
        bag[SDK_INDEX] = bag.pop("index")
    part = {
        "type": "tool_use",
        "id": call["id"],
        "name": custom["name"],
        "arguments": custom.get("input", ""),
        "kind": "custom",
    }
    custom_rest = unmapped_fields(custom, ("name", "input"))
    if custom_rest:
        bag["custom"] = custom_rest
    mark_absent(bag, custom, "input")
    cache_control.take(bag, part)
    return KIT.attach(part, bag)


def encode_custom_call(part: Part, losses: LossRecorder, steps: Steps, *, response: bool) -> dict[str, Any]:
    """A ``tool_use`` part of ``kind: custom`` as OpenAI's custom tool call, its free-text
    input written as it is."""
    metadata = part.get("provider_metadata")
    KIT.report_foreign(losses, metadata, steps)
    bag = KIT.own(metadata)
    name: str = part["name"] if response else tool_name(part["name"], losses, steps, PROVIDER)
    custom: dict[str, Any] = {**(as_dict(bag.pop("custom", None)) or {}), "name": name}
    if part.get("arguments") or "input" not in absent_keys(bag):
        custom["input"] = part.get("arguments", "")
    call: dict[str, Any] = {**wire_fields(bag), "id": part["id"], "type": "custom", "custom": custom}
    if SDK_INDEX in bag:
        call = {"index": bag[SDK_INDEX], **call}
    why = "OpenAI tool calls take no cache breakpoint"
    cache_control.write(call, part.get("cache_control"), metadata, losses, steps, why=why)
    return call


def plain_call_wire(part: Part, name: str) -> dict[str, Any]:
    """The wire call for a call holding nothing but its id, name and arguments."""
    text: str = part["arguments"]
    if not text or text.isspace():
        text = "{}"  # a call without arguments is "{}": OpenAI rejects ""
    return {"id": part["id"], "type": "function", "function": {"name": name, "arguments": text}}


def encode_call(part: Part, losses: LossRecorder, steps: Steps, *, response: bool) -> dict[str, Any] | None:
    """A wire tool call. In a request the name follows OpenAI's rule (``kit.tool_name``);
    a response carries the name the model called, as it is."""
    if part["type"] == "opaque":
        return parts.encode_opaque(part, losses, steps)
    if part.get("kind") == "custom":
        return encode_custom_call(part, losses, steps, response=response)
    name: str = part["name"]
    if (
        len(part) == PLAIN_TOOL_USE
        and "arguments" in part
        and (response or name in TAKEN or TAKES(name))
        and name.strip()
    ):  # no bag
        return plain_call_wire(part, name)
    metadata = part.get("provider_metadata")
    signature, foreign = thought_signatures.split_signature(metadata)
    KIT.report_foreign(losses, foreign, steps)
    bag = KIT.own(metadata)
    if not response:
        name = tool_name(name, losses, steps, PROVIDER)
    elif not name.strip():  # a request refuses it (tool_names); what a model called is kept
        losses.add((*steps, "name"), "blank tool name", "OpenAI clients cannot dispatch a call without a name")
    arguments = functions.encode_arguments(part)
    if isinstance(arguments, str) and not arguments.strip():
        arguments = "{}"  # a call without arguments is "{}": OpenAI rejects ""
    function = {**(as_dict(bag.pop("function", None)) or {}), "name": name, "arguments": arguments}
    if bag.get(SDK_PARSED) is True:
        function["parsed_arguments"] = None
    call: dict[str, Any] = {**wire_fields(bag), "id": part["id"]}
    if SDK_INDEX in bag:
        call = {"index": bag[SDK_INDEX], **call}
    if "type" not in absent_keys(bag):
        call["type"] = "function"
    call["function"] = function
    thought_signatures.write_signature(call, signature)
    why = "OpenAI tool calls take no cache breakpoint"
    cache_control.write(call, part.get("cache_control"), metadata, losses, steps, why=why)
    return call


def write_calls(
    wire: dict[str, Any], calls: list[tuple[Part, int]], losses: LossRecorder, at: Steps, *, response: bool
) -> None:
    """``tool_calls``, and the deprecated ``function_call`` for the call that came as one
    (a message has one such field: a second such call goes in ``tool_calls``, reported)."""
    listed: list[tuple[Part, int]] = []
    for part, index in calls:
        if part["type"] == "tool_use" and functions.is_function_call(part):
            steps = (*at, "content", index)
            if "function_call" not in wire:
                encoded = encode_call(part, losses, steps, response=response)
                if encoded is not None:
                    wire["function_call"] = encoded["function"]
                continue
            losses.add(steps, "second function_call", "a message has one function_call; this one goes in tool_calls")
        listed.append((part, index))
    if listed:
        encoded_calls = (
            encode_call(part, losses, (*at, "content", index), response=response) for part, index in listed
        )
        wire["tool_calls"] = [call for call in encoded_calls if call is not None]
