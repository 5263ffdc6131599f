"""What an A2A v1.0 message, part, artifact and task must hold, and their validators.

Each is checked for the fields the reader reads, typed as ``a2a.proto`` types them (in its
ProtoJSON spelling: camelCase keys, the ``Role`` and ``TaskState`` enums by name): a message's
``role`` (``ROLE_USER`` or ``ROLE_AGENT``), ``parts`` and ``messageId`` (a string; the proto
marks it required, yet the specification's own examples leave it out of a status message, and
ProtoJSON reads a message without it, so a message without one is read too); a part holding exactly
one of ``text``, ``raw`` (base64), ``url`` and ``data`` (its ``content`` oneof), ``filename``
and ``mediaType`` strings, ``metadata`` an object. A field the reader does not read stays as
it is. A message A2A would not take is refused at its own path (``$.messages[3]``), the field
named in the text, before anything is read.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.a2a.markers import AGENT, USER
from chatcodec._frameworks.history import HistoryCheck, history_check, refuse_non_string, validated_answer
from chatcodec.codec_kit import as_dict, as_list

CONTENT = ("text", "raw", "url", "data")
"""A part's ``content`` oneof: exactly one is set."""

_MESSAGE_STRINGS = ("messageId", "contextId", "taskId")
_PART_STRINGS = ("text", "raw", "url", "filename", "mediaType")
_ARTIFACT_STRINGS = ("artifactId", "name", "description")
TASK_STATES = frozenset(
    {
        *("TASK_STATE_UNSPECIFIED", "TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED"),
        *("TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_REJECTED"),
        "TASK_STATE_AUTH_REQUIRED",
    }
)
"""``TaskState``'s names."""


def content_key(part: Mapping[str, Any]) -> str:
    """Which of :data:`CONTENT` a checked part holds."""
    return next(key for key in CONTENT if key in part)


def check_parts(parts: object, where: str) -> None:
    """Raise :class:`ValueError` unless ``parts`` is a list of parts A2A takes."""
    listed = as_list(parts)
    if listed is None:
        raise ValueError(f"{where}.parts: a list of parts")
    for index, each in enumerate(listed):
        at = f"{where}.parts[{index}]"
        part = as_dict(each)
        if part is None:
            raise ValueError(f"{at}: an object")
        held = [key for key in CONTENT if key in part]
        if len(held) != 1:
            raise ValueError(f"{at}: exactly one of text, raw, url and data (the part's content)")
        if held[0] != "data" and not isinstance(part[held[0]], str):
            raise ValueError(f"{at}.{held[0]}: a string")
        refuse_non_string(part, _PART_STRINGS, at)
        _refuse_non_object(part, "metadata", at)
        if "raw" in part and not is_base64(part["raw"]):
            raise ValueError(f"{at}.raw: base64 text (a file's bytes, in either alphabet)")


def is_base64(text: str) -> bool:
    """Whether ``text`` is base64 as ProtoJSON reads ``bytes`` (the standard or URL-safe
    alphabet, padding optional)."""
    standard = text.replace("-", "+").replace("_", "/")
    try:
        base64.b64decode(standard + "=" * (-len(standard) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def _refuse_non_object(fields: Mapping[str, Any], key: str, where: str) -> None:
    if fields.get(key) is not None and not isinstance(fields[key], dict):
        raise ValueError(f"{where}.{key}: an object")


def _refuse_non_strings(fields: Mapping[str, Any], key: str, where: str) -> None:
    value = fields.get(key)
    listed = as_list(value)
    if value is not None and (listed is None or not all(isinstance(item, str) for item in listed)):
        raise ValueError(f"{where}.{key}: a list of strings")


def check_message(message: dict[str, Any], where: str = "a message") -> dict[str, Any]:
    """``message``, or :class:`ValueError` saying why A2A would not take it."""
    refuse_non_string(message, _MESSAGE_STRINGS, where)
    if message.get("role") not in (USER, AGENT):
        raise ValueError(f"{where}.role: {USER} or {AGENT}")
    check_parts(message.get("parts"), where)
    _refuse_non_object(message, "metadata", where)
    _refuse_non_strings(message, "extensions", where)
    _refuse_non_strings(message, "referenceTaskIds", where)
    return message


def check_artifact(given: object, where: str) -> None:
    """Raise :class:`ValueError` unless ``given`` is an ``Artifact`` A2A takes."""
    artifact = as_dict(given)
    if artifact is None:
        raise ValueError(f"{where}: an object")
    if not isinstance(artifact.get("artifactId"), str):
        raise ValueError(f"{where}.artifactId: a string (every artifact has one)")
    refuse_non_string(artifact, _ARTIFACT_STRINGS, where)
    check_parts(artifact.get("parts"), where)
    _refuse_non_object(artifact, "metadata", where)
    _refuse_non_strings(artifact, "extensions", where)


validated_history: HistoryCheck = history_check(check_message)
"""``payload`` checked as ``{"messages": [...]}`` whose every entry is a message A2A takes."""


def validated_message(payload: dict[str, Any], title: str) -> dict[str, Any]:
    """``payload`` checked as one message, a refusal named at its place in it."""
    return validated_answer(validated_history, payload, title)
