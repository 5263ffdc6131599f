"""What an AG-UI message list must hold, and its validator.

Each message is checked as AG-UI 1.0's ``Message`` union reads it (``ag_ui.core``, the JSON
wire's camelCase names): a string ``id``, a ``role`` of the seven, a developer's, system's or
reasoning message's ``content`` a string, a user's or tool's a string or a list of content parts
(``text``, or ``image``/``audio``/``video``/``document`` with a ``data``, ``url`` or ``file``
source; the ``binary`` part of AG-UI before 1.0 too), an assistant's ``content`` a string or
absent and its ``toolCalls`` calls with a ``function`` of a string ``name`` and ``arguments``, a
tool message's ``toolCallId``, an activity's ``activityType`` and object ``content``. A message
AG-UI would refuse is refused at its own path (``$.messages[3]``) as a
:class:`~chatcodec.ValidationError`, the field named in its text, before anything is read.
Everything else a message holds stays open, kept as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.history import HistoryCheck, history_check, refuse_non_string, validated_answer
from chatcodec.codec_kit import as_dict, as_list

ROLES = frozenset({"developer", "system", "user", "assistant", "tool", "activity", "reasoning"})
MEDIA = frozenset({"image", "audio", "video", "document"})
"""The media parts' types, each the canonical part of the same name."""
SOURCES = frozenset({"data", "url", "file"})
LEGACY = "binary"
"""AG-UI's content part before 1.0 (``BinaryInputContent``: ``mimeType`` and one of ``data``,
``url`` or ``id``), which its SDKs still upgrade on the way in: read as the media part it is."""


_SNAKE = {
    "tool_calls": "toolCalls",
    "tool_call_id": "toolCallId",
    "activity_type": "activityType",
    "encrypted_value": "encryptedValue",
    "subagent_run_id": "subagentRunId",
    "mime_type": "mimeType",
}
"""The Python SDK's attribute names of AG-UI's fields: what ``model_dump()`` without
``by_alias=True`` writes. AG-UI's wire spells them in camelCase; a message in the attribute
spelling is refused, named, rather than read with its calls or its call id as unknown fields."""


def _camel_case(fields: Mapping[str, Any], where: str) -> None:
    for key in fields:
        if key in _SNAKE:
            prefix = f"{where}." if where else ""
            why = f"AG-UI's wire spells it {_SNAKE[key]} (dump the SDK's models with by_alias=True)"
            raise ValueError(f"{prefix}{key}: {why}")


def _string(value: object) -> bool:
    return isinstance(value, str)


def _source(source: object, where: str) -> None:
    checked = as_dict(source)
    if checked is None or not _string(checked.get("type")) or checked["type"] not in SOURCES:
        raise ValueError(f"{where}.source: an object whose type is data, url or file")
    _camel_case(checked, f"{where}.source")
    kind = checked["type"]
    if not _string(checked.get("value")) or (kind != "data" and not checked["value"]):
        raise ValueError(f"{where}.source.value: a string" + ("" if kind == "data" else ", not empty"))
    if kind == "data" and not (_string(checked.get("mimeType")) and checked["mimeType"]):
        raise ValueError(f"{where}.source.mimeType: a string, not empty (bytes carried inline say what they are)")
    refuse_non_string(checked, ("mimeType", "provider"), f"{where}.source")


def _part(item: object, where: str) -> None:
    part = as_dict(item)
    kind = None if part is None else part.get("type")
    if part is None or not _string(kind):
        raise ValueError(f"{where}: a content part is an object with a type")
    _camel_case(part, where)
    if kind == "text":
        if not _string(part.get("text")):
            raise ValueError(f"{where}.text: a string")
    elif kind in MEDIA:
        _source(part.get("source"), where)
    elif kind == LEGACY:
        if not (_string(part.get("mimeType")) and part["mimeType"]):
            raise ValueError(f"{where}.mimeType: a string, not empty")
        refuse_non_string(part, ("data", "url", "id", "filename"), where)
        if not any(part.get(key) for key in ("data", "url", "id")):
            raise ValueError(f"{where}: a binary part holds one of id, url or data")
    else:
        raise ValueError(f"{where}.type {kind!r}: a content part is text, image, audio, video or document")
    refuse_non_string(part, ("id",), where)


def _content(message: Mapping[str, Any], parts: bool) -> None:
    content = message.get("content")
    if _string(content):
        return
    listed = as_list(content) if parts else None
    if listed is None:
        raise ValueError(
            f"content: a {message['role']} message's content is a string" + (" or a list of parts" if parts else "")
        )
    for index, item in enumerate(listed):
        _part(item, f"content[{index}]")


def _calls(calls: object) -> None:
    listed = as_list(calls)
    if listed is None:
        raise ValueError("toolCalls: a list of tool calls")
    for index, item in enumerate(listed):
        call = as_dict(item)
        where = f"toolCalls[{index}]"
        if call is None or not _string(call.get("id")):
            raise ValueError(f"{where}.id: a tool call has a string id")
        _camel_case(call, where)
        if call.get("type", "function") != "function":
            raise ValueError(f"{where}.type: function, the only kind of call AG-UI has")
        function = as_dict(call.get("function"))
        if function is None or not _string(function.get("name")) or not _string(function.get("arguments")):
            raise ValueError(f"{where}.function: an object with a string name and arguments (JSON text)")
        refuse_non_string(call, ("encryptedValue",), where)


def check_message(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` when AG-UI takes it; a :class:`ValueError` saying why otherwise."""
    _camel_case(message, "")
    role = message.get("role")
    if not _string(role) or role not in ROLES:
        raise ValueError(f"role {role!r}: an AG-UI message is one of {sorted(ROLES)}")
    if not _string(message.get("id")):
        raise ValueError("id: an AG-UI message has a string id")
    refuse_non_string(message, ("name", "encryptedValue", "subagentRunId"), "message")
    if message.get("metadata") is not None and as_dict(message["metadata"]) is None:
        raise ValueError("metadata: an object")
    if role == "activity":
        if not _string(message.get("activityType")) or as_dict(message.get("content")) is None:
            raise ValueError("an activity message has a string activityType and an object content")
    elif role == "assistant":
        if message.get("content") is not None:
            _content(message, parts=False)
        if message.get("toolCalls") is not None:
            _calls(message["toolCalls"])
    else:
        _content(message, parts=role in ("user", "tool"))
    if role == "tool":
        if not _string(message.get("toolCallId")):
            raise ValueError("toolCallId: a tool message names the call it answers")
        refuse_non_string(message, ("error",), "message")
    return message


validated_history: HistoryCheck = history_check(check_message)
"""``payload`` checked as ``{"messages": [...]}`` whose every entry is an AG-UI message."""


def validated_message(payload: dict[str, Any], title: str) -> dict[str, Any]:
    """``payload`` checked as one message, a refusal named at its place in it."""
    return validated_answer(validated_history, payload, title)
