"""What the completion parsers' tests read out of a parsed message."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from chatcodec import AssistantMessage, OpaquePart, TextPart, ThinkingPart, ToolUsePart


def calls(message: AssistantMessage) -> list[tuple[str, Any]]:
    """Each call's name and parsed arguments, in order."""
    return [(part.name, json.loads(part.arguments)) for part in parts_of(message, ToolUsePart)]


def texts(message: AssistantMessage) -> list[str]:
    return [part.text for part in parts_of(message, TextPart)]


def reasoning(message: AssistantMessage) -> list[str]:
    return [part.text for part in parts_of(message, ThinkingPart)]


def opaque(message: AssistantMessage) -> list[OpaquePart]:
    return parts_of(message, OpaquePart)


P = TypeVar("P")


def parts_of(message: AssistantMessage, kind: type[P]) -> list[P]:
    content = message.content
    assert isinstance(content, list)
    return [part for part in content if isinstance(part, kind)]
