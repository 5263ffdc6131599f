"""The one-pass reading of an Anthropic Messages request (issue 25): common shapes only.

:data:`REQUEST` is the request as a Claude agent sends it, written closed: a top-level
``system`` (a string or text blocks), user turns of text, image (base64 or URL) and
``tool_result`` blocks (string or text/image content, ``is_error``), assistant turns of
text, thinking (signed or not), ``redacted_thinking`` and ``tool_use`` blocks, client
tools with an ``input_schema``, a ``tool_choice``, a plain ``thinking`` config, and the
usual settings. Validated once
in Rust (roles and block types dispatch there; every ``input``, schema and unknown
top-level value checked as JSON), it is decoded in one pass straight into canonical
dicts equal to what :func:`~chatcodec.providers.anthropic.request.decode_request` gives
before its canonical validation, with the values that validation changes already
changed (a sampling integer read as a float).

Anything else (a cache marker, citations, a document, a server tool, a ``system`` turn
in ``messages``, an ``output_config``, ``null`` where a field may be left out, a tool id
Anthropic itself would reject, an empty tool name, an empty image URL or media type) is
refused, and the caller runs the general path, which reads it or reports the error.
This module loads no canonical model (issue 25, first use): the argument text is the
kit's :func:`~chatcodec.providers.kit.compact_json`, the spelling ``parts.arguments_text``
uses (``tests/providers/anthropic/test_one_pass.py`` holds them equal).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic_core import core_schema as cs

from chatcodec.providers.anthropic.markers import PROVIDER
from chatcodec.providers.anthropic.rules import OLD
from chatcodec.providers.anthropic.tool_ids import MAPPING
from chatcodec.providers.kit import compact_json, leftovers
from chatcodec.providers.one_pass import (
    LazyValidator,
    closed,
    either,
    json_object,
    literal,
    non_empty,
    number,
    tagged,
    text,
)
from chatcodec.providers.target_rules import API_VERSION

_SANITIZE = MAPPING.sanitize


def _list(item: cs.CoreSchema, *, min_length: int = 0) -> cs.CoreSchema:
    return cs.list_schema(item, strict=True, min_length=min_length)


def _blocks() -> dict[str, cs.CoreSchema]:
    """The block shapes, by type: closed, so a cache marker or citations refuse them."""
    source = tagged(
        {
            "base64": closed({"type": literal("base64"), "media_type": non_empty(), "data": text()}),
            "url": closed({"type": literal("url"), "url": non_empty()}),
        },
        "type",
    )
    text_block = closed({"type": literal("text"), "text": text()})
    image = closed({"type": literal("image"), "source": source})
    result_content = either(text(), _list(tagged({"text": text_block, "image": image}, "type")))
    return {
        "text": text_block,
        "image": image,
        "tool_result": closed(
            {"type": literal("tool_result"), "tool_use_id": text()},
            {"content": result_content, "is_error": cs.bool_schema(strict=True)},
        ),
        "thinking": closed({"type": literal("thinking"), "thinking": text()}, {"signature": text()}),
        "redacted_thinking": closed({"type": literal("redacted_thinking"), "data": text()}),
        "tool_use": closed({"type": literal("tool_use"), "id": text(), "name": text(), "input": json_object()}),
    }


def _messages() -> cs.CoreSchema:
    blocks = _blocks()
    user_blocks = tagged({kind: blocks[kind] for kind in ("text", "image", "tool_result")}, "type")
    assistant_blocks = tagged(
        {kind: blocks[kind] for kind in ("text", "thinking", "redacted_thinking", "tool_use")}, "type"
    )
    choices = {
        "user": closed({"role": literal("user"), "content": either(text(), _list(user_blocks))}),
        "assistant": closed({"role": literal("assistant"), "content": either(text(), _list(assistant_blocks))}),
    }
    return _list(tagged(choices, "role"))


def _tool_choice() -> cs.CoreSchema:
    parallel = {"disable_parallel_tool_use": cs.bool_schema(strict=True)}
    choices = {kind: closed({"type": literal(kind)}, parallel) for kind in ("auto", "any", "none")}
    choices["tool"] = closed({"type": literal("tool"), "name": text()}, parallel)
    return tagged(choices, "type")


def _request(json_input: bool) -> cs.CoreSchema:
    tool = closed(
        {"name": non_empty(), "input_schema": json_object()},
        {"description": text(), "strict": cs.bool_schema(strict=True)},
    )
    system_blocks = _list(closed({"type": literal("text"), "text": text()}))
    count = cs.int_schema(strict=True)
    return closed(
        {"messages": _messages()},
        {
            "model": text(),
            "max_tokens": count,
            "system": either(text(), system_blocks),
            "tools": _list(tool, min_length=1),
            "tool_choice": _tool_choice(),
            "stop_sequences": _list(text(), min_length=1),
            "temperature": number(json_input=json_input),
            "top_p": number(json_input=json_input),
            "top_k": count,
            "metadata": json_object(),
            "stream": cs.bool_schema(strict=True),
            "thinking": tagged(
                {
                    "enabled": closed({"type": literal("enabled"), "budget_tokens": cs.int_schema(strict=True, ge=0)}),
                    "adaptive": closed({"type": literal("adaptive")}),
                    "disabled": closed({"type": literal("disabled")}),
                },
                "type",
            ),
        },
        extra=True,  # fields with no canonical home, kept in the request's bag
    )


REQUEST = LazyValidator(_request)
"""The common request shapes, for dicts and for JSON text or bytes."""

_GENERAL_ONLY = frozenset({"output_config", "cache_control"})
"""Fields the wire types know and :data:`REQUEST` does not: read by the general path only
(as unknown fields they would skip the general path's check of their shape)."""

_MAPPED = frozenset(
    {"model", "messages", "system", "max_tokens", "stop_sequences", "tools", "tool_choice"}
    | {"temperature", "top_p", "top_k", "metadata", "stream", "thinking"}
)
_REASONING = {"enabled": {"enabled": True}, "adaptive": {"adaptive": True}, "disabled": {"enabled": False}}
"""``settings._decode_thinking``'s reading of each ``thinking`` type (the budget added)."""
_CHOICE_TYPES = {"auto": "auto", "any": "required", "tool": "tool", "none": "none"}
_SAMPLING = ("temperature", "top_p")


def decode_request(payload: object) -> dict[str, Any] | None:
    """The canonical request dict for ``payload`` (a dict, or JSON text or bytes), or
    ``None`` when it is not one of the common shapes."""
    wire = REQUEST.validate(payload)
    if wire is None or not _GENERAL_ONLY.isdisjoint(wire):
        return None
    messages = decode_messages(wire["messages"])
    if messages is None:
        return None
    system = wire.get("system")
    if system is not None:
        messages.insert(0, {"role": "system", "content": system})  # text blocks read as text parts
    data: dict[str, Any] = {"messages": messages}
    if len(wire) == 1:
        return data
    bag = leftovers(wire, _MAPPED)
    if None in bag.values() or not _decode_fields(wire, data, bag):
        return None  # a null field (the general decoder's markers), or a shape canonical refuses
    if bag:
        data["provider_options"] = {PROVIDER: bag}
    return data


def _decode_fields(wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any]) -> bool:
    """The top-level fields, as ``request.decode_request`` and ``tools.decode_tools`` and
    ``settings.decode_settings`` map them; False for one canonical refuses."""
    for key in ("model", "top_k", "metadata", "stream"):
        if key in wire:
            data[key] = wire[key]
    for key in _SAMPLING:
        if key in wire:
            data[key] = _sampling(wire[key])
    _decode_max_tokens(wire, data, bag)
    if "stop_sequences" in wire:
        data["stop"] = wire["stop_sequences"]
    if "tools" in wire and not _decode_tools(wire, data):
        return False
    if "tool_choice" in wire:
        _decode_choice(wire["tool_choice"], data)
    thinking = wire.get("thinking")
    if thinking is not None:
        data["reasoning"] = {**_REASONING[thinking["type"]], **_budget(thinking)}
    if "temperature" in wire or "top_p" in wire or "top_k" in wire:
        bag[API_VERSION] = OLD  # as rules.version_shown: only the older API version takes them
    return True


