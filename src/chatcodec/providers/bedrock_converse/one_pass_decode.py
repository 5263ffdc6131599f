"""The one-pass reading of a Converse request (issue 25): common shapes only.

:data:`REQUEST` is the request as an agent sends it, written closed: ``system`` text
blocks; user turns of ``text``, base64 ``image`` and ``toolResult`` blocks (their content
``text`` or ``json``, a ``status`` of ``success`` or ``error``); assistant turns of
``text``, ``toolUse`` and ``reasoningContent`` (text with a signature, or redacted);
``toolSpec`` tools with ``toolChoice``; ``inferenceConfig``'s four fields. Validated once
in Rust (turn roles dispatch there; a block's one member is checked in the loop), it is
decoded in one pass straight into canonical dicts equal to what
:func:`~chatcodec.providers.bedrock_converse.request.decode_request` and the canonical
validation give. Unknown top-level fields are kept in the request's bag, as the general
decoder keeps them.

Anything else is refused and the caller runs the general path: a ``cachePoint``, a
document, audio, video, guard content, an S3 image, a citations block, a server tool, a
block or object with a key not listed, an empty ``inferenceConfig``, ``stopSequences``
or ``tools`` (markers), a ``maxTokens`` below 1, an empty call id,
``additionalModelRequestFields`` and ``outputConfig`` (read by ``settings.py``). The
per-block rules are the general decoder's own (``tool_ids.restore_tool_use_id``, the
image formats), and this module loads no canonical model (issue 25, first use).
"""

from __future__ import annotations

import sys
from typing import Any

from pydantic_core import core_schema as cs

from chatcodec._narrow import as_sampling_number
from chatcodec.providers.bedrock_converse.markers import PROVIDER
from chatcodec.providers.bedrock_converse.thinking import decode_reasoning
from chatcodec.providers.bedrock_converse.tool_ids import restore_tool_use_id
from chatcodec.providers.kit import leftovers
from chatcodec.providers.kit.tool_id_mapping import PREFIX
from chatcodec.providers.one_pass import (
    LazyValidator,
    closed,
    either,
    json_object,
    json_text,
    json_value_to_write,
    json_without_floats,
    literal,
    non_empty,
    number,
    tagged,
    text,
)

IMAGE_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}
"""botocore ``ImageFormat`` -> media type (``parts.IMAGE_TYPES``, which a test holds equal:
that module loads the canonical models)."""

_SEPARATE = "_separate"
"""``messages.SEPARATE``: a turn the wire had apart from a same-role turn before it."""
_MAPPED = ("modelId", "messages", "system", "inferenceConfig", "toolConfig", "additionalModelRequestFields")
_GENERAL_ONLY = frozenset({"outputConfig"})
"""Fields the wire types know and :data:`REQUEST` does not: read by the general path only."""


def _restored(wire_id: str) -> str:
    """``restore_tool_use_id``, called only for an id the encoders' rewrite could have written."""
    return restore_tool_use_id(wire_id) if wire_id.startswith(PREFIX) else wire_id


def _list(item: cs.CoreSchema) -> cs.CoreSchema:
    return cs.list_schema(item, strict=True)


def _messages() -> cs.CoreSchema:
    json_value = json_value_to_write()
    image = closed({"format": text(), "source": closed({"bytes": text()})})
    result_block = closed({}, {"text": text(), "json": json_value, "image": image})
    result = closed({"toolUseId": text(), "content": _list(result_block)}, {"status": literal("success", "error")})
    call = closed({"toolUseId": text(), "name": text(), "input": json_value})
    reasoning_text = closed({"text": text()}, {"signature": text()})
    reasoning = closed({}, {"reasoningText": reasoning_text, "redactedContent": text()})
    user_block = closed({}, {"text": text(), "image": image, "toolResult": result})
    assistant_block = closed({}, {"text": text(), "toolUse": call, "reasoningContent": reasoning})
    choices = {
        "user": closed({"role": literal("user"), "content": _list(user_block)}),
        "assistant": closed({"role": literal("assistant"), "content": _list(assistant_block)}),
    }
    return _list(tagged(choices, "role"))


