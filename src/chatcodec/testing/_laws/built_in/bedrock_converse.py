"""Bedrock Converse's law facts: what the codec rewrites without a report (``request.py``,
``messages.py``, ``parts.py``) and the single-hop normal form judged on what a request means,
what a stream and a body of one answer share, the requests and answers that make its reader
write a meaningful marker, its tool-name rule and what its wire has no place for."""

from __future__ import annotations

import json
import re
from functools import partial
from typing import Any

from hypothesis import strategies as st

import chatcodec
from chatcodec.codec_kit import is_dict
from chatcodec.testing._laws import rewrites as r
from chatcodec.testing._laws.derived_entry import derived_entry
from chatcodec.testing._laws.entry import SingleHop
from chatcodec.testing._laws.normal_forms import (
    with_compact_arguments,
    without_provider_data,
    without_spelling_markers,
)
from chatcodec.testing._strategies import chat_requests, messages

JsonObject = dict[str, Any]


def compact_arguments(response: chatcodec.ChatResponse) -> object:
    """A stream passes argument text through; a non-streamed body carries the parsed
    ``input`` object, which decodes to compact JSON."""
    return with_compact_arguments(response)


def single_hop_requests() -> st.SearchStrategy[chatcodec.ChatRequest]:
    """Any canonical request (single-message ones too), without a registered provider's
    data and without reasoning (canonical's several spellings of one thinking setting)."""
    single = st.builds(chatcodec.ChatRequest, messages=st.lists(messages(), max_size=1))
    return (
        st.one_of(chat_requests(), single)
        .map(without_provider_data)
        .map(lambda request: request.model_copy(update={"reasoning": None}))
    )


def meaning(request: chatcodec.ChatRequest) -> dict[str, Any]:
    """What a request says, without the spellings the codec is documented to change:
    turn boundaries (results grouped, leading system prompts joined), string versus list
    content, a message's cache marker (it moves to its last part),
    thinking attribution (re-derived on decoding), argument JSON formatting, an empty
    result as ``""`` or ``[]``, the marker of a result's last part (a cache point after the
    result), ``detail="auto"``, a ``text`` response format, and the
    spelling markers and empty bags of provider data (they carry nothing); a penalty of 0
    changes nothing and is not sent (as :func:`silent_rewrites`)."""
    neutral: dict[str, Any] = {}
    r.without_neutral_penalties(neutral, request)
    r.without_unasked_logprobs(neutral, request)
    request = without_spelling_markers(request.model_copy(update=neutral))
    items: list[Any] = []
    for message in request.messages:
        role = {"tool": "user"}.get(message.role, message.role)  # developer -> system is reported
        read: list[Any] = message.parts if message.content != "" else [chatcodec.TextPart(text="")]
        parts: list[Any] = [_part_meaning(part) for part in read] or [{"empty": True}]
        marker = None if message.cache_control is None else message.cache_control.model_dump(mode="json")
        if marker is not None and "cache_control" not in parts[-1]:
            parts[-1]["cache_control"] = marker
        elif marker is not None and parts[-1]["cache_control"] != marker:
            parts.append({"message cache_control": marker})  # two different markers at one point
        items += [(role, part) for part in parts]
        items += [("name", message.name)] if message.name is not None else []
        items += [("metadata", message.provider_metadata)] if message.provider_metadata else []
    dumped = request.model_dump(mode="json", exclude={"messages"})
    if request.response_format is not None and request.response_format.type == "text":
        del dumped["response_format"]
    return {"items": items, **dumped}


