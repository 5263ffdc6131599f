"""The ``messages`` list of a request, both ways.

Two rewrites keep OpenAI's rules:

- **Tool results are grouped** (no loss: nothing changes but the grouping). OpenAI sends
  one ``role: tool`` message per result; consecutive ones decode into a single
  :class:`~chatcodec.ToolMessage` (as Anthropic, Gemini and Bedrock send them), and a
  tool message with N results encodes as N ``tool`` messages. Two canonical tool
  messages in a row therefore read back as one.
- **Media in tool results move to a user message** (a loss: the result no longer holds
  them). OpenAI ``tool`` messages hold text only, so the images, audio and files of a
  result are sent in a ``user`` message right after the group of ``tool`` messages (tool
  messages must directly follow the assistant turn), and a result left with no text is
  sent as ``""``. Decoding gives that user message back as a :class:`~chatcodec.UserMessage`.

OpenAI rejects ``content: []`` on a system or user message, and an assistant message
with neither content nor tool calls: one whose parts were all dropped (each a loss) is
left out, with a loss; one that was empty at the source is written as it was.

A tool message's own leftovers (keys OpenAI adds in future, or a compatible server's
``name``) live on its result part, since grouping makes the result the unit.
"""

from __future__ import annotations

from typing import Any, assert_never

from chatcodec.content import OpaquePart, TextPart, ToolResultContentPart, ToolResultPart
from chatcodec.losses import LossRecorder
from chatcodec.messages import (
    AnyMessage,
    AssistantMessage,
    SystemMessage,
    TextMessage,
    ToolMessage,
    UserMessage,
)
from chatcodec.providers.kit import Steps, leftovers, present, wire_fields
from chatcodec.providers.kit.context import DecodeContext, EncodeContext
from chatcodec.providers.openai_chat import assistant, cache_control, functions, parts, reasoning
from chatcodec.providers.openai_chat.markers import KIT, PROVIDER

# --- decode --------------------------------------------------------------------------