def _request(json_input: bool) -> cs.CoreSchema:
    spec = closed(
        {"name": non_empty(), "inputSchema": closed({"json": json_object()})},
        {"description": text(), "strict": cs.bool_schema(strict=True)},
    )
    choice = either(
        closed({"auto": closed({})}), closed({"any": closed({})}), closed({"tool": closed({"name": text()})})
    )
    inference = closed(
        {},
        {
            "maxTokens": cs.int_schema(strict=True),
            "temperature": number(json_input=json_input),
            "topP": number(json_input=json_input),
            "stopSequences": _list(text()),
        },
    )
    thinking = either(
        closed({"type": literal("enabled"), "budget_tokens": cs.int_schema(strict=True)}),
        closed({"type": literal("adaptive", "disabled")}),
    )
    root = closed(
        {"messages": _messages()},
        {
            "modelId": text(),
            "additionalModelRequestFields": closed({"thinking": thinking}),
            "system": _list(closed({"text": text()})),
            "inferenceConfig": inference,
            "toolConfig": closed({"tools": _list(closed({"toolSpec": spec}))}, {"toolChoice": choice}),
        },
        extra=True,  # fields with no canonical home, kept in the request's bag
    )
    return cs.definitions_schema(root, [json_without_floats(json_input=json_input)])


REQUEST = LazyValidator(_request)
"""The common request shapes, for dicts and for JSON text or bytes."""


class _DeclinedError(Exception):
    """A shape only the general decoder reads."""


def decode_request(payload: object) -> dict[str, Any] | None:
    """The canonical request dict for ``payload`` (a dict, or JSON text or bytes), or
    ``None`` when it is not one of the common shapes."""
    wire = REQUEST.validate(payload)
    if wire is None or not _GENERAL_ONLY.isdisjoint(wire):
        return None
    model: str | None = wire.get("modelId")
    try:
        messages = _messages_of(wire["messages"], model, sys.get_int_max_str_digits())
        canonical: dict[str, Any] = {} if model is None else {"model": model}
        if "system" in wire:
            messages.insert(
                0, {"role": "system", "content": [{"type": "text", "text": block["text"]} for block in wire["system"]]}
            )
        canonical["messages"] = messages
        bag = leftovers(wire, _MAPPED)
        if "inferenceConfig" in wire:
            _inference(wire["inferenceConfig"], canonical, bag)
        if "toolConfig" in wire:
            _tools(wire["toolConfig"], canonical)
        if "additionalModelRequestFields" in wire:
            canonical["reasoning"] = _reasoning_config(wire["additionalModelRequestFields"]["thinking"])
    except _DeclinedError:
        return None
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    return canonical


def _messages_of(turns: list[dict[str, Any]], model: str | None, digits: int) -> list[dict[str, Any]]:
    """As ``messages.decode_messages``: a user turn's results first (a tool message), then
    its other blocks (a user message); a turn after one of its role marked ``_separate``."""
    decoded: list[dict[str, Any]] = []
    previous = None
    for turn in turns:
        role = turn["role"]
        first = len(decoded)
        if role == "assistant":
            decoded.append({"role": "assistant", "content": _assistant_parts(turn["content"], model, digits)})
        else:
            _user_turn(turn["content"], decoded, digits)
        if role == previous:
            decoded[first]["provider_metadata"] = {PROVIDER: {_SEPARATE: True}}
        previous = role
    return decoded


def _user_turn(blocks: list[dict[str, Any]], decoded: list[dict[str, Any]], digits: int) -> None:
    results: list[dict[str, Any]] = []
    rest: list[dict[str, Any]] = []
    for block in blocks:
        if len(block) != 1:
            raise _DeclinedError  # none or several members: an opaque part
        if "text" in block:
            rest.append({"type": "text", "text": block["text"]})
        elif "image" in block:
            rest.append(_image(block["image"]))
        else:
            results.append(_result(block["toolResult"], digits))
    if results:
        decoded.append({"role": "tool", "content": results})
    if rest or not results:
        decoded.append({"role": "user", "content": rest})


def _image(image: dict[str, Any]) -> dict[str, Any]:
    media_type = IMAGE_TYPES.get(image["format"])
    if media_type is None:
        raise _DeclinedError
    return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": image["source"]["bytes"]}}


