"""Where each canonical message of a Bedrock Converse or Nova request came from
(:mod:`chatcodec._providers.kit.origins`): the top-level ``system`` blocks are message
0, a user turn's ``toolResult`` blocks are a tool message before the user message of its
other blocks, and a ``cachePoint`` block is no part (it marks the part before it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec.codec_kit import Origin, as_list, is_dict, split_turn
from chatcodec.contract import Steps


def message_origins(payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> list[Origin]:
    """The origin of each of ``messages`` (read from ``payload``) in ``payload``."""
    del messages  # the turns say it
    found = [_blocks(("system",), ("system",), (as_list(payload["system"]) or []))] if "system" in payload else []
    for index, message in enumerate(as_list(payload.get("messages")) or []):
        at: Steps = ("messages", index)
        content = (as_list(message.get("content")) or []) if is_dict(message) else []
        if is_dict(message) and message.get("role") in ("assistant", "system"):
            found.append(_blocks(at, (*at, "content"), content))
        else:  # a user turn, or one of a role added later (read as a user turn)
            found += split_turn(at, content, _is_result, _is_cache_point)
    return found


def _blocks(at: Steps, content: Steps, blocks: list[Any]) -> Origin:
    """A message of ``blocks``, their cache points joined to the part before."""
    return Origin(
        at, content, tuple((*content, index) for index, block in enumerate(blocks) if not _is_cache_point(block))
    )


def _is_result(block: object) -> bool:
    return is_dict(block) and len(block) == 1 and is_dict(block.get("toolResult"))


def _is_cache_point(block: object) -> bool:
    return is_dict(block) and len(block) == 1 and "cachePoint" in block
