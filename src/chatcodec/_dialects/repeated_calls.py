"""A call given twice in one assistant message: a ``tool_use`` block in ``content`` and a
``tool_calls`` entry of the same id, as LangChain's ``AIMessage`` holds a call from its
Anthropic integration (a dict of that message, the form ``convert_to_messages`` takes).

The entry is the call LangChain ran and sends: ChatAnthropic's ``_format_messages`` writes the
``tool_calls`` entry in place of a ``tool_use`` block of its id
(https://github.com/langchain-ai/langchain/blob/master/libs/partners/anthropic/langchain_anthropic/chat_models.py).
A block repeating its entry is the call, read once (in the block's place). A block whose
name or arguments differ is kept as what it is, LangChain's copy (an opaque part of the
``langchain`` format, the shape that format reads the same message in), and the entry is the
call: a conversion drops the copy and reports its arguments at its place (the history turns'
repeated-call pass), and LangChain gets both back as they were.
"""

from __future__ import annotations

import json
from typing import Any

from chatcodec._dialects.base import LANGCHAIN
from chatcodec._narrow import as_dict


def calls_once(blocks: list[Any], read: list[Any], calls: list[Any]) -> tuple[list[Any], list[Any]]:
    """The content parts ``read`` from ``blocks`` and the ``tool_calls`` entries' parts
    ``calls``, each call given once: an entry a block repeats goes, a block that differs
    from its entry is kept as LangChain's opaque copy."""
    by_id: dict[object, dict[str, Any]] = {}
    for call in map(as_dict, calls):
        if call is not None:
            by_id[call.get("id")] = call
    repeated: set[object] = set()
    for index, part in enumerate(map(as_dict, read)):
        if part is None or part.get("type") != "tool_use" or part.get("id") not in by_id:
            continue
        if _same_call(part, by_id[part.get("id")]):
            repeated.add(part.get("id"))
        else:
            read[index] = {"type": "opaque", "provider": LANGCHAIN, "data": blocks[index]}
    return read, [call for call in calls if (as_dict(call) or {}).get("id") not in repeated]


def _same_call(block: dict[str, Any], call: dict[str, Any]) -> bool:
    """Whether a block's call is its entry's: the same name and arguments (as JSON values)."""
    return block.get("name") == call.get("name") and _value(block.get("arguments")) == _value(call.get("arguments"))


def _value(arguments: object) -> object:
    """Argument JSON text as its value (the text itself when it is no JSON; none as ``{}``)."""
    if not isinstance(arguments, str):
        return arguments
    try:
        value: object = json.loads(arguments or "{}")
    except ValueError:
        return arguments
    return value
