"""Assistant messages (in requests and in responses), both ways.

OpenAI spreads one assistant turn over fields: reasoning (on compatible servers), then
``content`` (a string, ``null``, or a list of text/refusal parts), then ``refusal``, then
``tool_calls``. Decoding lists the parts in that order. A canonical message whose parts
are interleaved otherwise (text, tool call, text) cannot keep its order; the encoder then
records a loss naming the message and writes the fields in OpenAI's order.

Content form: a message holding only a ``content`` string decodes to a canonical string;
otherwise the string becomes a text part. Encoding writes ``content`` as a string whenever
that reads back the same (one plain text part next to reasoning, refusal or tool calls),
and as a list of parts otherwise; the ``_content`` marker keeps the payload's own choice
(``"list"``, or ``"absent"`` for no ``content`` key; ``null`` is the default). A response
message must be a string (the SDK's ``ChatCompletionMessage.content``), so there several
parts are joined, with a loss.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, assert_never

from chatcodec._narrow import as_dict, as_list
from chatcodec.content import (
    AssistantContentPart,
    AudioPart,
    ImagePart,
    OpaquePart,
    RefusalPart,
    TextPart,
    ThinkingPart,
    ToolUsePart,
)
from chatcodec.losses import LossRecorder
from chatcodec.messages import AssistantMessage
from chatcodec.providers.kit import Steps, absent_keys, leftovers, mark_absent, tool_name, unmapped, wire_fields
from chatcodec.providers.openai_chat import cache_control, functions, parts, reasoning, server_tools, thought_signatures
from chatcodec.providers.openai_chat.markers import KIT, PROVIDER, opaque


class ContentKind(Enum):
    """What a part that belongs in ``content`` is, as far as the string form is concerned."""

    PLAIN_TEXT = "plain text"
    """A text part with no cache marker and no bag: a string can hold it."""
    PLAIN_REFUSAL = "plain refusal"
    """A refusal with no wire fields of its own: the ``refusal`` field can hold it."""
    OTHER = "other"
    """Anything else: only the list form holds it."""


_STRING_SHAPES = (
    (),
    (ContentKind.PLAIN_TEXT,),
    (ContentKind.PLAIN_REFUSAL,),
    (ContentKind.PLAIN_TEXT, ContentKind.PLAIN_REFUSAL),
)
"""The ``content`` layouts a string (plus the ``refusal`` field) writes exactly."""


def writes_string(kinds: Sequence[ContentKind], field_refusals: int, others: bool) -> bool:
    """Whether the encoder writes ``content`` as a string, given the kinds of the parts
    that belong in ``content``, the refusals from the ``refusal`` field, and whether
    reasoning or tool calls come with them."""
    shape = tuple(kinds)
    if shape not in _STRING_SHAPES or shape.count(ContentKind.PLAIN_REFUSAL) + field_refusals > 1:
        return False
    lone_text = shape == (ContentKind.PLAIN_TEXT,) and not others and not field_refusals
    return not lone_text  # a lone plain text already decodes as a string


# --- decode --------------------------------------------------------------------------


def decode_assistant(
    message: Mapping[str, Any], *, response: bool = False, ids: functions.CallIds | None = None
) -> dict[str, Any]:
    """A wire assistant message (request history or, with ``response``, a response's),
    canonical; ``ids`` names the conversation's deprecated ``function_call`` entries."""
    thinking, mapped = reasoning.decode_reasoning(message)
    mapped.append("role")
    canonical: dict[str, Any] = {"role": "assistant"}
    if message.get("name") is not None:
        canonical["name"] = message["name"]
        mapped.append("name")
    if message.get("refusal") is not None:
        mapped.append("refusal")
    wire_calls = as_list(message.get("tool_calls")) or []
    server_parts, taken, fields_rest = server_tools.decode_server_tools(message, wire_calls)
    if server_parts:
        mapped.append(server_tools.FIELDS)
    call_parts = [decode_tool_call(call) for position, call in enumerate(wire_calls) if position not in taken]
    function_call = as_dict(message.get("function_call"))
    if function_call is not None:
        call_parts.append(functions.decode_function_call(function_call, ids or functions.CallIds()))
        mapped.append("function_call")
    refusal = message.get("refusal")
    content = message.get("content")
    bag: dict[str, Any]
    if not thinking and not call_parts and not server_parts and refusal is None and isinstance(content, str):
        canonical["content"] = content
        bag = leftovers(message, [*mapped, "content"])
        cache_control.take(bag, canonical)
        return KIT.attach(canonical, bag)
    bag = {}
    items = _decode_content(content, message, bag)
    listed = isinstance(content, list)
    others = bool(thinking or call_parts or server_parts)
    if listed and (response or writes_string([_kind(item) for item in items], refusal is not None, others)):
        bag["_content"] = "list"  # a response's content is written as a string unless marked
    body = [*thinking, *server_parts, *items]
    if isinstance(refusal, str):
        body.append(KIT.attach({"type": "refusal", "text": refusal}, {"_field": "refusal"} if listed else {}))
    body.extend(call_parts)
    if as_list(message.get("tool_calls")):
        mapped.append("tool_calls")
    canonical["content"] = body
    bag.update(leftovers(message, [*mapped, "content"]))
    if fields_rest:
        bag[server_tools.FIELDS] = fields_rest
    cache_control.take(bag, canonical)
    return KIT.attach(canonical, bag)


def _decode_content(content: object, message: Mapping[str, Any], bag: dict[str, Any]) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    listed = as_list(content)
    if listed is not None:
        return [_decode_item(item) for item in listed]
    if "content" not in message:
        bag["_content"] = "absent"
    return []


def _decode_item(item: dict[str, Any]) -> dict[str, Any]:
    match item.get("type"):
        case "text":
            return parts.decode_text_part(item)
        case "refusal":
            return KIT.attach({"type": "refusal", "text": item["refusal"]}, leftovers(item, ("type", "refusal")))
        case "thinking":
            return reasoning.decode_content_thinking(item)
        case _:
            return server_tools.content_block(item) or opaque(item)


def _kind(part: Mapping[str, Any]) -> ContentKind:
    if "provider_metadata" in part or "cache_control" in part:
        return ContentKind.OTHER
    if part["type"] == "text":
        return ContentKind.PLAIN_TEXT
    return ContentKind.PLAIN_REFUSAL if part["type"] == "refusal" else ContentKind.OTHER


def decode_tool_call(call: Mapping[str, Any]) -> dict[str, Any]:
    """A wire tool call as a ``tool_use`` part; custom-tool calls are kept opaque."""
    if call.get("type", "function") != "function":
        return opaque(dict(call), {"_in": "tool_calls"})
    function: dict[str, Any] = call["function"]
    bag = leftovers(call, ("id", "type", "function"))
    arguments = functions.decode_arguments(function, bag)
    part = {"type": "tool_use", "id": call["id"], "name": function["name"], "arguments": arguments}
    function_rest = unmapped(function, ("name", "arguments"))
    if function_rest:
        bag["function"] = function_rest
    mark_absent(bag, call, "type")
    cache_control.take(bag, part)
    signature = thought_signatures.take_signature(bag)
    return thought_signatures.attach_signature(KIT.attach(part, bag), signature)


# --- encode --------------------------------------------------------------------------


@dataclass
class _Layout:
    """The parts of one canonical message, sorted into the wire fields they go to."""

    thinking: list[tuple[ThinkingPart, str, Steps]] = field(default_factory=list[tuple[ThinkingPart, str, Steps]])
    items: list[tuple[TextPart | RefusalPart | ThinkingPart | OpaquePart, Steps]] = field(
        default_factory=list[tuple[TextPart | RefusalPart | ThinkingPart | OpaquePart, Steps]]
    )
    refusals: list[RefusalPart] = field(default_factory=list[RefusalPart])
    calls: list[tuple[ToolUsePart | OpaquePart, Steps]] = field(
        default_factory=list[tuple[ToolUsePart | OpaquePart, Steps]]
    )
    server: list[OpaquePart] = field(default_factory=list[OpaquePart])
    slots: list[int] = field(default_factory=list[int])

    def kinds(self) -> list[ContentKind]:
        return [_model_kind(part) for part, _ in self.items]


_SLOTS = {
    "reasoning_content": 0,
    "reasoning": 1,
    "reasoning_details": 2,
    "server": 3,
    "item": 4,
    "refusal": 5,
    "call": 6,
}


def _model_kind(part: TextPart | RefusalPart | ThinkingPart | OpaquePart) -> ContentKind:
    if isinstance(part, TextPart) and part.cache_control is None and not KIT.own(part.provider_metadata):
        return ContentKind.PLAIN_TEXT
    if isinstance(part, RefusalPart) and not wire_fields(KIT.own(part.provider_metadata)):
        return ContentKind.PLAIN_REFUSAL
    return ContentKind.OTHER


def encode_assistant(
    message: AssistantMessage, reasoning_field: str | None, losses: LossRecorder, at: Steps, *, response: bool = False
) -> dict[str, Any]:
    """The wire assistant message; ``response`` writes the stricter response shape."""
    KIT.report_foreign(losses, message.provider_metadata, at)
    bag = KIT.own(message.provider_metadata)
    wire: dict[str, Any] = {**wire_fields(bag), "role": "assistant"}
    if message.name is not None:
        wire["name"] = message.name
    why = "OpenAI cache breakpoints sit on content parts"
    cache_control.write(wire, message.cache_control, message.provider_metadata, losses, at, why=why)
    if isinstance(message.content, str):
        wire["content"] = message.content
        return wire
    layout = _lay_out(message.content, reasoning_field, losses, at)
    if layout.slots != sorted(layout.slots):
        why = "OpenAI carries reasoning, then content, then refusal, then tool calls"
        losses.add((*at, "content"), "order of the assistant message's parts", why)
    writer = reasoning.ReasoningWriter(losses)
    for part, target, steps in layout.thinking:
        writer.add(part, target, steps)
    wire.update(writer.fields(at))
    _write_content(wire, layout, bag, losses, at, response=response)
    _write_calls(wire, layout.calls, losses, at, response=response)
    if layout.server:
        server_tools.write_server_parts(wire, layout.server, wire.get(server_tools.FIELDS))
    return wire


def _write_calls(
    wire: dict[str, Any],
    calls: list[tuple[ToolUsePart | OpaquePart, Steps]],
    losses: LossRecorder,
    at: Steps,
    *,
    response: bool,
) -> None:
    """``tool_calls``, and the deprecated ``function_call`` for the call that came as one
    (a message has one such field: a second such call goes in ``tool_calls``, reported)."""
    listed: list[tuple[ToolUsePart | OpaquePart, Steps]] = []
    for part, steps in calls:
        if isinstance(part, ToolUsePart) and functions.is_function_call(part) and "function_call" not in wire:
            encoded = _encode_call(part, losses, steps, response=response)
            if encoded is not None:
                wire["function_call"] = encoded["function"]
        else:
            if isinstance(part, ToolUsePart) and functions.is_function_call(part):
                why = "a message has one function_call; this one goes in tool_calls"
                losses.add(steps, "second function_call", why)
            listed.append((part, steps))
    if listed:
        encoded_calls = (_encode_call(part, losses, steps, response=response) for part, steps in listed)
        wire["tool_calls"] = [call for call in encoded_calls if call is not None]


def _lay_out(
    content: list[AssistantContentPart], reasoning_field: str | None, losses: LossRecorder, at: Steps
) -> _Layout:
    layout = _Layout()
    for index, part in enumerate(content):
        steps = (*at, "content", index)
        slot = _place(part, layout, reasoning_field, losses, steps)
        if slot is not None:
            layout.slots.append(_SLOTS[slot])
    return layout


def _place(
    part: AssistantContentPart, layout: _Layout, reasoning_field: str | None, losses: LossRecorder, steps: Steps
) -> str | None:
    match part:
        case ThinkingPart():
            target = reasoning.field_for(part, reasoning_field)
            if target is None:
                reasoning.drop_loss(part.provider, losses, steps)
                return None
            if target == reasoning.CONTENT:
                layout.items.append((part, steps))
                return "item"
            layout.thinking.append((part, target, steps))
            return target
        case TextPart():
            layout.items.append((part, steps))
            return "item"
        case RefusalPart() if KIT.own(part.provider_metadata).get("_field") == "refusal":
            layout.refusals.append(part)
            return "refusal"
        case RefusalPart():
            layout.items.append((part, steps))
            return "item"
        case ToolUsePart():
            layout.calls.append((part, steps))
            return "call"
        case OpaquePart() if server_tools.in_content(part):
            layout.items.append((part, steps))
            return "item"
        case OpaquePart() if server_tools.is_server_part(part):
            layout.server.append(part)
            return "server"
        case OpaquePart() if part.provider == PROVIDER:
            in_calls = KIT.own(part.provider_metadata).get("_in") == "tool_calls"
            (layout.calls if in_calls else layout.items).append((part, steps))
            return "call" if in_calls else "item"
        case OpaquePart() | ImagePart() | AudioPart():
            _unplaceable(part, losses, steps)
            return None
        case _:
            assert_never(part)


def _unplaceable(part: OpaquePart | ImagePart | AudioPart, losses: LossRecorder, steps: Steps) -> None:
    if isinstance(part, OpaquePart):
        losses.add(steps, f"{part.provider} block", f"{PROVIDER} cannot carry another provider's block")
    else:
        losses.add(steps, f"{part.type} part", "OpenAI assistant messages hold only text, refusals and tool calls")


def _write_content(
    wire: dict[str, Any], layout: _Layout, bag: dict[str, Any], losses: LossRecorder, at: Steps, *, response: bool
) -> None:
    kinds = layout.kinds()
    listed = bag.get("_content") == "list"
    as_string = writes_string(kinds, len(layout.refusals), bool(layout.thinking or layout.calls or layout.server))
    if response and kinds == [ContentKind.PLAIN_TEXT]:
        as_string = True  # a lone text reads back as a string: the normal response shape
    if response and not listed and not as_string:
        _write_joined(wire, layout, losses, at)
        return
    if listed or not as_string:
        encoded = (_encode_item(part, losses, steps) for part, steps in layout.items)
        wire["content"] = [item for item in encoded if item is not None]
        _write_refusal(wire, layout.refusals, losses, at)
        return
    _report_foreign_texts(layout, losses)
    texts = [part for part, _ in layout.items if isinstance(part, TextPart)]
    if texts:
        wire["content"] = texts[0].text
    elif bag.get("_content") != "absent":
        wire["content"] = None
    item_refusals = [part for part, _ in layout.items if isinstance(part, RefusalPart)]
    _write_refusal(wire, [*item_refusals, *layout.refusals], losses, at)


def _write_joined(wire: dict[str, Any], layout: _Layout, losses: LossRecorder, at: Steps) -> None:
    """A response message: text parts joined into one string, refusals into ``refusal``."""
    _report_foreign_texts(layout, losses)
    texts = [part.text for part, _ in layout.items if isinstance(part, TextPart)]
    refusals = [part for part, _ in layout.items if isinstance(part, RefusalPart)]
    for part, steps in layout.items:
        if isinstance(part, ThinkingPart | OpaquePart):
            losses.add(steps, f"{part.type} part in content", "a response message's content is a string")
    why = "a response message's content is one string"
    losses.add((*at, "content"), f"{len(layout.items)} content parts joined", why)
    wire["content"] = "".join(texts) if texts else None
    _write_refusal(wire, [*refusals, *layout.refusals], losses, at)


def _report_foreign_texts(layout: _Layout, losses: LossRecorder) -> None:
    """Text parts written as a plain string carry no bag: another provider's data on one
    is reported, as it is on a listed part (issue 10, item 19: an unknown key on an
    Anthropic assistant text block vanished into the string)."""
    for part, steps in layout.items:
        if isinstance(part, TextPart):
            KIT.report_foreign(losses, part.provider_metadata, steps)


def _write_refusal(wire: dict[str, Any], refusals: list[RefusalPart], losses: LossRecorder, at: Steps) -> None:
    if not refusals:
        return
    if len(refusals) > 1:
        losses.add((*at, "content"), f"{len(refusals)} refusals joined", "OpenAI has one refusal field")
    for part in refusals:
        KIT.report_foreign(losses, part.provider_metadata, (*at, "content"))
        if part.cache_control is not None:
            losses.add((*at, "content"), "cache_control", "the refusal field takes no cache breakpoint")
    wire["refusal"] = "".join(part.text for part in refusals)


def _encode_item(
    part: TextPart | RefusalPart | ThinkingPart | OpaquePart, losses: LossRecorder, steps: Steps
) -> dict[str, Any] | None:
    KIT.report_foreign(losses, part.provider_metadata, steps)
    match part:
        case TextPart():
            return parts.encode_text_part(part, losses, steps)
        case RefusalPart():
            if part.cache_control is not None:
                losses.add((*steps, "cache_control"), "cache_control", "refusal parts take no cache breakpoint")
            return {**wire_fields(KIT.own(part.provider_metadata)), "type": "refusal", "refusal": part.text}
        case ThinkingPart():
            return reasoning.encode_content_thinking(part, losses, steps)
        case OpaquePart() if server_tools.in_content(part):
            return dict(part.data)
        case OpaquePart():
            return parts.encode_opaque(part, losses, steps)
        case _:
            assert_never(part)


def _encode_call(
    part: ToolUsePart | OpaquePart, losses: LossRecorder, steps: Steps, *, response: bool
) -> dict[str, Any] | None:
    """A wire tool call. In a request the name follows OpenAI's rule (``kit.tool_name``);
    a response carries the name the model called, as it is."""
    if isinstance(part, OpaquePart):
        return parts.encode_opaque(part, losses, steps)
    signature, foreign = thought_signatures.split_signature(part.provider_metadata)
    KIT.report_foreign(losses, foreign, steps)
    bag = KIT.own(part.provider_metadata)
    name = part.name if response else tool_name(part.name, losses, steps, PROVIDER)
    if response and not name.strip():  # a request refuses it (tool_names); what a model called is kept
        losses.add((*steps, "name"), "blank tool name", "OpenAI clients cannot dispatch a call without a name")
    arguments = functions.encode_arguments(part)
    if isinstance(arguments, str) and not arguments.strip():
        # A call without arguments is "{}": OpenAI (and servers that parse it) reject "" (issue 10 item 5).
        arguments = "{}"
    function = {**(as_dict(bag.pop("function", None)) or {}), "name": name, "arguments": arguments}
    call: dict[str, Any] = {**wire_fields(bag), "id": part.id}
    if "type" not in absent_keys(bag):
        call["type"] = "function"
    call["function"] = function
    thought_signatures.write_signature(call, signature)
    why = "OpenAI tool calls take no cache breakpoint"
    cache_control.write(call, part.cache_control, part.provider_metadata, losses, steps, why=why)
    return call
