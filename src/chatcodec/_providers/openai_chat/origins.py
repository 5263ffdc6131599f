"""Where each canonical message of an OpenAI Chat request came from
(:mod:`chatcodec._providers.kit.origins`): consecutive ``tool`` (and ``function``)
messages are one tool message, each result at its own message; an assistant message's
calls are parts after its content, each at its ``tool_calls`` entry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec.codec_kit import Origin, as_list, is_dict
from chatcodec.contract import Steps

_RESULT_ROLES = ("tool", "function")


_NONE: Mapping[str, Any] = {}
"""A message the reader did not give (an input it reads otherwise): no parts to place."""


def message_origins(payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> list[Origin]:
    """The origin of each of ``messages`` (read from ``payload``) in ``payload``."""
    found: list[Origin] = []
    results: list[Steps] | None = None  # the results of the open tool message
    for index, message in enumerate(as_list(payload.get("messages")) or []):
        at: Steps = ("messages", index)
        role = message.get("role") if is_dict(message) else None
        if role in _RESULT_ROLES:
            if results is None:
                results = []
                found.append(Origin(at))
            results.append(at)
            found[-1] = Origin(found[-1].at, parts=tuple(results))
            continue
        results = None
        read = messages[len(found)] if len(found) < len(messages) else _NONE
        found.append(assistant_origin(at, message, read) if role == "assistant" else Origin(at))
    return found


_REASONING_FIELDS = ("reasoning_content", "reasoning", "reasoning_details", "thinking_blocks", "thinking")
"""The fields a compatible server keeps an answer's reasoning in (read as thinking parts)."""


def assistant_origin(
    at: Steps, wire: Mapping[str, Any], message: Mapping[str, Any], calls: str = "tool_calls"
) -> Origin:
    """An assistant message's parts: its calls at their ``calls`` entries, its thinking at
    the reasoning field it came from, the rest at the wire content's parts when they are as
    many (a content string: the one text part), else at the message."""
    content = as_list(message.get("content"))
    if content is None:
        return Origin(at)
    reasoning = next((key for key in _REASONING_FIELDS if key in wire), None)
    kinds = [str(part.get("type")) if is_dict(part) else "" for part in content]
    own = [kind for kind in kinds if kind != "tool_use" and not (kind == "thinking" and reasoning)]
    sent = wire.get("content")
    listed = len(as_list(sent) or []) == len(own) and isinstance(sent, list)
    single = isinstance(sent, str) and len(own) == 1
    parts: list[Steps] = []
    called = placed = 0
    for kind in kinds:
        if kind == "tool_use":
            parts.append((*at, calls, called))
            called += 1
        elif kind == "thinking" and reasoning:
            parts.append((*at, reasoning))
        elif listed:
            parts.append((*at, "content", placed))
            placed += 1
        else:
            parts.append((*at, "content") if single else at)
    return Origin(at, parts=tuple(parts))