def _sampling(value: float) -> float:
    """As canonical ``SamplingNumber`` reads it: a float, except an integer a double
    cannot hold, kept exact."""
    if type(value) is int:
        try:
            as_float = float(value)
        except OverflowError:
            return value
        return as_float if int(as_float) == value else value
    return value


def _budget(thinking: dict[str, Any]) -> dict[str, Any]:
    return {"budget_tokens": thinking["budget_tokens"]} if "budget_tokens" in thinking else {}


def _decode_max_tokens(wire: dict[str, Any], data: dict[str, Any], bag: dict[str, Any]) -> None:
    max_tokens = wire.get("max_tokens")
    if max_tokens is not None and max_tokens >= 1:
        data["max_tokens"] = max_tokens
    elif max_tokens is not None:
        bag["max_tokens"] = max_tokens  # 0 pre-warms the cache; canonical needs >= 1


def _decode_tools(wire: dict[str, Any], data: dict[str, Any]) -> bool:
    """``tools`` as ``tools._decode_tool`` reads a client tool; False for an empty name
    (canonical refuses it: the general path reports it)."""
    tools: list[dict[str, Any]] = []
    for tool in wire["tools"]:
        if not tool["name"]:
            return False
        definition: dict[str, Any] = {"name": tool["name"]}
        if "description" in tool:
            definition["description"] = tool["description"]
        definition["parameters"] = tool["input_schema"]
        if "strict" in tool:
            definition["strict"] = tool["strict"]
        tools.append(definition)
    data["tools"] = tools
    return True


