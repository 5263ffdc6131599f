"""The one-pass reading of an OpenAI Responses request (issue 25): common shapes only.

:data:`REQUEST` is the request as an agent sends it, written closed: ``instructions``,
``input`` as a string or as items (user, system and developer messages of
``input_text`` and, for users, ``input_image`` parts; assistant messages of a string or
``output_text`` parts; reasoning items with their summary and ``encrypted_content``;
``function_call`` and ``function_call_output`` items with text output), function tools,
a plain or named ``tool_choice``, ``reasoning`` with a known effort or summary, and the
usual settings; other top-level fields (``include``, ``store``, ``previous_response_id``
...) are kept in the request's bag as JSON values. Validated once in Rust (item kinds and
roles dispatch there), it is decoded in one pass into canonical dicts equal to what
:func:`~chatcodec.providers.openai_responses.request.decode_request` and the canonical
validation give, bags and markers included (the kit's ``split_fields`` makes the bags,
as the general decoder does). Anything else (``text``, a part or item kind not listed,
``null`` in a typed field, a shape canonical refuses) is refused, and the caller runs
the general path. No canonical model is loaded (first use).
"""

from __future__ import annotations

from typing import Any

from pydantic_core import core_schema as cs

from chatcodec._narrow import as_sampling_number
from chatcodec.compat import source_from_url
from chatcodec.providers.kit import ABSENT, split_fields
from chatcodec.providers.one_pass import (
    JSON_VALUE,
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
from chatcodec.providers.openai_responses.markers import (
    INPUT_STRING,
    INSTRUCTIONS,
    ITEM,
    KIND,
    PROVIDER,
    STRING,
    TYPED,
)
from chatcodec.providers.openai_responses.plain_rules import MAPPED_FIELDS, SCALAR_FIELDS, decode_function_tool

_DETAILS = ("auto", "low", "high")
_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
_SUMMARIES = ("auto", "concise", "detailed")


def _nullable(schema: cs.CoreSchema) -> cs.CoreSchema:
    return cs.nullable_schema(schema)


def _messages(typed: bool) -> dict[str, cs.CoreSchema]:
    """Message items by role, with ``"type": "message"`` (``typed``) or without it."""
    input_text = closed({"type": literal("input_text"), "text": text()})
    image = closed(
        {"type": literal("input_image"), "image_url": non_empty()},
        {"detail": literal(*_DETAILS)},
    )
    user_parts = cs.list_schema(tagged({"input_text": input_text, "input_image": image}, "type"), strict=True)
    output_text = closed(
        {"type": literal("output_text"), "text": text()},
        {"annotations": cs.list_schema(cs.definition_reference_schema(JSON_VALUE), strict=True)},
    )
    assistant_parts = cs.list_schema(output_text, strict=True, min_length=1)
    kind = {"type": literal("message")} if typed else {}

    def message(role: str, content: cs.CoreSchema, *, extra: bool = False) -> cs.CoreSchema:
        return closed({"role": literal(role), "content": content, **kind}, extra=extra)

    system_content = either(text(), cs.list_schema(input_text, strict=True))
    return {
        "user": message("user", either(text(), user_parts)),
        "system": message("system", system_content),
        "developer": message("developer", system_content),
        # a typed item's own fields (id, status, phase), kept in its first part's bag; an
        # untyped one takes none, or a "type" of another value would be one of them
        "assistant": message("assistant", either(text(), assistant_parts), extra=typed),
    }


def _items() -> cs.CoreSchema:
    summary = closed({"type": literal("summary_text"), "text": text()})
    reasoning = closed(
        {"type": literal("reasoning"), "summary": cs.list_schema(summary, strict=True)},
        {"id": text(), "encrypted_content": text()},
    )
    # the item's own fields (id, status) come after these, in the payload's order, as
    # the general wire validation gives them, and are kept in the bag
    call = closed(
        {"type": literal("function_call"), "call_id": text(), "name": text(), "arguments": text()}, extra=True
    )
    output = closed(
        {"type": literal("function_call_output"), "call_id": text(), "output": text()}, {"name": text()}, extra=True
    )
    typed = tagged(
        {
            "message": tagged(_messages(typed=True), "role"),
            "reasoning": reasoning,
            "function_call": call,
            "function_call_output": output,
        },
        "type",
    )
    return cs.list_schema(either(typed, tagged(_messages(typed=False), "role")), strict=True)


def _request(json_input: bool) -> cs.CoreSchema:
    tool = closed(
        {"type": literal("function"), "name": non_empty()},
        {
            "description": _nullable(text()),
            "parameters": _nullable(json_object()),
            "strict": _nullable(cs.bool_schema(strict=True)),
        },
    )
    named = closed({"type": literal("function"), "name": non_empty()})
    reasoning = closed({}, {"effort": literal(*_EFFORTS), "summary": literal(*_SUMMARIES)})
    return closed(
        {},
        {
            "model": text(),
            "input": either(text(), _items()),
            "instructions": text(),
            "tools": cs.list_schema(tool, strict=True, min_length=1),
            "tool_choice": either(literal("auto", "none", "required"), named),
            "parallel_tool_calls": cs.bool_schema(strict=True),
            "max_output_tokens": cs.int_schema(strict=True, ge=1),
            "temperature": number(json_input=json_input),
            "top_p": number(json_input=json_input),
            "metadata": json_object(),
            "stream": cs.bool_schema(strict=True),
            "reasoning": reasoning,
            "include": cs.list_schema(text(), strict=True),
        },
        extra=True,  # fields with no canonical home, kept in the request's bag
    )


REQUEST = LazyValidator(_request)
"""The common request shapes, for dicts and for JSON text or bytes."""

_GENERAL_ONLY = frozenset({"text"})
"""A field the wire types know and :data:`REQUEST` does not: read by the general path only
(as an unknown field it would skip the general path's check of its shape)."""
_SAMPLING = ("temperature", "top_p")
_MESSAGE_FIELDS = ("type", "role", "content")
_CALL_FIELDS = ("type", "call_id", "name", "arguments")
_OUTPUT_FIELDS = ("type", "call_id", "output", "name")
_REASONING_FIELDS = ("type", "summary", "content", "encrypted_content")


def decode_request(payload: object) -> dict[str, Any] | None:
    """The canonical request dict for ``payload`` (a dict, or JSON text or bytes), or
    ``None`` when it is not one of the common shapes."""
    wire = REQUEST.validate(payload)
    if wire is None or not _GENERAL_ONLY.isdisjoint(wire):
        return None
    data: dict[str, Any] = {key: wire[key] for key in SCALAR_FIELDS if key in wire}
    bag = split_fields(wire, MAPPED_FIELDS)
    integers = [key for key in _SAMPLING if type(wire.get(key)) is int]
    if integers:  # canonical holds a float (request._as_spelled writes it back as spelled)
        bag["_integers"] = integers
        for key in integers:
            data[key] = as_sampling_number(data[key])
    messages = _messages_of(wire, bag)
    if messages is None:
        return None
    data["messages"] = messages
    if "max_output_tokens" in wire:
        data["max_tokens"] = wire["max_output_tokens"]
    _tools(wire, data)
    if "reasoning" in wire:
        if not wire["reasoning"]:
            return None  # kept whole in the bag by the general decoder
        data["reasoning"] = wire["reasoning"]
    if bag:
        data["provider_options"] = {PROVIDER: bag}
    return data


def _messages_of(wire: dict[str, Any], bag: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The messages: ``instructions`` and a string ``input`` as marked messages, items as
    ``messages.decode_messages`` reads them; ``None`` for a shape canonical refuses."""
    messages: list[dict[str, Any]] = []
    if "instructions" in wire:
        marker = {PROVIDER: {INSTRUCTIONS: True}}
        messages.append({"role": "system", "content": wire["instructions"], "provider_metadata": marker})
    items = wire.get("input")
    if type(items) is str:
        marker = {PROVIDER: {INPUT_STRING: True}}
        messages.append({"role": "user", "content": items, "provider_metadata": marker})
    elif items is not None:
        try:
            messages += decode_items(items)
        except _RefusedError:
            return None
        if "include" not in wire and any(_encrypted(item) for item in items):
            bag["_no_include"] = True  # as request._replays_encrypted finds it
    else:
        bag["_no_input"] = True
    return messages


def _encrypted(item: dict[str, Any]) -> bool:
    return item.get("type") == "reasoning" and bool(item.get("encrypted_content"))


def _tools(wire: dict[str, Any], data: dict[str, Any]) -> None:
    """As ``tools.decode_tools`` reads function tools and a plain or named choice."""
    tools = wire.get("tools")
    if tools is not None:
        data["tools"] = [decode_function_tool(tool) for tool in tools]
    choice = wire.get("tool_choice")
    if type(choice) is str:
        data["tool_choice"] = {"type": choice}
    elif choice is not None:
        data["tool_choice"] = {"type": "tool", "name": choice["name"]}
    if "parallel_tool_calls" in wire:
        data["parallel_tool_calls"] = wire["parallel_tool_calls"]


def decode_items(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Canonical messages for validated common-shape items, cut as
    ``messages.decode_messages`` cuts them: a run of the model's items is one assistant
    message (a message item right after another starts a new one), a run of outputs one
    tool message, every other message item a message of its own."""
    canonical: list[dict[str, Any]] = []
    run: list[dict[str, Any]] | None = None  # the parts of the open assistant message
    results: list[dict[str, Any]] | None = None  # the results of the open tool message
    after_message = False  # whether the last item was an assistant message item
    for item in items:
        kind = item.get("type")
        role = item.get("role") if kind is None or kind == "message" else None
        if kind == "function_call_output":
            run = None
            if results is None:
                results = []
                canonical.append({"role": "tool", "content": results})
            results.append(_output(item))
        elif role is not None and role != "assistant":
            run = results = None
            canonical.append(_message(item))
        else:
            results = None
            if run is None or (after_message and role is not None):
                run = []
                canonical.append({"role": "assistant", "content": run})
            _assistant_item(item, run)
        after_message = role == "assistant"
    for message in canonical:
        if message["role"] == "assistant":
            _to_string_form(message)
    return canonical


def _message(item: dict[str, Any]) -> dict[str, Any]:
    """A user, system or developer message item (``messages.decode_message``)."""
    content = item["content"]
    message: dict[str, Any] = {"role": item["role"], "content": content}
    if type(content) is not str:
        message["content"] = [_input_part(part) for part in content]
    if "type" in item:
        message["provider_metadata"] = {PROVIDER: {TYPED: True}}
    return message


def _input_part(part: dict[str, Any]) -> dict[str, Any]:
    """``parts.decode_part`` for an ``input_text`` or an ``input_image`` by URL."""
    if part["type"] == "input_text":
        return {"type": "text", "text": part["text"]}
    source = source_from_url(part["image_url"])
    if source["type"] == "base64" and not source["media_type"]:
        raise _RefusedError  # canonical media types are never empty: the general path says so
    image: dict[str, Any] = {"type": "image", "source": source}
    if "detail" in part:
        image["detail"] = part["detail"]
    else:  # the SDK requires it; a payload without it gets none back
        image["provider_metadata"] = {PROVIDER: {ABSENT: ["detail"]}}
    return image


def _output(item: dict[str, Any]) -> dict[str, Any]:
    """A ``function_call_output`` as a tool result (``messages.decode_output``)."""
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": item["call_id"], "content": item["output"]}
    if "name" in item:
        result["name"] = item["name"]
    bag = split_fields(item, _OUTPUT_FIELDS)
    if bag:
        result["provider_metadata"] = {PROVIDER: bag}
    return result


def _assistant_item(item: dict[str, Any], run: list[dict[str, Any]]) -> None:
    """The parts of one of the model's items (``items.decode_item``), added to its turn."""
    kind = item.get("type")
    if kind == "function_call":
        call = {"type": "tool_use", "id": item["call_id"], "name": item["name"], "arguments": item["arguments"]}
        bag = split_fields(item, _CALL_FIELDS)
        if bag:
            call["provider_metadata"] = {PROVIDER: bag}
        run.append(call)
    elif kind == "reasoning":
        run.extend(_reasoning(item))
    else:
        run.extend(_assistant_message(item))


def _assistant_message(item: dict[str, Any]) -> list[dict[str, Any]]:
    """``items._decode_message``: a part per text, the item's fields on the first."""
    content = item["content"]
    plain = type(content) is str
    parts: list[dict[str, Any]] = (
        [{"type": "text", "text": content}] if plain else [_output_text(part) for part in content]
    )
    first = parts[0]
    bag: dict[str, Any] = dict(first["provider_metadata"][PROVIDER]) if "provider_metadata" in first else {}
    bag[ITEM] = "message" if "type" in item else "bare"
    if plain:
        bag[STRING] = True
    rest = split_fields(item, _MESSAGE_FIELDS)
    if rest:
        bag["item"] = rest
    first["provider_metadata"] = {PROVIDER: bag}
    return parts


def _output_text(part: dict[str, Any]) -> dict[str, Any]:
    text_part: dict[str, Any] = {"type": "text", "text": part["text"]}
    if "annotations" in part:
        text_part["provider_metadata"] = {PROVIDER: {"annotations": part["annotations"]}}
    return text_part


def _reasoning(item: dict[str, Any]) -> list[dict[str, Any]]:
    """``items._decode_reasoning`` for summary entries: a thinking part each (one empty
    part for none), the item's fields on the first, ``encrypted_content`` on the last."""
    entries = item["summary"]
    parts: list[dict[str, Any]] = [
        {"type": "thinking", "text": entry["text"], "provider": PROVIDER} for entry in entries
    ]
    bags: list[dict[str, Any]] = [{} for _ in entries]
    if not parts:
        parts, bags = [{"type": "thinking", "text": "", "provider": PROVIDER}], [{KIND: "empty"}]
    bags[0] = {**split_fields(item, _REASONING_FIELDS), **bags[0], ITEM: "reasoning"}
    if "encrypted_content" in item:
        parts[-1]["encrypted"] = item["encrypted_content"]
    for part, bag in zip(parts, bags, strict=True):
        if bag:
            part["provider_metadata"] = {PROVIDER: bag}
    return parts


def _to_string_form(message: dict[str, Any]) -> None:
    """A turn that is one bare string message item is the canonical string form
    (``messages._to_string_form``)."""
    parts = message["content"]
    if len(parts) == 1 and parts[0]["type"] == "text":
        metadata = parts[0].get("provider_metadata")
        if metadata is not None and metadata[PROVIDER] == {ITEM: "bare", STRING: True}:
            message["content"] = parts[0]["text"]


class _RefusedError(Exception):
    """A shape canonical validation refuses: the general path reports it."""
