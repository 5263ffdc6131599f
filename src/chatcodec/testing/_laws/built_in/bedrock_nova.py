"""Bedrock Nova's law facts: what the codec rewrites without a report (the single-hop normal form,
judged on what a request means) and what a stream and a body of one answer share."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import strategies as st

import chatcodec
from chatcodec.contract import is_dict
from chatcodec.testing._laws.derived_entry import derived_entry
from chatcodec.testing._laws.entry import ProviderEntry, SingleHop
from chatcodec.testing._laws.normal_forms import (
    with_compact_arguments,
    without_neutral_penalties,
    without_provider_data,
    without_spelling_markers,
    without_unasked_logprobs,
)
from chatcodec.testing._strategies import chat_requests, messages

PROVIDER = "bedrock-nova"


def same_streamed(response: chatcodec.ChatResponse) -> object:
    """Argument spelling (text versus parsed object) and the usage's bag (a stream's
    ``metadata`` has no ``totalTokens``)."""
    compacted = with_compact_arguments(response).model_dump(mode="json")
    compacted.pop("provider_metadata", None)
    if compacted.get("usage") is not None:
        compacted["usage"].pop("provider_metadata", None)
    return compacted


def single_hop_requests() -> st.SearchStrategy[chatcodec.ChatRequest]:
    """Any canonical request (single-message ones too), without a registered provider's data."""
    single = st.builds(chatcodec.ChatRequest, messages=st.lists(messages(), max_size=1))
    return st.one_of(chat_requests(), single).map(without_provider_data)


def meaning(request: chatcodec.ChatRequest) -> dict[str, Any]:
    """What a request says, without the spellings the codec is documented to change (as
    :func:`silent_rewrites`): turn boundaries, string versus list content, a message's
    cache marker (on its last part), thinking attribution, argument JSON formatting, the
    reasoning switch an effort implies, and spelling markers."""
    rewritten = silent_rewrites(without_spelling_markers(request))
    items: list[Any] = []
    for message in rewritten.messages:
        role = {"tool": "user"}.get(message.role, message.role)  # developer -> system is reported
        parts = [_part_meaning(part) for part in message.parts] or [{"empty": True}]
        items += [(role, part) for part in parts]
        items += [("name", message.name)] if message.name is not None else []
        if message.cache_control is not None and not message.parts:  # nothing to put a cache point after
            items.append(("cache_control", message.cache_control.model_dump(mode="json")))
        items += [("metadata", message.provider_metadata)] if message.provider_metadata else []
    return {"items": items, **rewritten.model_dump(mode="json", exclude={"messages"})}