def _decode_choice(choice: dict[str, Any], data: dict[str, Any]) -> None:
    decoded = {"type": _CHOICE_TYPES[choice["type"]]}
    if "name" in choice:
        decoded["name"] = choice["name"]
    data["tool_choice"] = decoded
    if "disable_parallel_tool_use" in choice:
        data["parallel_tool_calls"] = not choice["disable_parallel_tool_use"]


def decode_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """Canonical message dicts for validated common-shape wire turns, as
    ``messages.decode_messages`` gives them (a user turn's tool results split out into a
    tool message before it), or ``None`` for a shape only the general path reads."""
    decoded: list[dict[str, Any]] = []
    append = decoded.append
    after_results = False
    for message in messages:
        content = message["content"]
        if message["role"] == "assistant":
            if type(content) is not str:
                content = message["content"] = _assistant_parts(content)
                if content is None:
                    return None
            append(message)  # a validated copy with exactly the canonical keys: taken over
            after_results = False
            continue
        first = len(decoded)
        if type(content) is str:
            append(message)
        elif not _user_turn(content, append):
            return None
        if after_results:  # a user turn that followed results without joining them
            decoded[first]["provider_metadata"] = {PROVIDER: {"_separate": True}}
        after_results = decoded[-1]["role"] == "tool"
    return decoded


def _user_turn(content: list[dict[str, Any]], append: Callable[[dict[str, Any]], None]) -> bool:
    """Append the tool message (the turn's results) and the user message (its other
    blocks) a list-content user turn decodes to; False for a shape only the general path
    reads."""
    results: list[dict[str, Any]] = []
    rest: list[dict[str, Any]] = []
    for block in content:
        kind = block["type"]
        if kind == "tool_result":
            result = _result(block)
            if result is None:
                return False
            results.append(result)
        elif kind == "text":
            rest.append(block)  # the validated copy is the canonical part
        elif not _image(block):
            return False
        else:
            rest.append(block)
    if results:
        append({"role": "tool", "content": results})
    if rest or not results:
        append({"role": "user", "content": rest})
    return True


def _image(block: dict[str, Any]) -> bool:
    """Whether an image block reads the same in canonical (it is then taken over): an
    empty URL or media type is refused there (the general decoder keeps it opaque)."""
    source = block["source"]
    return bool(source["url"]) if source["type"] == "url" else bool(source["media_type"])


def _result(block: dict[str, Any]) -> dict[str, Any] | None:
    """As ``parts.decode_tool_result`` reads the common shape; ``is_error: false`` and a
    missing ``content`` (its markers), and an id to restore, are the general path's."""
    tool_use_id = block["tool_use_id"]
    if _SANITIZE(tool_use_id) != tool_use_id or "content" not in block:
        return None
    content = block["content"]
    if type(content) is not str:
        for item in content:
            if item["type"] == "image" and not _image(item):
                return None
    if block.get("is_error") is False:  # spelled out (pydantic-ai always sends it)
        result = {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}
        result["provider_metadata"] = {PROVIDER: {"_is_error": False}}
        return result
    return block  # type, tool_use_id, content, is_error: the canonical keys


def _assistant_parts(content: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    parts: list[dict[str, Any]] = []
    for block in content:
        kind = block["type"]
        if kind == "text":
            parts.append(block)
        elif kind == "tool_use":
            call_id = block["id"]
            if _SANITIZE(call_id) != call_id:
                return None  # restored or rejected ids: the general decoder's markers
            arguments = compact_json(block["input"])
            parts.append({"type": "tool_use", "id": call_id, "name": block["name"], "arguments": arguments})
        elif kind == "thinking":
            thinking = {"type": "thinking", "text": block["thinking"], "provider": PROVIDER}
            if "signature" in block:
                thinking["signature"] = block["signature"]
            parts.append(thinking)
        else:  # redacted_thinking: the payload stays opaque
            parts.append({"type": "thinking", "encrypted": block["data"], "redacted": True, "provider": PROVIDER})
    return parts
