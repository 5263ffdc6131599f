"""What the conventions' message JSON holds, checked by hand so a message a reader cannot take
is refused at its own path (``$["gen_ai.input.messages"][3].parts[0]``), as a
:class:`~chatcodec.ValidationError` naming the rule, before anything is read.

Each message is an object with a string ``role`` and a list of ``parts``; each part an object
with a string ``type``; a call's ``name`` a string and its ``id`` a string or null. Inside a
part, fields are open (the schemas' ``additionalProperties: true``): what has no canonical
field is kept as it is.
"""

from __future__ import annotations

from typing import Any

from chatcodec.codec_kit import as_dict, as_list, read_json_text, rule_error

TITLE = "OpenTelemetry GenAI span"


def attribute(attributes: dict[str, Any], key: str) -> tuple[list[Any] | None, bool]:
    """The list an attribute holds (None when absent) and whether it came as JSON text: span
    attributes hold the conventions' JSON as text (OpenTelemetry's attribute values are
    primitives), the conventions' structured form as the value itself."""
    value = attributes.get(key)
    if value is None:
        return None, False
    text = isinstance(value, str)
    if text:
        try:
            value = read_json_text(value)
        except ValueError:
            raise rule_error(TITLE, (key,), "json_text", "the attribute's text is not JSON", value) from None
    listed = as_list(value)
    if listed is None:
        raise rule_error(TITLE, (key,), "message_list", "the attribute holds a JSON list", value)
    return listed, text


def checked_messages(messages: list[Any], where: tuple[str | int, ...]) -> list[dict[str, Any]]:
    """``messages`` when each is a conventions message; a :class:`ValidationError` at the first
    that is not."""
    for index, message in enumerate(messages):
        entry = as_dict(message)
        if entry is None:
            raise rule_error(TITLE, (*where, index), "message", "a message is an object", message)
        if not isinstance(entry.get("role"), str):
            raise rule_error(TITLE, (*where, index, "role"), "role", "a message's role is a string", entry.get("role"))
        if not isinstance(entry.get("name"), str | None):
            raise rule_error(TITLE, (*where, index, "name"), "name", "a message's name is a string", entry["name"])
        parts = as_list(entry.get("parts"))
        if parts is None:
            raise rule_error(
                TITLE, (*where, index, "parts"), "parts", "a message's parts are a list", entry.get("parts")
            )
        checked_parts(parts, (*where, index, "parts"))
    return messages


def checked_parts(parts: list[Any], where: tuple[str | int, ...]) -> list[dict[str, Any]]:
    """``parts`` when each is an object with a string ``type`` (and a call names its tool)."""
    for index, part in enumerate(parts):
        entry = as_dict(part)
        if entry is None or not isinstance(entry.get("type"), str):
            raise rule_error(TITLE, (*where, index), "part", "a part is an object with a string type", part)
        if entry["type"] == "tool_call" and not isinstance(entry.get("name"), str):
            raise rule_error(
                TITLE, (*where, index, "name"), "tool_name", "a tool_call names its tool", entry.get("name")
            )
        if entry["type"] in ("tool_call", "tool_call_response") and not isinstance(entry.get("id"), str | None):
            raise rule_error(TITLE, (*where, index, "id"), "call_id", "a call's id is a string", entry.get("id"))
    return parts
