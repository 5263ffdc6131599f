"""What the conventions' message JSON holds, checked by hand so a message a reader cannot take
is refused at its own path (``$["gen_ai.input.messages"][3].parts[0]``), as a
:class:`~chatcodec.ValidationError` naming the rule, before anything is read.

Each message is an object with a string ``role`` and a list of ``parts``; each part an object
with a string ``type``; a call's ``name`` a string and its ``id`` a string or null. Inside a
part, fields are open (the schemas' ``additionalProperties: true``): what has no canonical
field is kept as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn, TypeVar, cast

from chatcodec import ValidationError
from chatcodec.codec_kit import as_dict, as_list, json_path, read_json_text, rule_error
from chatcodec.contract import Steps

TITLE = "OpenTelemetry GenAI span"

Checked = TypeVar("Checked")


def plain_attributes(attributes: dict[str, Any]) -> dict[str, Any]:
    """Span attributes as JSON values: the OpenTelemetry SDK hands a sequence attribute
    (``gen_ai.response.finish_reasons``, ``gen_ai.request.stop_sequences``) back as a tuple
    (``ReadableSpan.attributes``, ``BoundedAttributes`` cleans each value into one), which
    reads as the list it was set as. Attribute values are primitives or flat sequences of
    them, so only the top level is looked at."""
    if not any(isinstance(value, tuple) for value in attributes.values()):
        return attributes
    return {key: _listed(value) for key, value in attributes.items()}


def _listed(value: object) -> object:
    return list(cast("tuple[object, ...]", value)) if isinstance(value, tuple) else value


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


def checked(check: Callable[[list[Any], Steps], Checked], listed: list[Any], key: str, text: bool) -> Checked:
    """``listed``, the value of attribute ``key``, passed by ``check``; given as JSON text, a
    refusal names the attribute (the place the input has) and says where in its text."""
    if not text:
        return check(listed, (key,))
    try:
        return check(listed, ())
    except ValidationError as error:
        detail = error.errors()[0]
        inside = json_path(tuple(detail["loc"]))[1:]
        why = f"{inside} in the attribute's JSON text: {detail['msg']}"
        rule = "required" if detail["type"] == "missing" else str(detail["type"])  # the attribute itself is there
        raise rule_error(TITLE, (key,), rule, why, None) from None


def checked_messages(messages: list[Any], where: Steps) -> list[dict[str, Any]]:
    """``messages`` when each is a conventions message; a :class:`ValidationError` at the first
    that is not."""
    for index, message in enumerate(messages):
        entry = as_dict(message)
        if entry is None:
            raise rule_error(TITLE, (*where, index), "message", "a message is an object", message)
        at = (*where, index)
        if not isinstance(entry.get("role"), str):
            refuse(entry, at, "role", "a message's role is a string")
        if not isinstance(entry.get("name"), str | None):
            refuse(entry, at, "name", "a message's name is a string")
        parts = as_list(entry.get("parts"))
        if parts is None:
            refuse(entry, at, "parts", "a message's parts are a list")
        checked_parts(parts, (*at, "parts"))
    return messages


def checked_parts(parts: list[Any], where: Steps) -> list[dict[str, Any]]:
    """``parts`` when each is an object with a string ``type`` (and a call names its tool)."""
    for index, part in enumerate(parts):
        entry = as_dict(part)
        if entry is None:
            raise rule_error(TITLE, (*where, index), "part", "a part is an object with a type", part)
        at = (*where, index)
        if not isinstance(entry.get("type"), str):
            refuse(entry, at, "type", "a part's type is a string")
        if entry["type"] == "tool_call" and not isinstance(entry.get("name"), str):
            refuse(entry, at, "name", "a tool_call names its tool")
        if entry["type"] in ("tool_call", "tool_call_response") and not isinstance(entry.get("id"), str | None):
            refuse(entry, at, "id", "a call's id is a string")
    return parts


def refuse(entry: dict[str, Any], at: Steps, key: str, why: str) -> NoReturn:
    """Raise the refusal of ``entry``'s ``key``: the rule broken, or ``missing`` when it is absent
    (the error names the key's place either way)."""
    rule = key if key in entry else "missing"
    raise rule_error(TITLE, (*at, key), rule, why, entry.get(key))
