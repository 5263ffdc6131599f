"""Bedrock Nova's law facts: what the codec rewrites without a report (``request.py``,
``messages.py``, ``parts.py``, ``settings.py``), what a stream and a body of one answer share,
and the request that makes its reader write a meaningful marker."""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import chatcodec
from chatcodec.testing._laws import rewrites as r
from chatcodec.testing._laws.derived_entry import derived_entry
from chatcodec.testing._laws.normal_forms import with_compact_arguments

PROVIDER = "bedrock-nova"


def same_streamed(response: chatcodec.ChatResponse) -> object:
    """Argument spelling (text versus parsed object) and the usage's bag (a stream's
    ``metadata`` has no ``totalTokens``)."""
    compacted = with_compact_arguments(response).model_dump(mode="json")
    compacted.pop("provider_metadata", None)
    if compacted.get("usage") is not None:
        compacted["usage"].pop("provider_metadata", None)
    return compacted


def _result(result: dict[str, Any]) -> dict[str, Any]:
    """A result's content is a block list (a string is one text part, ``""`` none); a cache
    marker on its last part is a cache point after the result (Converse's
    ``ToolResultContentBlock`` has none: the same prefix), read back on the result."""
    content = result.get("content")
    parts = [{"type": "text", "text": content}] if content and isinstance(content, str) else list(content or [])
    last: dict[str, Any] = parts[-1] if parts else {}
    if result.get("cache_control") is None and last.get("cache_control") is not None:
        return {"content": [*parts[:-1], {**last, "cache_control": None}], "cache_control": last["cache_control"]}
    return {"content": parts}


def _block_list(message: dict[str, Any]) -> dict[str, Any]:
    """Content is always a block list (``""`` is blank text, dropped and reported), and a
    message's ``cache_control`` a cache point after its last block, read back on that part (one
    equal to that part's own marker is the same point, read back once), a ``text`` message sent
    as a user turn, reported."""
    content = message["content"]
    parts = [{"type": "text", "text": content}] if isinstance(content, str) else content
    cache = message.get("cache_control")
    if message["role"] == "text" or cache is None or not parts:
        return message if message["role"] == "text" else {**message, "content": parts}
    if parts[-1].get("cache_control") is not None:  # one cache point after the last block: the same
        same = parts[-1]["cache_control"] == cache  # marker on the message is that point, read back on the part
        return {**message, "cache_control": None, "content": parts} if same else {**message, "content": parts}
    return {**message, "cache_control": None, "content": [*parts[:-1], {**parts[-1], "cache_control": cache}]}


def _messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Leading system messages of one role are one ``system`` list (a ``developer`` one is
    reported), and tool and user turns regrouped."""
    rewritten: list[dict[str, Any]] = []
    for message in map(_block_list, messages):
        leading = all(each["role"] in ("system", "developer") for each in rewritten)
        if rewritten and leading and message["role"] == rewritten[-1]["role"] in ("system", "developer"):
            rewritten[-1]["content"] = [*rewritten[-1]["content"], *message["content"]]
        else:
            rewritten.append(dict(message))
    return _regrouped(rewritten)


def _regrouped(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive tool and user messages are one wire turn, read back as its runs (results,
    then the rest: another merge is reported), its first message's name, bag and cache
    marker on its first run."""
    turns: list[list[dict[str, Any]]] = []
    for message in messages:
        if turns and {message["role"], turns[-1][0]["role"]} <= {"tool", "user"}:
            turns[-1].append(message)
        else:
            turns.append([message])
    runs: list[dict[str, Any]] = []
    for head, *rest in turns:
        if head["role"] not in ("tool", "user"):
            runs.append(head)
            continue
        first = len(runs)
        for part in (part for message in (head, *rest) for part in message["content"]):
            kind = "tool" if part["type"] == "tool_result" else "user"
            if len(runs) > first and runs[-1]["role"] == kind:
                runs[-1]["content"].append(part)
            else:
                runs.append({"role": kind, "content": [part]})
        runs[first:] = runs[first:] or [{"role": "user", "content": []}]
        runs[first].update(
            {key: head[key] for key in ("name", "provider_metadata", "cache_control") if head.get(key) is not None}
        )
    return runs


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report, because the request means the same after it."""
    return r.rewritten(
        request,
        r.everywhere(
            r.COMPACT_CALLS,  # sent as the parsed ``input`` object
            r.AUTO_DETAIL,
            ({"type": "tool_result", "is_error": False}, {"is_error": None}),  # no status
            ({"type": "tool_result"}, _result),
            # attributed to the body's reader, with no model (a Nova body names none:
            # ``families/aws/thinking.py`` records the model only when the request names it)
            ({"type": "thinking"}, {"provider": PROVIDER, "model": None}),
        ),
        r.in_messages(_messages),
        r.at_top(
            ({}, {"model": None}),  # in the URL, where the caller puts it: the body holds none
            ({"frequency_penalty": 0}, {"frequency_penalty": None}),  # a penalty of 0 changes nothing
            ({"presence_penalty": 0}, {"presence_penalty": None}),
            ({"logprobs": False}, {"logprobs": None}),  # asks for nothing
            ({"top_logprobs": 0}, {"top_logprobs": None}),
            ({"reasoning": {}}, _reasoning),
        ),
    )


def _reasoning(top: dict[str, Any]) -> dict[str, Any]:
    """An empty config says nothing; an effort (or budget) without the switch is reasoning on."""
    reasoning = {key: value for key, value in top["reasoning"].items() if value is not None}
    return {"reasoning": {"enabled": True, **reasoning} if reasoning else None}


SERVER_THEN_CLIENT_TOOLS: dict[str, Any] = {
    "messages": [{"role": "user", "content": [{"text": "q"}]}],
    "toolConfig": {
        "tools": [
            {"systemTool": {"name": "nova_grounding"}},
            {"toolSpec": {"name": "f", "inputSchema": {"json": {}}}},
        ]
    },
}
"""A system tool (Nova 2's web grounding) before a client tool: the ``_tool_order`` marker."""


entry = partial(
    derived_entry,
    PROVIDER,
    names_in_prose=("bedrock", "aws", "amazon", "nova"),
    rule_models=("amazon.nova-pro-v1:0",),
    tool_name_rule=re.compile(r"\A[a-zA-Z0-9_-]{1,64}\Z"),  # the family's ToolName rule
    same_result=same_streamed,
    silent_rewrites=silent_rewrites,
    unplaced_response_fields=("created", "id", "model", "usage.reasoning_tokens"),
    marker_requests={"_tool_order": SERVER_THEN_CLIENT_TOOLS},
)
"""The facts the codec gives, for ``chatcodec check-codec bedrock-nova`` (the repository's tests
add the recordings' and the SDK's as keywords)."""
