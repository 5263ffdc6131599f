"""LangChain's law facts (a stored history: ``messages_to_dict`` or ``dumpd`` entries): what the
codec rewrites without a report, the histories that make its reader write a meaningful marker,
the names that say the framework and what its answer has no place for."""

from __future__ import annotations

from functools import partial
from typing import Any

import chatcodec
from chatcodec.testing._laws import rewrites as r
from chatcodec.testing._laws.derived_entry import derived_entry


def _one_per_result(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A ``ToolMessage`` holds one result and one ``name``: a tool message is one per result,
    each named as the message (or, where the message has no name, as its result)."""
    split: list[dict[str, Any]] = []
    for message in messages:
        if message["role"] != "tool":
            split.append(message)
            continue
        for result in message["content"]:
            name = message.get("name")
            moved = name is None or result.get("name") == name
            named = {**message, "name": result.get("name") if moved else name}
            split.append({**named, "content": [{**result, "name": None} if moved else result]})
    return split


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report, because the history means the same after it."""
    return r.rewritten(request, r.in_messages(_one_per_result))


def _stored(kind: str, **data: Any) -> dict[str, Any]:
    """A message as ``messages_to_dict`` stores it (langchain-core 1.x: every field written out)."""
    fields: dict[str, Any] = {"additional_kwargs": {}, "response_metadata": {}, "type": kind, "name": None, "id": None}
    return {"type": kind, "data": {"content": "", **fields, **data}}


INVALID_CALL = {
    "messages": [
        _stored("human", content="q"),
        _stored(
            "ai",
            tool_calls=[],
            invalid_tool_calls=[
                {"type": "invalid_tool_call", "id": "c1", "name": "lookup", "args": "{oops", "error": "bad JSON"}
            ],
            usage_metadata=None,
        ),
        _stored("tool", content="no", tool_call_id="c1", artifact=None, status="error"),
    ]
}
"""A call LangChain could not parse (``invalid_tool_calls``): the ``_invalid`` marker."""

CHAT_ROLE = {"messages": [_stored("chat", content="hi", role="critic")]}
"""A ``ChatMessage`` of a role no canonical role stands for: the ``_role`` marker."""


entry = partial(
    derived_entry,
    "langchain",
    names_in_prose=("langchain", "langgraph"),
    silent_rewrites=silent_rewrites,
    unplaced_response_fields=("created",),  # an AIMessage has no creation time
    marker_requests={"_invalid": INVALID_CALL, "_role": CHAT_ROLE},
)
"""The facts the codec gives, for ``chatcodec check-codec langchain``."""
