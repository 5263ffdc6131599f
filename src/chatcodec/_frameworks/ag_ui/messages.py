"""AG-UI messages <-> canonical messages.

A developer, system or user message is one canonical message of its role. An assistant message
is one assistant message, its text before its ``toolCalls``; the reasoning messages right before
it are its thinking parts, in front (as pydantic-ai's AG-UI adapter writes a response: the
reasoning, then the answer), and reasoning messages no assistant message follows are an
assistant message of their own (``_alone``). Consecutive tool messages are one tool message, a
result each (AG-UI names a result's tool only on its call); a result whose message has an
``error`` is an error result (the text of the ``error`` in its bag when it is not the result's
own text). An activity message (structured progress a UI renders, no conversation content) rides
whole in the bag of the message after it (``activities_before``) or, at the end, of the last
(``activities_after``). Each message's other fields (its ``id``, unless it is the one the writer
would give it there) ride in the bag of what it became. Written, each canonical message gives its
messages back in the same order (:mod:`.writer`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.ag_ui.markers import AFTER, ALONE, BEFORE, CALL_DEFAULTS, ERROR, HOLDER, KIT, made_up_id
from chatcodec._frameworks.ag_ui.parts import decode_part
from chatcodec._frameworks.ag_ui.writer import encode_messages, error_text
from chatcodec.codec_kit import as_dict, as_list, split_fields, unmapped_fields
from chatcodec.contract import DecodeContext

__all__ = ["decode_messages", "encode_messages"]


def decode_messages(wire: Sequence[Mapping[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """AG-UI messages (checked by :mod:`.wire`) as canonical message dicts."""
    del context  # nothing in the context changes the reading
    reader = _Reader()
    for index, message in enumerate(wire):
        reader.read(message, index)
    return reader.close()


def _bag(message: Mapping[str, Any], mapped: Sequence[str], index: int) -> dict[str, Any]:
    """A message's fields with no canonical home, without the id the writer gives it at ``index``."""
    bag = split_fields(message, mapped)
    if bag.get("id") == made_up_id(index):
        del bag["id"]
    return bag


class _Reader:
    """The canonical messages an AG-UI list reads as, built message by message."""

    def __init__(self) -> None:
        self.out: list[dict[str, Any]] = []
        self.thinking: list[dict[str, Any]] = []
        self.activities: list[dict[str, Any]] = []
        self.before: list[dict[str, Any]] = []  # the activities before the turn the reasoning opened
        self.joins_results = False

    def read(self, message: Mapping[str, Any], index: int) -> None:
        role = message["role"]
        if role == "activity":
            self.flush_thinking()
            self.activities.append(dict(message))
            self.joins_results = False
            return
        if role == "reasoning":
            if not self.thinking:
                self.before, self.activities = self.activities, []
            self.thinking.append(_thinking(message, index))
            return
        if role == "assistant":
            self.assistant(message, index)
        elif role == "tool":
            self.flush_thinking()
            self.result(message, index)
            return
        else:
            self.flush_thinking()
            content = message["content"]
            canonical: dict[str, Any] = {
                "role": role,
                "content": content if isinstance(content, str) else [decode_part(part) for part in content],
            }
            self.add(_named(canonical, message), _bag(message, ("role", "content", "name"), index))
        self.joins_results = False

    def assistant(self, message: Mapping[str, Any], index: int) -> None:
        text = message.get("content")
        calls = [_call(call) for call in as_list(message.get("toolCalls")) or ()]
        content: str | list[dict[str, Any]]
        if not self.thinking and not calls:
            content = text if isinstance(text, str) else []
        else:
            content = [*self.thinking, *([{"type": "text", "text": text}] if isinstance(text, str) else []), *calls]
        bag = _bag(message, ("role", "content", "toolCalls", "name"), index)
        if self.thinking:
            self.activities, self.before = [*self.before, *self.activities], []
            self.thinking = []
        self.add(_named({"role": "assistant", "content": content}, message), bag)

    def result(self, message: Mapping[str, Any], index: int) -> None:
        content = message["content"]
        result: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": message["toolCallId"],
            "content": content if isinstance(content, str) else [decode_part(part) for part in content],
        }
        bag = _bag(message, ("role", "content", "toolCallId", "error"), index)
        error = message.get("error")
        if error is not None:
            result["is_error"] = True
            if error != error_text(result["content"]):
                bag[ERROR] = error
        KIT.attach(result, bag)
        if self.joins_results and not self.activities:
            self.out[-1]["content"].append(result)
        else:
            self.add({"role": "tool", "content": [result]}, {})
        self.joins_results = True

    def add(self, canonical: dict[str, Any], bag: dict[str, Any]) -> None:
        if self.activities:
            bag[BEFORE] = self.activities
            self.activities = []
        self.out.append(KIT.attach(canonical, bag))

    def flush_thinking(self) -> None:
        """Reasoning no assistant message followed: an assistant message of its own."""
        if not self.thinking:
            return
        self.activities, self.before = [*self.before, *self.activities], []
        self.add({"role": "assistant", "content": self.thinking}, {ALONE: True})
        self.thinking = []

    def close(self) -> list[dict[str, Any]]:
        self.flush_thinking()
        if self.activities:
            if not self.out:  # a conversation of activities alone: one empty user message holds them
                self.out.append({"role": "user", "content": [], "provider_metadata": {KIT.name: {HOLDER: True}}})
            last = self.out[-1]
            last["provider_metadata"] = {
                **(as_dict(last.get("provider_metadata")) or {}),
                KIT.name: {**KIT.own(last.get("provider_metadata")), AFTER: self.activities},
            }
        return self.out


def _named(canonical: dict[str, Any], message: Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(message.get("name"), str):
        canonical["name"] = message["name"]
    return canonical


def _thinking(message: Mapping[str, Any], index: int) -> dict[str, Any]:
    """A reasoning message as a thinking part: its text, its ``encryptedValue`` the opaque payload."""
    part: dict[str, Any] = {"type": "thinking", "text": message["content"]}
    if isinstance(message.get("encryptedValue"), str):
        part["encrypted"] = message["encryptedValue"]
    return KIT.attach(part, _bag(message, ("role", "content", "encryptedValue"), index))


def _call(call: Mapping[str, Any]) -> dict[str, Any]:
    function = call["function"]
    part = {"type": "tool_use", "id": call["id"], "name": function["name"], "arguments": function["arguments"]}
    bag = split_fields(call, ("id", "function"), CALL_DEFAULTS)
    extra = unmapped_fields(function, ("name", "arguments"))
    if extra:
        bag["function"] = extra
    return KIT.attach(part, bag)