def _part_meaning(part: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = part.model_dump(mode="json")
    if isinstance(part, chatcodec.ToolUsePart) and part.arguments_are_valid_json:
        dumped["arguments"] = part.parsed_arguments()
    return {key: value for key, value in dumped.items() if value is not None}


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report (``request.py``, ``messages.py``, ``parts.py``,
    ``settings.py``), because the request means the same after it:

    * content is always a block list: a string reads back as one text part (``""`` is blank
      text, dropped and reported), and a tool result's string likewise;
    * leading system messages are one ``system`` list, read back as one system message (a
      ``developer`` message reads back as system, reported: it keeps its role here);
    * consecutive tool messages and a user message after them are one user turn (results
      first), read back as the results and the rest (another merge is reported);
    * a message's ``cache_control`` is a cache point after its last block, read back on
      that block's part; one on the last part of a tool result's content is a cache point
      after the result, read back on the result;
    * tool-call arguments are sent as the parsed ``input`` object: compact JSON back;
    * ``detail="auto"`` is the default: not sent; ``is_error=False`` is no status;
    * thinking reads back attributed to ``bedrock-nova``, with no model (a Nova body names
      none: ``families/aws/thinking.py`` records the model only when the request names it);
    * a penalty of 0 changes nothing: not sent;
    * the model is in the URL, where the caller puts it: the body holds none;
    * an effort (or budget) without the switch reads back with reasoning switched on.
    """
    update: dict[str, Any] = {"model": None}  # in the URL, not the body (request.py)
    without_neutral_penalties(update, request)
    without_unasked_logprobs(update, request)
    dumped = request.model_copy(update=update).model_dump(mode="json")
    dumped["messages"] = _rewritten_messages(request)
    reasoning = dumped.get("reasoning")
    if reasoning is not None and not {key: value for key, value in reasoning.items() if value is not None}:
        dumped["reasoning"] = None
    elif reasoning is not None and reasoning.get("enabled") is None:
        reasoning["enabled"] = True
    return chatcodec.ChatRequest.model_validate(dumped)


def _rewritten_messages(request: chatcodec.ChatRequest) -> list[dict[str, Any]]:
    rewritten: list[dict[str, Any]] = []
    leading = True
    for message in request.messages:
        if message.role == "text":  # reported: sent as a user turn
            rewritten.append(message.model_dump(mode="json"))
            leading = False
            continue
        dumped = message.model_dump(mode="json", context={"content_form": "list"})
        parts = [_rewritten_part(part) for part in dumped["content"]]
        if isinstance(message.content, str) and message.content == "":
            parts = [{"type": "text", "text": ""}]  # blank text: dropped and reported (the family's turns)
        if message.cache_control is not None and parts and "cache_control" not in parts[-1]:
            parts[-1]["cache_control"] = dumped.pop("cache_control")
        dumped["content"] = parts
        is_system = dumped["role"] in ("system", "developer")
        previous = rewritten[-1] if rewritten else None
        if previous is not None and leading and is_system and previous["role"] == dumped["role"]:
            previous["content"] += parts
            continue
        leading = leading and is_system
        rewritten.append(dumped)
    return _regrouped(rewritten)


def _regrouped(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive tool and user messages as one wire turn's runs: results, then the rest."""
    grouped: list[dict[str, Any]] = []
    for message in messages:
        if message["role"] == "text":  # reported: its turn is not regrouped
            grouped.append(message)
            continue
        previous = grouped[-1] if grouped else None
        if previous is not None and {previous["role"], message["role"]} <= {"tool", "user"}:
            turn = [
                *previous["parts_of_turn"],
                *(("tool" if p["type"] == "tool_result" else "user", p) for p in message["content"]),
            ]
            grouped[-1] = {**previous, "parts_of_turn": turn}
            continue
        kinds = [("tool" if p["type"] == "tool_result" else "user", p) for p in message["content"]]
        grouped.append({**message, "parts_of_turn": kinds} if message["role"] in ("tool", "user") else message)
    runs: list[dict[str, Any]] = []
    for message in grouped:
        turn = message.pop("parts_of_turn", None)
        if turn is None:
            runs.append(message)
            continue
        first = len(runs)
        for kind, part in turn:
            if len(runs) > first and runs[-1]["role"] == kind:
                runs[-1]["content"].append(part)
            else:
                runs.append({"role": kind, "content": [part]})
        if len(runs) == first:
            runs.append({"role": "user", "content": []})
        for key in ("name", "provider_metadata", "cache_control"):
            if message.get(key) is not None:
                runs[first][key] = message[key]
    return runs


def _rewritten_part(part: dict[str, Any]) -> dict[str, Any]:
    if part.get("type") == "thinking":  # attributed to the body's reader: no model, which is in the URL
        part = {**part, "provider": PROVIDER, "model": None}
    if part.get("type") == "tool_use":
        parsed = _parsed(part.get("arguments", ""))
        if is_dict(parsed):
            part = {**part, "arguments": json.dumps(parsed, ensure_ascii=False, separators=(",", ":"))}
    if part.get("type") == "tool_result":
        content = part.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}] if content else []
        part = {**part, "content": [_rewritten_part(item) for item in content or []]}
        last: dict[str, Any] = part["content"][-1] if part["content"] else {}
        if part.get("cache_control") is None and last.get("cache_control") is not None:
            # a cache point after the result (Converse's ToolResultContentBlock has none): the same prefix
            part["content"] = [*part["content"][:-1], {**last, "cache_control": None}]
            part["cache_control"] = last["cache_control"]
        if part.get("is_error") is False:
            part["is_error"] = None
    if part.get("type") == "image" and part.get("detail") == "auto":
        part = {**part, "detail": None}
    return part


def _parsed(text: str) -> object:
    try:
        return json.loads(text) if text.strip() else {}
    except ValueError:
        return None


def entry(**stated: Any) -> ProviderEntry:
    """The facts the codec gives, for ``chatcodec check-codec bedrock-nova`` (and ``stated``
    over them: the repository's tests add the recordings' and the SDK's)."""
    return derived_entry(
        PROVIDER,
        names_in_prose=("bedrock", "aws", "amazon", "nova"),
        single_hop=SingleHop(requests=single_hop_requests, original=meaning, decoded=meaning),
        tool_name_rule=re.compile(r"\A[a-zA-Z0-9_-]{1,64}\Z"),  # the family's ToolName rule
        same_result=same_streamed,
        silent_rewrites=silent_rewrites,
        unplaced_response_fields=("created", "id", "model", "usage.reasoning_tokens"),
        **stated,
    )
