"""Where each canonical message of a LangChain history came from
(:mod:`chatcodec._providers.kit.origins`): one message per stored message, its fields under
``data`` (``messages_to_dict``) or ``kwargs`` (``dumpd``); an ``AIMessage``'s calls are parts
after its content, each at its ``tool_calls`` entry, and a ``ToolMessage``'s one result is
the message itself."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec.codec_kit import Origin, as_list, is_dict
from chatcodec.contract import Steps


def message_origins(payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> list[Origin]:
    """The origin of each of ``messages`` (read from ``payload``) in ``payload``."""
    found: list[Origin] = []
    for index, entry in enumerate(as_list(payload.get("messages")) or []):
        at: Steps = ("messages", index)
        fields: Steps = (*at, "kwargs" if is_dict(entry) and "kwargs" in entry else "data")
        if is_dict(entry) and entry.get("type", "") in ("tool", "constructor") and _is_tool(entry):
            found.append(Origin(fields, parts=(fields,)))
            continue
        read = as_list(messages[index].get("content")) if index < len(messages) else None
        if read is None:
            found.append(Origin(fields))
            continue
        parts: list[Steps] = []
        called = 0
        for part in read:
            if is_dict(part) and part.get("type") == "tool_use":
                parts.append((*fields, "tool_calls", called))
                called += 1
            else:
                parts.append((*fields, "content", len(parts) - called))
        found.append(Origin(fields, parts=tuple(parts)))
    return found


def _is_tool(entry: Mapping[str, Any]) -> bool:
    """A stored ``ToolMessage`` (either serialisation)."""
    if entry.get("type") == "tool":
        return True
    names = as_list(entry.get("id")) or []
    return bool(names) and names[-1] == "ToolMessage"
