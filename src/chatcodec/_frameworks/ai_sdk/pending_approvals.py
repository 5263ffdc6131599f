"""A tool message of approval answers alone, as both AI SDK forms send one, in canonical data.

A call the user approved (``approval-responded``) or denied before it ran has no result yet:
``convertToModelMessages`` sends its ``tool-approval-response`` in a tool message of its own,
holding no ``tool-result``, and the ``streamText`` loop runs the call on the next request. A
canonical tool message holds results (at least one), so such a message is no canonical tool
message: its answers ride in the ``ai-sdk-model`` bag of the assistant message before it,
under :data:`KEY`, and each AI SDK form writes them back where it has them (a ``ModelMessage``
writer as that tool message again, a ``UIMessage`` writer on its calls' parts). Any other
format reports the bag as it reports every bag it cannot carry: it has no approval flow.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import as_dict, as_list

MODEL = "ai-sdk-model"
"""The form whose bag holds the answers (where a tool message's own answers ride, too)."""
KEY = "approval_responses"
"""The bag key of an assistant message: the ``tool-approval-response`` parts of the tool
message of answers alone that followed it."""
_ANSWERS = "approvals"
"""A tool message's own bag key for its non-result parts with their places (both readers')."""


def fold(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``messages`` with each tool message of approval answers alone folded into the bag of the
    assistant message before it (one with no assistant before it is left for validation to refuse)."""
    folded: list[dict[str, Any]] = []
    for message in messages:
        answers = _answers_alone(message)
        previous = folded[-1] if folded else None
        if answers is None or previous is None or previous.get("role") != "assistant":
            folded.append(message)
            continue
        bag = previous.setdefault("provider_metadata", {}).setdefault(MODEL, {})
        bag[KEY] = [*(as_list(bag.get(KEY)) or []), *answers]
    return folded


def _answers_alone(message: Mapping[str, Any]) -> list[Any] | None:
    """The answers of a tool message holding no result and nothing but them in its bag; None otherwise."""
    if (
        message.get("role") != "tool"
        or message.get("content")
        or set(message) != {"role", "content", "provider_metadata"}
    ):
        return None
    metadata = as_dict(message.get("provider_metadata")) or {}
    bag = as_dict(metadata.get(MODEL))
    if set(metadata) != {MODEL} or bag is None or set(bag) != {_ANSWERS}:
        return None
    places = [as_list(entry) for entry in as_list(bag[_ANSWERS]) or []]
    if not places or any(place is None or len(place) != 2 for place in places):
        return None
    return [place[1] for place in places if place is not None]


def take(bag: dict[str, Any]) -> list[Any]:
    """The answers an assistant message's own ``ai-sdk-model`` bag holds, taken out of it."""
    return as_list(bag.pop(KEY, None)) or []


def take_from(metadata: Mapping[str, Any] | None) -> tuple[Mapping[str, Any] | None, list[Any]]:
    """The answers an assistant message's ``provider_metadata`` holds (for the ``UIMessage``
    writer, whose own bag is another), and ``metadata`` without them."""
    bag = as_dict(metadata.get(MODEL)) if metadata else None
    if metadata is None or bag is None or KEY not in bag:
        return metadata, []
    rest = {key: value for key, value in bag.items() if key != KEY}
    trimmed = {name: value for name, value in metadata.items() if name != MODEL}
    if rest:
        trimmed[MODEL] = rest
    return trimmed or None, as_list(bag[KEY]) or []