def _part_meaning(part: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = part.model_dump(mode="json")
    if isinstance(part, chatcodec.ThinkingPart):
        dumped.pop("provider", None)
        dumped.pop("model", None)
    if isinstance(part, chatcodec.ToolUsePart) and part.arguments_are_valid_json:
        dumped["arguments"] = part.parsed_arguments()
    if isinstance(part, chatcodec.ToolResultPart):
        content = part.content
        if isinstance(content, str):
            content = [chatcodec.TextPart(text=content)] if content else []
        dumped["content"] = [_part_meaning(item) for item in content]
        last = dumped["content"][-1] if dumped["content"] else {}
        if dumped.get("cache_control") is None and "cache_control" in last:  # a cache point after the result
            dumped["cache_control"] = last.pop("cache_control")  # caches the same prefix (as silent_rewrites)
    if isinstance(part, chatcodec.ImagePart) and part.detail == "auto":
        dumped.pop("detail")
    return {key: value for key, value in dumped.items() if value is not None}


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report (``request.py``, ``messages.py``, ``parts.py``):

    * content is always a block list: a string reads back as one text part, and a tool
      result's string as one text part (``""`` as no parts);
    * leading system messages are one ``system`` list, so two or more read back as one
      holding their parts in order (a ``developer`` message reads back as system,
      reported);
    * consecutive tool messages are one user turn of results, read back as one tool
      message; a user message right after results joins their turn (read back apart);
    * a message's ``cache_control`` is a cache point after its last block, read back on
      that block's part; one on the last part of a tool result's content is a cache point
      after the result, read back on the result (the same prefix);
    * tool-call arguments are sent as the parsed ``input`` object: compact JSON back;
    * ``detail="auto"`` and a ``text`` response format are the defaults: not sent;
    * thinking reads back attributed to ``bedrock-converse`` and the request's model;
    * a penalty of 0 changes nothing: not sent;
    * a reasoning config with no field set says nothing: no thinking config is sent
      (found by the there-and-back law from Gemini's empty ``thinkingConfig``);
    * a thinking budget reads back as thinking on, and ``include_thoughts=True`` beside
      thinking that is on is not sent (:func:`_claude_thinking_reading`).
    """
    update: dict[str, Any] = {}
    r.without_neutral_penalties(update, request)
    r.without_unasked_logprobs(update, request)
    dumped = request.model_copy(update=update).model_dump(mode="json")
    dumped["messages"] = _rewritten_messages(request)
    if request.response_format is not None and request.response_format.type == "text":
        dumped["response_format"] = None
    if request.reasoning is not None and not request.reasoning.model_dump(exclude_none=True):
        dumped["reasoning"] = None
    _claude_thinking_reading(dumped.get("reasoning"))
    return chatcodec.ChatRequest.model_validate(r.everywhere(r.AUTO_DETAIL)(dumped))


def _claude_thinking_reading(reasoning: dict[str, Any] | None) -> None:
    """What Claude's thinking config reads back as (``_providers/families/claude/wire_rules.py``), in place:
    a budget above 0 is thinking switched on (``enabled``), and ``include_thoughts=True``
    beside thinking that is on says nothing (Claude returns its thinking whenever it
    thinks), so it is not sent. Found by the there-and-back law, Bedrock -> Gemini -> Bedrock,
    where Gemini's own reading adds ``include_thoughts``."""
    if reasoning is None or reasoning.get("enabled") is False:
        return
    budget = reasoning.get("budget_tokens")
    if budget is not None and budget > 0 and reasoning.get("enabled") is None:
        reasoning["enabled"] = True
    on = reasoning.get("enabled") or reasoning.get("adaptive")
    if on and reasoning.get("include_thoughts") is True:
        reasoning["include_thoughts"] = None


def _rewritten_messages(request: chatcodec.ChatRequest) -> list[dict[str, Any]]:
    rewritten: list[dict[str, Any]] = []
    leading = True
    for message in request.messages:
        dumped = message.model_dump(mode="json", context={"content_form": "list"})
        parts = [_rewritten_part(part, request.model) for part in dumped["content"]]
        if message.cache_control is not None and parts and "cache_control" not in parts[-1]:
            parts[-1]["cache_control"] = dumped.pop("cache_control")
        dumped["content"] = parts
        is_system = dumped["role"] == "system"
        previous = rewritten[-1] if rewritten else None
        if previous is not None and previous["role"] == dumped["role"] and dumped["role"] == "tool":
            previous["content"] += parts
            continue
        if previous is not None and leading and is_system and previous["role"] == "system":
            previous["content"] += parts
            continue
        leading = leading and is_system
        rewritten.append(dumped)
    return rewritten


def _rewritten_part(part: dict[str, Any], model: str | None) -> dict[str, Any]:
    if part.get("type") == "thinking":
        part = {**part, "provider": "bedrock-converse", "model": model}
    if part.get("type") == "tool_use":
        parsed = _parsed(part.get("arguments", ""))
        if is_dict(parsed):
            part = {**part, "arguments": json.dumps(parsed, ensure_ascii=False, separators=(",", ":"))}
    if part.get("type") == "tool_result" and isinstance(part.get("content"), str):
        text = part["content"]
        part = {**part, "content": [{"type": "text", "text": text}] if text else []}
    if part.get("type") == "tool_result" and part.get("cache_control") is None and part.get("content"):
        last = part["content"][-1]
        if last.get("cache_control") is not None:  # a cache point after the result: the same prefix
            content = [*part["content"][:-1], {**last, "cache_control": None}]
            part = {**part, "content": content, "cache_control": last["cache_control"]}
    return part


def _parsed(text: str) -> object:
    try:
        return json.loads(text) if text.strip() else {}
    except ValueError:
        return None


GUARDED_TEXT: JsonObject = {
    "modelId": "anthropic.claude-sonnet-4-5",
    "messages": [
        {"role": "user", "content": [{"guardContent": {"text": {"text": "check this", "qualifiers": ["query"]}}}]}
    ],
}
"""A request whose decoder writes ``_guard`` (a ``guardContent`` text block)."""

GUARDED_RESPONSE: JsonObject = {
    "output": {"message": {"role": "assistant", "content": [{"guardContent": {"text": {"text": "x"}}}]}},
    "stopReason": "end_turn",
    "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
    "metrics": {"latencyMs": 1},
}
"""A response whose decoder writes ``_guard``: its reader takes the block wherever it is."""

SERVER_THEN_CLIENT_TOOLS: JsonObject = {
    "modelId": "m",
    "messages": [{"role": "user", "content": [{"text": "q"}]}],
    "inferenceConfig": {"maxTokens": 10},
    "toolConfig": {
        "tools": [
            {"systemTool": {"name": "nova_grounding"}},
            {"toolSpec": {"name": "f", "inputSchema": {"json": {}}}},
        ]
    },
}
"""A system tool before a client tool: the ``_tool_order`` marker."""


entry = partial(
    derived_entry,
    "bedrock-converse",
    names_in_prose=("bedrock", "aws", "amazon"),
    rule_models=("anthropic.claude-opus-4-7", "amazon.nova-pro-v1:0"),
    single_hop=SingleHop(requests=single_hop_requests, original=meaning, decoded=meaning),
    tool_name_rule=re.compile(r"\A[a-zA-Z0-9_-]{1,64}\Z"),  # botocore's ToolName shape
    # bags: NO_BAGS (the decoder writes none; a Converse body has ``output`` and ``output.message``
    # for them, its stream neither)
    same_result=compact_arguments,
    silent_rewrites=silent_rewrites,
    unplaced_response_fields=("created", "id", "model", "usage.reasoning_tokens"),
    marker_requests={"_tool_order": SERVER_THEN_CLIENT_TOOLS, "_guard": GUARDED_TEXT},
    marker_responses={"_guard": GUARDED_RESPONSE},
    # Not ``reports_reparsed_arguments``: ``toolUse.input`` is an object too, but duplicate
    # keys in the argument text collapse without a report today (found moving this table).
)
"""The facts the codec gives, for ``chatcodec check-codec bedrock-converse`` (the repository's
tests add the recordings' and the SDK's as keywords)."""
