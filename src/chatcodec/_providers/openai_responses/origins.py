"""Where each canonical message of an OpenAI Responses request came from
(:mod:`chatcodec._providers.kit.origins`): ``instructions`` and a string ``input`` are
messages of their own; an assistant turn's items (message, reasoning, calls) are one
message, a run of call outputs one tool message, a run of other items one message, each
part at its item (a message item's parts at its ``content``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._providers.openai_responses.item_reading import is_assistant_kind
from chatcodec._providers.openai_responses.messages import OUTPUT_KINDS
from chatcodec.codec_kit import Origin, as_list, is_dict
from chatcodec.contract import Steps


def message_origins(payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> list[Origin]:
    """The origin of each of ``messages`` (read from ``payload``) in ``payload``."""
    del messages  # the items say it
    found: list[Origin] = []
    if payload.get("instructions") is not None:
        found.append(Origin(("instructions",), ("instructions",)))
    if isinstance(payload.get("input"), str):
        found.append(Origin(("input",), ("input",)))
    group = ""  # the kind of the open message: assistant, tool, other
    after_message = False
    parts: list[Steps] = []
    for position, item in enumerate(as_list(payload.get("input")) or []):
        at: Steps = ("input", position)
        kind = item.get("type") if is_dict(item) else None
        role = item.get("role") if is_dict(item) and (kind is None or kind == "message") else None
        if role is not None and role != "assistant":
            group = ""
            found.append(Origin(at))
        else:
            opened = (
                "assistant"
                if role is not None or is_assistant_kind(kind)
                else "tool"
                if kind in OUTPUT_KINDS
                else "other"
            )
            if opened != group or (opened == "assistant" and after_message and role is not None):
                group, parts = opened, []
                found.append(Origin(at))
            content = item.get("content") if role is not None and is_dict(item) else None
            listed = as_list(content)
            if listed is not None:
                parts += [(*at, "content", index) for index in range(len(listed))]
            else:
                parts.append((*at, "content") if isinstance(content, str) else at)
            found[-1] = Origin(found[-1].at, parts=tuple(parts))
        after_message = role == "assistant"
    return found
