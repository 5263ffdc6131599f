"""Where each canonical message of an Anthropic request came from
(:mod:`chatcodec._providers.kit.origins`): the top-level ``system`` is message 0, and a
user turn's ``tool_result`` blocks are a tool message before the user message of its
other blocks."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from chatcodec.codec_kit import Origin, as_list, is_dict, split_turn, system_origin
from chatcodec.contract import Steps


def message_origins(payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> list[Origin]:
    """The origin of each of ``messages`` (read from ``payload``) in ``payload``."""
    count, origin = origins_by_index(payload, messages)
    return [origin(index) for index in range(count)]


_SYSTEM, _WHOLE, _RESULTS, _OTHERS = -1, 0, 1, 2
"""What a canonical message is of the input: its ``system``, a whole turn, a user turn's
results, or the user turn's other blocks."""


def origins_by_index(
    payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]
) -> tuple[int, Callable[[int], Origin]]:
    """How many messages ``payload`` is read as, and the origin of one by its index, built
    when asked (a loss names a few): one pass notes each one's turn, and which of a split
    user turn's two messages it is."""
    del messages  # the turns say it
    listed: list[Any] = as_list(payload.get("messages")) or []
    places: list[tuple[int, int]] = [(_SYSTEM, _SYSTEM)] if "system" in payload else []
    for index, message in enumerate(listed):
        content = as_list(message.get("content")) if is_dict(message) and message.get("role") == "user" else None
        if content is None:
            places.append((index, _WHOLE))
            continue
        kinds = {_is_result(block) for block in content}
        if True in kinds:
            places.append((index, _RESULTS))
        if False in kinds or True not in kinds:
            places.append((index, _OTHERS))

    def origin(canonical: int) -> Origin:
        index, which = places[canonical]
        if which == _SYSTEM:
            return system_origin(("system",))
        at: Steps = ("messages", index)
        if which == _WHOLE:
            return Origin(at)
        split = split_turn(at, listed[index]["content"], _is_result, _never)
        return split[0] if which == _RESULTS else split[-1]

    return len(places), origin


def _is_result(block: object) -> bool:
    return is_dict(block) and block.get("type") == "tool_result"


def _never(block: object) -> bool:
    del block
    return False
