"""Where each canonical message of an OpenAI Responses request came from
(:mod:`chatcodec._providers.kit.origins`): ``instructions`` and a string ``input`` are
messages of their own; an assistant turn's items (message, reasoning, calls) are one
message, a run of call outputs one tool message, a run of other items one message, each
part at its item (a message item's parts at its ``content``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from chatcodec._providers.openai_responses.item_reading import is_assistant_kind
from chatcodec._providers.openai_responses.messages import OUTPUT_KINDS
from chatcodec.codec_kit import Origin, as_list, is_dict
from chatcodec.contract import Steps


def message_origins(payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> list[Origin]:
    """The origin of each of ``messages`` (read from ``payload``) in ``payload``."""
    count, origin = origins_by_index(payload, messages)
    return [origin(index) for index in range(count)]


_INSTRUCTIONS, _INPUT = -2, -1
"""Where a message read from the top-level ``instructions`` or a string ``input`` starts."""


def origins_by_index(
    payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]
) -> tuple[int, Callable[[int], Origin]]:
    """How many messages ``payload`` is read as, and the origin of one by its index, built
    when asked (a loss names a few): one pass notes the item each starts at, and whether
    it groups the items up to the next one's."""
    del messages  # the items say it
    items: list[Any] = as_list(payload.get("input")) or []
    starts: list[tuple[int, bool]] = [(_INSTRUCTIONS, False)] if payload.get("instructions") is not None else []
    if isinstance(payload.get("input"), str):
        starts.append((_INPUT, False))
    group = ""  # the kind of the open message: assistant, tool, other
    after_message = False
    for position, item in enumerate(items):
        role, opened = _role_and_group(item)
        if role is not None and role != "assistant":
            group = ""
            starts.append((position, False))
        elif opened != group or (opened == "assistant" and after_message and role is not None):
            group = opened
            starts.append((position, True))
        after_message = role == "assistant"

    def origin(canonical: int) -> Origin:
        start, grouped = starts[canonical]
        if start < 0:
            key = "instructions" if start == _INSTRUCTIONS else "input"
            return Origin((key,), (key,))
        if not grouped:
            return Origin(("input", start))
        end = starts[canonical + 1][0] if canonical + 1 < len(starts) else len(items)
        return Origin(("input", start), parts=tuple(_item_parts(items, start, end)))

    return len(starts), origin


def _role_and_group(item: object) -> tuple[object, str]:
    """A message item's role (``None`` for another item), and the kind of message an item
    other than a user's is read into: assistant, tool or other."""
    kind = item.get("type") if is_dict(item) else None
    role = item.get("role") if is_dict(item) and (kind is None or kind == "message") else None
    opened = "assistant" if role is not None or is_assistant_kind(kind) else "tool" if kind in OUTPUT_KINDS else "other"
    return role, opened


def _item_parts(items: list[Any], start: int, end: int) -> list[Steps]:
    """Where each part of the message grouping ``items[start:end]`` is: a message item's at
    its ``content`` (a string: the one part), a reasoning item's (a thinking part per summary
    and content entry, or one: ``item_reading``) at itself, any other item at itself."""
    parts: list[Steps] = []
    for position in range(start, end):
        item = items[position]
        at: Steps = ("input", position)
        role, _ = _role_and_group(item)
        content = item.get("content") if is_dict(item) else None
        listed = as_list(content) if role is not None else None
        if listed is not None:
            parts += [(*at, "content", index) for index in range(len(listed))]
        elif role is not None:
            parts.append((*at, "content") if isinstance(content, str) else at)
        elif is_dict(item) and item.get("type") == "reasoning":
            entries = len(as_list(item.get("summary")) or ()) + len(as_list(content) or ())
            parts += [at] * (entries or 1)
        else:
            parts.append(at)
    return parts
