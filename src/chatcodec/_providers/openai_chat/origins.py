"""Where each canonical message of an OpenAI Chat request came from
(:mod:`chatcodec._providers.kit.origins`): consecutive ``tool`` (and ``function``)
messages are one tool message, each result at its own message; an assistant message's
calls are parts after its content, each at its ``tool_calls`` entry."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from chatcodec.codec_kit import Origin, as_list, is_dict
from chatcodec.contract import Steps

_RESULT_ROLES = ("tool", "function")


_NONE: Mapping[str, Any] = {}
"""A message the reader did not give (an input it reads otherwise): no parts to place."""


def message_origins(payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> list[Origin]:
    """The origin of each of ``messages`` (read from ``payload``) in ``payload``."""
    count, origin = origins_by_index(payload, messages)
    return [origin(index) for index in range(count)]


def origins_by_index(
    payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]
) -> tuple[int, Callable[[int], Origin]]:
    """How many messages ``payload`` is read as, and the origin of one by its index, built
    when asked (a loss names a few): one pass notes where each starts (a run of results: at
    its first)."""
    listed: list[Any] = as_list(payload.get("messages")) or []
    starts: list[int] = []
    after_result = False
    for index, message in enumerate(listed):
        result = is_dict(message) and message.get("role") in _RESULT_ROLES
        if not (result and after_result):
            starts.append(index)
        after_result = result
    return origins_at_starts(payload, messages, starts)


def origins_at_starts(
    payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]], starts: Sequence[int]
) -> tuple[int, Callable[[int], Origin]]:
    """:func:`origins_by_index` when where each message starts is known already (a direct
    path's admission found it, by the same rule, before writing): no pass over the input."""
    listed: list[Any] = as_list(payload.get("messages")) or []

    def origin(canonical: int) -> Origin:
        start = starts[canonical]
        at: Steps = ("messages", start)
        message = listed[start]
        role = message.get("role") if is_dict(message) else None
        if role in _RESULT_ROLES:
            end = starts[canonical + 1] if canonical + 1 < len(starts) else len(listed)
            return Origin(at, parts=tuple(("messages", index) for index in range(start, end)))
        if role == "assistant":
            return assistant_origin(at, message, messages[canonical] if canonical < len(messages) else _NONE)
        return Origin(at)

    return len(starts), origin


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
    reasoning = None
    for key in _REASONING_FIELDS:
        if key in wire:
            reasoning = key
            break
    kinds: list[object] = []
    own = 0  # the parts the wire content holds: neither a call nor the reasoning field's thinking
    for part in content:
        kind: object = part.get("type") if is_dict(part) else ""
        kinds.append(kind)
        if kind != "tool_use" and (kind != "thinking" or not reasoning):
            own += 1
    sent = wire.get("content")
    sent_parts = as_list(sent)
    listed = sent_parts is not None and len(sent_parts) == own
    single = isinstance(sent, str) and own == 1
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