def _result(result: dict[str, Any], digits: int) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    for block in result["content"]:
        if len(block) != 1:
            raise _DeclinedError
        if "text" in block:
            content.append({"type": "text", "text": block["text"]})
        elif "image" in block:
            content.append(_image(block["image"]))
        else:  # as parts.decode_block reads a json block: its text, marked
            data = json_text(block["json"], digits)
            content.append({"type": "text", "text": data, "provider_metadata": {PROVIDER: {"_json": True}}})
    canonical: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": _restored(result["toolUseId"]),
        "content": content,
    }
    status = result.get("status")
    if status == "error":
        canonical["is_error"] = True
    elif status == "success":
        canonical["provider_metadata"] = {PROVIDER: {"_status": "success"}}
    return canonical


def _assistant_parts(blocks: list[dict[str, Any]], model: str | None, digits: int) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = []
    append = parts.append
    for block in blocks:
        if len(block) != 1:
            raise _DeclinedError  # none or several members: an opaque part
        text = block.get("text")
        if text is not None:
            append({"type": "text", "text": text})
            continue
        call = block.get("toolUse")
        if call is None:
            append(_reasoning(block["reasoningContent"], model))
            continue
        call_id = call["toolUseId"]
        if not call_id:
            raise _DeclinedError  # an empty id: the general decoder's ``_empty_id`` marker
        if call_id.startswith(PREFIX):
            call_id = restore_tool_use_id(call_id)
        append({"type": "tool_use", "id": call_id, "name": call["name"], "arguments": json_text(call["input"], digits)})
    return parts


def _reasoning(reasoning: dict[str, Any], model: str | None) -> dict[str, Any]:
    """``thinking.decode_reasoning``'s part (Bedrock's provider, the request's model), or
    the general path for a block canonical cannot hold."""
    part = decode_reasoning(reasoning, model)
    if part is None:
        raise _DeclinedError
    return part


def _inference(config: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    """As ``request._decode_inference``, with canonical's sampling numbers (floats, but an
    integer past 2**53 kept exact: :data:`chatcodec.request.SamplingNumber`)."""
    if not config:
        bag["_inference_config"] = True  # sent empty (pydantic-ai does): written back so
        return
    if config.get("maxTokens", 1) < 1 or config.get("stopSequences") == []:
        raise _DeclinedError  # a count canonical cannot hold, or the ``_empty_stop`` marker
    if "maxTokens" in config:
        canonical["max_tokens"] = config["maxTokens"]
    for wire_key, canonical_key in (("temperature", "temperature"), ("topP", "top_p")):
        if wire_key in config:
            canonical[canonical_key] = as_sampling_number(config[wire_key])  # ``request.SamplingNumber``
    if "stopSequences" in config:
        canonical["stop"] = config["stopSequences"]


_CHOICES = {"auto": "auto", "any": "required", "tool": "tool"}


def _tools(config: dict[str, Any], canonical: dict[str, Any]) -> None:
    """As ``tools.decode_tools`` reads ``toolSpec`` tools and a choice canonical names."""
    if not config["tools"]:
        raise _DeclinedError  # the ``_tool_config`` marker
    tools: list[dict[str, Any]] = []
    for tool in config["tools"]:
        spec = tool["toolSpec"]
        if not spec["name"]:
            raise _DeclinedError  # kept whole as a provider tool
        definition: dict[str, Any] = {"name": spec["name"], "parameters": spec["inputSchema"]["json"]}
        for key in ("description", "strict"):
            if key in spec:
                definition[key] = spec[key]
        tools.append(definition)
    canonical["tools"] = tools
    choice = config.get("toolChoice")
    if choice is not None:
        ((kind, value),) = choice.items()
        canonical["tool_choice"] = {"type": _CHOICES[kind], **value}


def _reasoning_config(thinking: dict[str, Any]) -> dict[str, Any]:
    """As ``settings._decode_thinking`` reads Claude's ``thinking`` object."""
    kind = thinking["type"]
    if kind == "adaptive":
        return {"adaptive": True}
    if kind == "disabled":
        return {"enabled": False}
    if thinking["budget_tokens"] < 0:
        raise _DeclinedError  # kept in the bag by the general decoder
    return {"enabled": True, "budget_tokens": thinking["budget_tokens"]}
