"""What a ``ModelMessage[]`` history holds, and its validator.

Each message is checked for the shape the AI SDK's ``modelMessageSchema`` requires of it (its
role, a string or a list of typed parts as that role takes, a tool result's typed
``output``), so a message the AI SDK would refuse is refused at its own path
(``$.messages[3]``) as a :class:`~chatcodec.ValidationError` before anything is read. Inside
a part, fields are open: what has no canonical field is kept as it is. The validator is
built on first use, so importing the codec loads no pydantic.
"""

from __future__ import annotations

from typing import Any

from chatcodec._frameworks.history import history_check
from chatcodec.codec_kit import as_dict, as_list

_OUTPUTS = frozenset({"text", "json", "error-text", "error-json", "execution-denied", "content"})
_ROLES = frozenset({"system", "user", "assistant", "tool"})


def check_message(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` when the AI SDK takes it; a :class:`ValueError` saying why otherwise."""
    role, content = message.get("role"), message.get("content")
    if not isinstance(role, str) or role not in _ROLES:  # a list or object is no role (and unhashable)
        raise ValueError(f"role {role!r}: a ModelMessage is a system, user, assistant or tool message")
    if role == "system" and not isinstance(content, str):
        raise ValueError("a system ModelMessage's content is a string")
    if role == "tool" and not isinstance(content, list):
        raise ValueError("a tool ModelMessage's content is a list of parts")
    if not isinstance(content, str | list):
        raise ValueError(f"a {role} ModelMessage's content is a string or a list of parts")
    for index, part in enumerate(as_list(message.get("content")) or []):
        entry = as_dict(part)
        if entry is None or not isinstance(entry.get("type"), str):
            raise ValueError(f"content[{index}]: a part is an object with a type")
        _check_strings(entry, f"content[{index}]")
        if entry["type"] == "tool-result":
            _check_result(entry, index)
    return message


_STRINGS: dict[str, tuple[tuple[str, bool], ...]] = {
    "text": (("text", True),),
    "reasoning": (("text", True),),
    "image": (("mediaType", False),),
    "file": (("mediaType", True), ("filename", False)),
    "tool-call": (("toolCallId", True), ("toolName", True)),
    "tool-approval-request": (("approvalId", True), ("toolCallId", True), ("signature", False)),
    "tool-approval-response": (("approvalId", True), ("reason", False)),
}
"""Each part type's string fields, and whether the part must have it (``ai`` 6's
``content-part.ts`` schemas: ``textPartSchema``, ``toolCallPartSchema``...)."""


def _check_strings(part: dict[str, Any], at: str) -> None:
    """A part's string fields hold strings (an id or a name of another type would reach
    canonical data, whose model refuses it at a place the input does not have)."""
    for key, required in _STRINGS.get(part["type"], ()):
        value = part.get(key)
        if not isinstance(value, str) and (required or value is not None):
            raise ValueError(f"{at}.{key}: a string")
    if part["type"] == "tool-approval-response" and not isinstance(part.get("approved"), bool):
        raise ValueError(f"{at}.approved: true or false")


def _check_result(part: dict[str, Any], index: int) -> None:
    output = as_dict(part.get("output"))
    if not isinstance(part.get("toolCallId"), str) or not isinstance(part.get("toolName"), str):
        raise ValueError(f"content[{index}]: a tool-result names its toolCallId and toolName")
    if output is None or not isinstance(output.get("type"), str) or output["type"] not in _OUTPUTS:
        raise ValueError(f"content[{index}].output: one of the AI SDK's typed outputs ({sorted(_OUTPUTS)})")
    if output["type"] == "content" and not isinstance(output.get("value"), list):
        raise ValueError(f"content[{index}].output.value: a content output's value is a list")
    if output["type"] in ("text", "error-text") and not isinstance(output.get("value"), str):
        raise ValueError(f"content[{index}].output.value: a {output['type']} output's value is a string")
    if output["type"] == "execution-denied" and not isinstance(output.get("reason", ""), str):
        raise ValueError(f"content[{index}].output.reason: a string")
    for number, item in enumerate((as_list(output.get("value")) or []) if output["type"] == "content" else []):
        entry = as_dict(item)
        if entry is None or not isinstance(entry.get("type"), str):
            raise ValueError(f"content[{index}].output.value[{number}]: an object with a type")
        if not isinstance(entry.get("mediaType", ""), str):  # every content item's mediaType is a string
            raise ValueError(f"content[{index}].output.value[{number}].mediaType: a string")


validated_history = history_check(check_message)
