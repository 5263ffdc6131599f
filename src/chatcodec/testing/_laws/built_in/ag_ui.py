"""AG-UI's law facts (its ``Message`` list, a conversation as a UI holds it): what the codec
rewrites without a report, the names that say the protocol and what its answer has no place for."""

from __future__ import annotations

from functools import partial
from typing import Any

import chatcodec
from chatcodec._providers.kit.provider_kit import pure_spelling
from chatcodec.codec_kit import as_dict, as_list
from chatcodec.testing._laws import rewrites as r
from chatcodec.testing._laws.derived_entry import derived_entry

_ONE_STRING = ("system", "developer", "assistant")
"""The roles whose AG-UI content is one string."""


def _one_text_as_string(message: dict[str, Any]) -> dict[str, Any]:
    """A system, developer or assistant message of one plain text part (no cache marker, no
    citations, no bag), or a system or developer message of none, is written as AG-UI's one
    string, and reads back as that string."""
    content = as_list(message["content"])
    if message["role"] in ("system", "developer") and content == []:
        return {**message, "content": ""}  # an instruction of nothing is the empty string
    only = as_dict(content[0]) if content is not None and len(content) == 1 else None
    if message["role"] not in _ONE_STRING or only is None:
        return message
    plain = {key: value for key, value in only.items() if value not in (None, [], False)}
    plain.pop("provider_metadata", None)
    bags = as_dict(only.get("provider_metadata")) or {}
    if only.get("type") != "text" or set(plain) != {"type", "text"} or not pure_spelling(bags):
        return message  # a bag with data is reported where the part goes into the string
    return {**message, "content": only["text"]}


def _results_unnamed(dumped: dict[str, Any]) -> dict[str, Any]:
    """A result named as its call is written without the name (AG-UI names the tool on the call only)."""
    names = {
        part["id"]: part["name"]
        for message in dumped["messages"]
        if message["role"] == "assistant" and isinstance(message["content"], list)
        for part in message["content"]
        if part.get("type") == "tool_use"
    }
    return r.everywhere(
        (
            {"type": "tool_result"},
            lambda result: {"name": None} if result.get("name") == names.get(result["tool_use_id"]) else {},
        )
    )(dumped)


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report, because the conversation means the same after it."""
    return r.rewritten(
        request,
        _results_unnamed,
        r.in_messages(lambda messages: [_one_text_as_string(each) for each in r.joined(r.tool_runs, messages)]),
        _no_empty_descriptions,
    )


def _no_empty_descriptions(dumped: dict[str, Any]) -> dict[str, Any]:
    """A tool's description is required by AG-UI: none is written as ``""``, read back as none."""
    listed: list[Any] = as_list(dumped.get("tools")) or []
    tools = [{**tool, "description": tool.get("description") or None} for tool in map(as_dict, listed) if tool]
    return {**dumped, "tools": tools}


def answer_named_by_its_message(response: chatcodec.ChatResponse) -> object:
    """A response as JSON, the answer's id in one place: a run's events name the answer by its
    assistant message (read back as the message's ``id``), an AG-UI body read as a response gives
    that message's id as the response's (``same_result``: a stream and a body of one answer).
    An answer's ``name`` and its content's spelling (an empty string, one string) have no
    canonical stream event (``streams/_replay.py``): compared as the parts they hold, an empty
    text part as none (a run's empty text message names the answer and holds nothing)."""
    dumped: dict[str, Any] = response.model_dump(mode="json")
    choices = as_list(dumped["choices"]) or []
    message: dict[str, Any] = (as_dict(choices[0]) or {}).get("message", {}) if choices else {}
    message.pop("name", None)
    content: object = message.get("content")
    if isinstance(content, str):
        content = [{"type": "text", "text": content}] if content else []
    listed = as_list(content)
    if listed is not None:  # an empty text message names its message, holds nothing
        message["content"] = [part for part in listed if part != {"type": "text", "text": ""}]
    bags = as_dict(message.get("provider_metadata")) or {}
    own = dict(as_dict(bags.get("ag-ui")) or {})
    if dumped.get("id") is None and isinstance(own.get("id"), str):
        dumped["id"] = own.pop("id")
        rest = {name: bag for name, bag in bags.items() if name != "ag-ui"} | ({"ag-ui": own} if own else {})
        message.pop("provider_metadata", None)
        if rest:
            message["provider_metadata"] = rest
    return dumped


entry = partial(
    derived_entry,
    "ag-ui",
    same_result=answer_named_by_its_message,
    names_in_prose=("AG-UI", "ag-ui", "ag_ui"),
    unplaced_response_fields=("created", "usage"),
    silent_rewrites=silent_rewrites,
)
"""The facts the codec gives, for ``chatcodec check-codec ag-ui``."""
