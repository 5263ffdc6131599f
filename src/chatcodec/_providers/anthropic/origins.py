"""Where each canonical message of an Anthropic request came from
(:mod:`chatcodec._providers.kit.origins`): the top-level ``system`` is message 0, and a
user turn's ``tool_result`` blocks are a tool message before the user message of its
other blocks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec.codec_kit import Origin, as_list, is_dict, split_turn, system_origin
from chatcodec.contract import Steps


def message_origins(payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> list[Origin]:
    """The origin of each of ``messages`` (read from ``payload``) in ``payload``."""
    del messages  # the turns say it
    found = [system_origin(("system",))] if "system" in payload else []
    for index, message in enumerate(as_list(payload.get("messages")) or []):
        at: Steps = ("messages", index)
        content = as_list(message.get("content")) if is_dict(message) else None
        if not is_dict(message) or message.get("role") != "user" or content is None:
            found.append(Origin(at))
        else:
            found += split_turn(at, content, _is_result, _never)
    return found


def _is_result(block: object) -> bool:
    return is_dict(block) and block.get("type") == "tool_result"


def _never(block: object) -> bool:
    del block
    return False
