"""Canonical messages -> AG-UI messages, each in the order :mod:`.messages` reads them back.

A system, developer or user message is one message of its role (a system or developer message's
content one string); an assistant message is its thinking parts as reasoning messages, then one
assistant message of its text and its calls (written even when it holds neither, so the reasoning
before it reads back as the same turn; left out for reasoning read alone, ``_alone``); a tool
message is one tool message a result. Every message gets an id, its own from its bag or the one
:func:`~.markers.made_up_id` gives its place. What AG-UI has no field for is reported where it
stands: a cache marker, a tool message's name, a result's name other than its call's (the same
one is no data: AG-UI names the tool on the call), a thinking
part's signature, text after a call or reasoning after text (AG-UI's assistant message holds its
text before its calls, reasoning before both), several texts joined into the one string.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.ag_ui.markers import (
    AFTER,
    ALONE,
    BEFORE,
    CALL_DEFAULTS,
    DISPLAY,
    ERROR,
    EVENT_FIELDS,
    EVENTS,
    HOLDER,
    KIT,
    PARENT,
    made_up_id,
)
from chatcodec._frameworks.ag_ui.parts import encode_part
from chatcodec.codec_kit import as_dict, as_list, is_marker, restore_fields, wire_key
from chatcodec.contract import EncodeContext, Steps

_ONE_STRING = f"an {DISPLAY} {{role}} message's content is one string: its text parts joined"
_NO_CACHE = f"{DISPLAY} has no cache markers"


def error_text(content: str | Sequence[Mapping[str, Any]]) -> str:
    """The ``error`` a tool message is written with for an error result that kept none: the
    result's text (a string, or its text parts joined), read back as no data."""
    if isinstance(content, str):
        return content
    return "".join(part["text"] for part in content if part.get("type") == "text")