def decode_messages(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Wire messages as canonical message dicts (tool results grouped)."""
    decoded: list[dict[str, Any]] = []
    ids = functions.CallIds()
    for message in messages:
        role = message["role"]
        if role == "assistant":
            decoded.append(assistant.decode_assistant(message, ids=ids))
        elif role in ("tool", "function"):
            result = _decode_tool_result(message) if role == "tool" else functions.decode_function_message(message, ids)
            if decoded and decoded[-1]["role"] == "tool":
                decoded[-1]["content"].append(result)
            else:
                decoded.append({"role": "tool", "content": [result]})
        else:  # system, developer, user: the wire types allow no other role
            canonical: dict[str, Any] = {"role": role, "content": parts.decode_parts(message["content"])}
            if isinstance(message.get("name"), str):
                canonical["name"] = message["name"]
            bag = leftovers(message, ("role", "content", *present(message, "name")))
            cache_control.take(bag, canonical)
            decoded.append(KIT.attach(canonical, bag))
    return decoded


def _decode_tool_result(message: dict[str, Any]) -> dict[str, Any]:
    result = {"type": "tool_result", "tool_use_id": message["tool_call_id"]}
    result["content"] = parts.decode_parts(message["content"])
    bag = leftovers(message, ("role", "tool_call_id", "content"))
    cache_control.take(bag, result)
    return KIT.attach(result, bag)


# --- encode --------------------------------------------------------------------------


def encode_messages(messages: list[AnyMessage], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as wire messages (the whole list: OpenAI keeps system
    messages in it, so the request passes 0)."""
    losses = context.losses
    reasoning_field = reasoning.option(context, ("provider_options", PROVIDER, reasoning.OPTION))
    wire: list[dict[str, Any]] = []
    moved: list[dict[str, Any]] = []  # media from tool results, sent after the tool group
    for index, message in enumerate(messages[start:], start):
        at: Steps = ("messages", index)
        if moved and not isinstance(message, ToolMessage):
            wire.append({"role": "user", "content": moved})
            moved = []
        match message:
            case SystemMessage() | UserMessage():
                plain = _encode_plain(message, context, at)
                if plain is not None:
                    wire.append(plain)
            case AssistantMessage():
                encoded = assistant.encode_assistant(message, reasoning_field, losses, at)
                if message.content and set(encoded) <= {"role", "content"} and not encoded.get("content"):
                    losses.add(at, "assistant message", "none of its parts can be carried; OpenAI rejects it empty")
                else:
                    wire.append(encoded)
            case ToolMessage():
                wire.extend(_encode_tool_message(message, moved, context, at))
            case TextMessage():
                losses.add(at, "text message", "OpenAI Chat has no raw-text role; sent as a user message")
                wire.append({"role": "user", "content": message.content})
            case _:
                assert_never(message)
    if moved:
        wire.append({"role": "user", "content": moved})
    return wire


def _encode_plain(message: SystemMessage | UserMessage, context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    losses = context.losses
    KIT.report_foreign(losses, message.provider_metadata, at)
    wire: dict[str, Any] = {**wire_fields(KIT.own(message.provider_metadata)), "role": message.role}
    if isinstance(message.content, str):
        wire["content"] = message.content
    else:
        encoded = (
            parts.encode_part(part, context, (*at, "content", index)) for index, part in enumerate(message.content)
        )
        wire["content"] = [part for part in encoded if part is not None]
        if message.content and not wire["content"]:
            losses.add(at, f"{message.role} message", "none of its parts can be carried; OpenAI rejects empty content")
            return None
    if message.name is not None:
        wire["name"] = message.name
    cache_control.write(wire, message.cache_control, message.provider_metadata, losses, at, why=_ON_PARTS)
    return wire


_ON_PARTS = "OpenAI cache breakpoints sit on content parts"


def _encode_tool_message(
    message: ToolMessage, moved: list[dict[str, Any]], context: EncodeContext, at: Steps
) -> list[dict[str, Any]]:
    losses = context.losses
    KIT.report_foreign(losses, message.provider_metadata, at)
    if message.cache_control is not None:
        losses.add((*at, "cache_control"), "cache_control", _ON_PARTS, "setting")
    if message.name is not None:
        losses.add((*at, "name"), "tool message name", "OpenAI tool messages have no name")
    shared = wire_fields(KIT.own(message.provider_metadata))
    return [
        _encode_result(result, shared, moved, context, (*at, "content", index))
        for index, result in enumerate(message.content)
    ]


def _encode_result(
    result: ToolResultPart, shared: dict[str, Any], moved: list[dict[str, Any]], context: EncodeContext, at: Steps
) -> dict[str, Any]:
    losses = context.losses
    KIT.report_foreign(losses, result.provider_metadata, at)
    own = {**shared, **wire_fields(KIT.own(result.provider_metadata))}
    function_message = functions.encode_function_message(result, own)
    if function_message is not None:
        _result_losses(result, losses, at, named=True)
        return function_message
    wire: dict[str, Any] = {**own, "role": "tool"}
    wire["tool_call_id"] = result.tool_use_id
    if isinstance(result.content, str):
        wire["content"] = result.content
    else:
        wire["content"] = _result_content(result.content, moved, context, at)
    _result_losses(result, losses, at, named=False)
    cache_control.write(wire, result.cache_control, result.provider_metadata, losses, at, why=_ON_PARTS)
    return wire


def _result_losses(result: ToolResultPart, losses: LossRecorder, at: Steps, *, named: bool) -> None:
    """What a ``tool`` message (or, ``named``, a ``function`` message) has no field for."""
    if result.is_error:
        losses.add((*at, "is_error"), "tool error flag", "OpenAI tool messages cannot mark an error (content is sent)")
    if result.name is not None and not named:
        report_result_name(losses, at)
    if named and result.cache_control is not None:
        losses.add((*at, "cache_control"), "cache_control", "a function message takes no cache breakpoint", "setting")


def report_result_name(losses: LossRecorder, at: Steps) -> None:
    """A result's tool name, which a ``tool`` message has no field for (Gemini names every
    result; the one-pass encoder reports it with this function too)."""
    losses.add((*at, "name"), "tool name on a result", "OpenAI tool messages have no name")


def _result_content(
    content: list[ToolResultContentPart], moved: list[dict[str, Any]], context: EncodeContext, at: Steps
) -> list[dict[str, Any]] | str:
    """The text parts a ``tool`` message keeps; media go to ``moved`` (a loss each)."""
    losses = context.losses
    kept: list[dict[str, Any]] = []
    for index, part in enumerate(content):
        steps = (*at, "content", index)
        stays = isinstance(part, TextPart) or (isinstance(part, OpaquePart) and part.provider == PROVIDER)
        encoded = parts.encode_part(part, context, steps)
        if encoded is None:
            continue
        if stays:
            kept.append(encoded)
        else:
            why = "OpenAI tool messages hold text only; sent in a user message after the results"
            losses.add(steps, f"{part.type} part in a tool result", why)
            moved.append(encoded)
    return kept if kept or not content else ""
