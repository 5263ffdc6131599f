"""Where each canonical message of an Ollama request came from
(:mod:`chatcodec._providers.kit.origins`): consecutive ``tool`` messages are one tool
message, each result at its own message; a message's ``images`` are parts before its
text, an assistant's calls parts after it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec.codec_kit import Origin, as_list, is_dict
from chatcodec.contract import Steps

_FIELDS = {"tool_use": "tool_calls", "thinking": "thinking", "text": "content"}
"""The message field a canonical part of each type comes from (any other: ``images``)."""


_NONE: Mapping[str, Any] = {}
"""A message the reader did not give (an input it reads otherwise): no parts to place."""


def message_origins(payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> list[Origin]:
    """The origin of each of ``messages`` (read from ``payload``) in ``payload``."""
    found: list[Origin] = []
    results: list[Steps] | None = None  # the results of the open tool message
    for index, message in enumerate(as_list(payload.get("messages")) or []):
        at: Steps = ("messages", index)
        if is_dict(message) and message.get("role") == "tool":
            results = [*(results or ()), at]
            if len(results) == 1:
                found.append(Origin(at))
            found[-1] = Origin(found[-1].at, parts=tuple(results))
            continue
        results = None
        read = messages[len(found)] if len(found) < len(messages) else _NONE
        found.append(_fields(at, read))
    return found


def _fields(at: Steps, message: Mapping[str, Any]) -> Origin:
    """A message whose parts come from its fields: the images and calls each at their
    entry, text and thinking at their field."""
    content = as_list(message.get("content"))
    if content is None:
        return Origin(at)
    parts: list[Steps] = []
    counts: dict[str, int] = {}
    for part in content:
        field = _FIELDS.get(str(part.get("type")), "images") if is_dict(part) else "images"
        if field in ("content", "thinking"):
            parts.append((*at, field))
        else:
            parts.append((*at, field, counts.get(field, 0)))
            counts[field] = counts.get(field, 0) + 1
    return Origin(at, parts=tuple(parts))