def encode_messages(messages: Sequence[Mapping[str, Any]], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as AG-UI messages."""
    writer = _Writer(context, _call_names(messages))
    for index, message in enumerate(messages[start:], start):
        writer.message(message, ("messages", index))
    return writer.out


def _call_names(messages: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    return {
        part["id"]: part["name"]
        for message in messages
        if message["role"] == "assistant" and not isinstance(message.get("content", ""), str)
        for part in message["content"]
        if part["type"] == "tool_use"
    }


class _Writer:
    def __init__(self, context: EncodeContext, names: Mapping[str, str]) -> None:
        self.context = context
        self.names = names
        self.out: list[dict[str, Any]] = []

    def start(self, bag: Mapping[str, Any], role: str) -> dict[str, Any]:
        """A new AG-UI message of ``role``: the fields its bag kept, its id."""
        wire: dict[str, Any] = {"id": made_up_id(len(self.out)), "role": role}
        wire.update(restore_fields(bag))
        wire["role"] = role
        self.out.append(wire)
        return wire

    def message(self, message: Mapping[str, Any], at: Steps) -> None:
        losses = self.context.losses
        bag = KIT.claim(losses, as_dict(message.get("provider_metadata")), (*at, "provider_metadata"))
        if bag.pop(EVENTS, None) is not None:
            why = f"a run's events beside its answer (a stream's) have no place in an {DISPLAY} message list"
            losses.add((*at, "provider_metadata", KIT.name, EVENTS), "run events", why, "metadata")
        before, after = as_list(bag.pop(BEFORE, None)) or [], as_list(bag.pop(AFTER, None)) or []
        self.out.extend(dict(entry) for entry in before if as_dict(entry) is not None)
        role = message["role"]
        if message.get("cache_control") is not None:
            losses.add((*at, "cache_control"), "cache_control", _NO_CACHE, "setting")
        if role == "assistant":
            self.assistant(message, bag, at)
        elif role == "tool":
            self.results(message, bag, at)
        elif not (bag.pop(HOLDER, None) and message["content"] == []):
            self.said(message, bag, at)
        self.out.extend(dict(entry) for entry in after if as_dict(entry) is not None)

    def said(self, message: Mapping[str, Any], bag: dict[str, Any], at: Steps) -> None:
        """A developer, system or user message (a text message, which AG-UI has not, as a user one)."""
        role = message["role"]
        if role == "text":
            why = f"{DISPLAY} has no raw completion text: written as a user message"
            self.context.losses.add((*at, "role"), "text message", why)
            role = "user"
        wire = self.start(bag, role)
        content = message["content"]
        if role == "user":
            wire["content"] = content if isinstance(content, str) else self.parts(content, at)
        else:
            wire["content"] = self.one_string(content, role, at)
        if message.get("name") is not None:
            wire["name"] = message["name"]

    def parts(self, content: Sequence[Mapping[str, Any]], at: Steps) -> list[dict[str, Any]]:
        written = (encode_part(part, self.context, (*at, "content", index)) for index, part in enumerate(content))
        return [part for part in written if part is not None]

    def one_string(self, content: str | Sequence[Mapping[str, Any]], role: str, at: Steps) -> str:
        """A system or developer message's content as its one string."""
        if isinstance(content, str):
            return content
        texts: list[str] = []
        for index, part in enumerate(content):
            where = (*at, "content", index)
            if part["type"] != "text":
                self.context.losses.add(where, f"{part['type']} part", f"an {DISPLAY} {role} message holds text only")
                continue
            self.plain_text(part, where)
            texts.append(part["text"])
        if len(texts) > 1:
            self.context.losses.add((*at, "content"), "text parts", _ONE_STRING.format(role=role))
        return "".join(texts)

    def plain_text(self, part: Mapping[str, Any], at: Steps) -> None:
        """Report what a text part written into a message's one string has besides its text."""
        losses = self.context.losses
        KIT.report_unplaced(losses, as_dict(part.get("provider_metadata")), (*at, "provider_metadata"), _NO_PLACE)
        if part.get("cache_control") is not None:
            losses.add((*at, "cache_control"), "cache_control", _NO_CACHE, "setting")

    def assistant(self, message: Mapping[str, Any], bag: dict[str, Any], at: Steps) -> None:
        content = message.get("content", "")
        if isinstance(content, str):
            wire = self.start(bag, "assistant")
            wire["content"] = content
            self.name(wire, message)
            return
        turn = _Turn(self, at)
        for index, part in enumerate(content):
            turn.add(part, (*at, "content", index))
        alone = bag.pop(ALONE, None)
        for part, where in turn.thinking:
            self.reasoning(part, where)
        if alone and turn.thinking and not turn.texts and not turn.calls:
            return
        wire = self.start(bag, "assistant")
        self.name(wire, message)
        if turn.texts:
            if len(turn.texts) > 1:
                self.context.losses.add((*at, "content"), "text parts", _ONE_STRING.format(role="assistant"))
            wire["content"] = "".join(turn.texts)
        if turn.calls:
            wire["toolCalls"] = turn.calls

    def name(self, wire: dict[str, Any], message: Mapping[str, Any]) -> None:
        if message.get("name") is not None:
            wire["name"] = message["name"]

    def reasoning(self, part: Mapping[str, Any], at: Steps) -> None:
        """A thinking part as a reasoning message: its text, its opaque payload ``encryptedValue``."""
        losses = self.context.losses
        bag = KIT.claim(losses, as_dict(part.get("provider_metadata")), (*at, "provider_metadata"))
        self.event_fields(bag, at)
        wire = self.start(bag, "reasoning")
        wire["content"] = part.get("text", "")
        if part.get("encrypted") is not None:
            wire["encryptedValue"] = part["encrypted"]
        for key in ("signature", "provider", "model"):
            if part.get(key) is not None:
                losses.add((*at, key), f"thinking {key}", f"an {DISPLAY} reasoning message has no field for it")
        if part.get("redacted"):
            why = f"an {DISPLAY} reasoning message does not say its text was withheld"
            losses.add((*at, "redacted"), "redacted thinking", why)
        if part.get("cache_control") is not None:
            losses.add((*at, "cache_control"), "cache_control", _NO_CACHE, "setting")

    def event_fields(self, bag: dict[str, Any], at: Steps) -> None:
        """Take out of a part's bag the fields its stream's events had (:data:`~.markers.EVENT_FIELDS`)
        and report them: a message has no place for an event's timestamp."""
        taken = [key for key in EVENT_FIELDS if bag.pop(key, None) is not None]
        if taken:
            why = f"an {DISPLAY} message has no place for the fields of the stream events it was read from"
            self.context.losses.add((*at, "provider_metadata", KIT.name), f"event fields {taken}", why, "metadata")

    def results(self, message: Mapping[str, Any], bag: Mapping[str, Any], at: Steps) -> None:
        losses = self.context.losses
        kept = sorted(wire_key(key) for key in bag if not is_marker(key))
        if kept:
            losses.add((*at, "provider_metadata"), f"{KIT.name} data {kept}", _NO_PLACE, "metadata")
        if message.get("name") is not None:
            losses.add((*at, "name"), "tool message name", f"an {DISPLAY} tool message has no name")
        for index, result in enumerate(message["content"]):
            self.result(result, (*at, "content", index))

    def result(self, result: Mapping[str, Any], at: Steps) -> None:
        losses = self.context.losses
        bag = KIT.claim(losses, as_dict(result.get("provider_metadata")), (*at, "provider_metadata"))
        error = bag.pop(ERROR, None)
        wire = self.start(bag, "tool")
        content = result.get("content", "")
        wire["content"] = content if isinstance(content, str) else self.parts(content, at)
        wire["toolCallId"] = result["tool_use_id"]
        if result.get("is_error"):
            wire["error"] = error if isinstance(error, str) else error_text(content)
        elif error is not None:
            why = "the result is no error: its error text is left out"
            losses.add((*at, "provider_metadata", KIT.name, ERROR), "tool error text", why, "metadata")
        name = result.get("name")
        if name is not None and name != self.names.get(result["tool_use_id"]):
            why = f"an {DISPLAY} tool message names no tool: its call does"
            losses.add((*at, "name"), "tool result name", why)
        if result.get("cache_control") is not None:
            losses.add((*at, "cache_control"), "cache_control", _NO_CACHE, "setting")


_NO_PLACE = f"an {DISPLAY} message's content is one string, with no place for a part's data"


class _Turn:
    """An assistant message's parts sorted into AG-UI's places, every move out of order reported."""

    def __init__(self, writer: _Writer, at: Steps) -> None:
        self.writer = writer
        self.at = at
        self.thinking: list[tuple[Mapping[str, Any], Steps]] = []
        self.texts: list[str] = []
        self.calls: list[dict[str, Any]] = []

    def add(self, part: Mapping[str, Any], at: Steps) -> None:
        losses = self.writer.context.losses
        kind = part["type"]
        if kind == "thinking":
            if self.texts or self.calls:
                why = f"an {DISPLAY} turn's reasoning messages come before its answer: moved there"
                losses.add(at, "reasoning after the answer", why)
            self.thinking.append((part, at))
        elif kind in ("text", "refusal"):
            if self.calls:
                why = f"an {DISPLAY} assistant message holds its text before its calls: moved there"
                losses.add(at, "text after a call", why)
            if kind == "refusal":
                losses.add(at, "refusal", f"{DISPLAY} has no refusal: written as the message's text")
            self.writer.plain_text(part, at)
            self.texts.append(part["text"])
        elif kind == "tool_use":
            self.calls.append(self.call(part, at))
        else:
            losses.add(at, f"{kind} part", f"an {DISPLAY} assistant message holds text and calls: left out")

    def call(self, part: Mapping[str, Any], at: Steps) -> dict[str, Any]:
        losses = self.writer.context.losses
        bag = KIT.claim(losses, as_dict(part.get("provider_metadata")), (*at, "provider_metadata"))
        self.writer.event_fields(bag, at)
        if bag.pop(PARENT, None) is not None:
            why = f"a call streamed for another {DISPLAY} message: written in this one"
            losses.add((*at, "provider_metadata", KIT.name, PARENT), "call's message", why, "metadata")
        function = {
            **(as_dict(bag.pop("function", None)) or {}),
            "name": part["name"],
            "arguments": part.get("arguments", ""),
        }
        if part.get("cache_control") is not None:
            losses.add((*at, "cache_control"), "cache_control", _NO_CACHE, "setting")
        return {"id": part["id"], **restore_fields(bag, CALL_DEFAULTS), "function": function}
