"""The deprecated function-calling shapes, and arguments given as a JSON object.

Before ``tool_calls``, an assistant message carried one ``function_call: {name, arguments}``
and its result came back as a ``{"role": "function", "name": ..., "content": ...}``
message (OpenAI API reference: "Deprecated and replaced by ``tool_calls``"; the SDK still
types both as ``ChatCompletionAssistantMessageParam.function_call`` and
``ChatCompletionFunctionMessageParam``). Stored conversations and older clients still send
them. They decode to the canonical tool call and tool result, so they reach every
provider, with the markers this encoder needs to write them back as they came:

``_function_call``  on a tool call: it was the message's ``function_call``
``_function``       on a tool result: it was a ``function`` message
``_arguments``      ``"object"`` on a tool call whose ``arguments`` was a JSON object

Neither shape has a call id, which canonical tool calls and results need to pair up (and
Anthropic requires: "each tool_result block must have a corresponding tool_use block in the
previous message"). A ``function`` message answers, in this order:

- the call its ``tool_call_id`` names, when it has one (litellm and LangChain write a
  ``function`` message so; the id is written back with the ``_call_id`` marker);
- the oldest call not yet answered of its ``name``, a ``tool_calls`` entry or a
  ``function_call`` (clients that moved to ``tool_calls`` but still send results as
  ``function`` messages, a case ported from litellm's and LangChain's tests);
- the oldest ``function_call`` not yet answered.

The ids of ``function_call`` entries are made up as ``function_call_<n>``, ``n`` counting
the ids made up in the conversation (a result answering nothing gets one too). They never
reach the OpenAI wire (the markers leave them out).

``arguments`` given as an object (litellm writes them so, and some compatible servers
accept it) is kept as compact JSON text, which parses back to the identical object: the
object is what this encoder writes back and what Anthropic gets as ``input``, so nothing
changes and no loss is reported; a provider that takes text gets that text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.openai_chat.markers import KIT
from chatcodec.codec_kit import as_list, compact_json, is_dict, leftovers, read_json_text, unmapped_fields

FUNCTION_CALL = "_function_call"
FUNCTION_RESULT = "_function"
ARGUMENTS = "_arguments"
CALL_ID = "_call_id"
"""Marker on a tool result: its ``function`` message named its call by ``tool_call_id``."""
_NULL_CONTENT = "_null_content"


class CallIds:
    """The calls of one conversation not yet answered, in order: each id with its name and
    whether it was made up (a ``function_call`` entry), for ``function`` results to pair
    with (see the module docstring for the order)."""

    __slots__ = ("count", "unanswered")

    def __init__(self) -> None:
        self.count: int = 0
        self.unanswered: dict[str, tuple[str, bool]] = {}

    def call(self, name: str) -> str:
        """A made-up id for a ``function_call`` entry of ``name``."""
        call_id = f"function_call_{self.count}"
        self.count += 1
        self.unanswered[call_id] = (name, True)
        return call_id

    def calls(self, message: Mapping[str, Any]) -> None:
        """Note the ``tool_calls`` entries of a decoded assistant message."""
        for part in as_list(message.get("content")) or ():
            if part["type"] == "tool_use" and part["id"] not in self.unanswered:
                self.unanswered[part["id"]] = (part["name"], False)

    def answered(self, call_id: str) -> None:
        """A ``tool`` message answered ``call_id``."""
        self.unanswered.pop(call_id, None)

    def result(self, name: str) -> str:
        """The id a ``function`` message of ``name`` (and no ``tool_call_id``) answers."""
        for call_id, (called, _) in self.unanswered.items():
            if called == name:
                del self.unanswered[call_id]
                return call_id
        for call_id, (_, made_up) in self.unanswered.items():
            if made_up:
                del self.unanswered[call_id]
                return call_id
        return self.call_without_result()

    def call_without_result(self) -> str:
        """An id for a result whose call is not in the conversation (a trimmed history)."""
        call_id = f"function_call_{self.count}"
        self.count += 1
        return call_id


def decode_arguments(function: Mapping[str, Any], bag: dict[str, Any]) -> str:
    """The argument text of a wire ``function`` (an object becomes compact JSON, marked)."""
    arguments = function["arguments"]
    if isinstance(arguments, str):
        return arguments
    bag[ARGUMENTS] = "object"
    return compact_json(arguments)


def encode_arguments(part: Mapping[str, Any]) -> str | dict[str, Any]:
    """The wire ``arguments`` of a canonical tool call: the object again when it came as
    one and still is one."""
    arguments: str = part.get("arguments", "")
    if KIT.marker(part.get("provider_metadata"), ARGUMENTS) != "object":
        return arguments
    try:
        parsed: object = read_json_text(arguments)
    except (ValueError, RecursionError):
        return arguments
    return parsed if is_dict(parsed) else arguments


def decode_function_call(function_call: Mapping[str, Any], ids: CallIds) -> dict[str, Any]:
    """An assistant's ``function_call`` as a canonical tool call."""
    bag: dict[str, Any] = {FUNCTION_CALL: True}
    arguments = decode_arguments(function_call, bag)
    part = {
        "type": "tool_use",
        "id": ids.call(function_call["name"]),
        "name": function_call["name"],
        "arguments": arguments,
    }
    rest = unmapped_fields(function_call, ("name", "arguments"))
    if rest:
        bag["function"] = rest
    return KIT.attach(part, bag)


def decode_function_message(message: Mapping[str, Any], ids: CallIds) -> dict[str, Any]:
    """A ``function`` message as a canonical tool result (named after its function), paired
    with the call it answers."""
    call_id = message.get("tool_call_id")
    if isinstance(call_id, str):
        bag = {FUNCTION_RESULT: True, CALL_ID: True, **leftovers(message, ("role", "name", "content", "tool_call_id"))}
        ids.answered(call_id)
    else:
        bag = {FUNCTION_RESULT: True, **leftovers(message, ("role", "name", "content"))}
        call_id = ids.result(message["name"])
    content = message["content"]
    if content is None:
        bag[_NULL_CONTENT] = True
    result = {"type": "tool_result", "tool_use_id": call_id, "name": message["name"], "content": content or ""}
    return KIT.attach(result, bag)


def is_function_call(part: Mapping[str, Any]) -> bool:
    """Whether a canonical tool call came as a ``function_call`` (and goes back as one)."""
    return KIT.marker(part.get("provider_metadata"), FUNCTION_CALL) is True


def encode_function_message(result: Mapping[str, Any], shared: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``function`` message for a canonical result that came as one, or None when it is
    no longer one (no name, or content that is not text): it then goes as a ``tool`` message."""
    metadata = result.get("provider_metadata")
    name = result.get("name")
    if KIT.marker(metadata, FUNCTION_RESULT) is not True or name is None:
        return None
    content = result.get("content", "")
    if not isinstance(content, str):
        return None
    null = content == "" and KIT.marker(metadata, _NULL_CONTENT) is True
    wire = {**shared, "role": "function", "name": name, "content": None if null else content}
    if KIT.marker(metadata, CALL_ID) is True:
        wire["tool_call_id"] = result["tool_use_id"]
    return wire
