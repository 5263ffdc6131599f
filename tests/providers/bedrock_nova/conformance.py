"""What the conformance laws need to know about bedrock-nova: its :data:`ENTRY`, collected by
``tests/conformance/providers.py``.

The oracles are botocore's Converse shapes for the blocks Nova shares with Converse and
the user guide's lists for Nova's own members (``nova_support.py``). Each recorded stream
pairs with :func:`reference_accumulation`: the InvokeModel answer its events stand for,
built here by the documented rules (deltas of one ``contentBlockIndex`` concatenate;
``toolUse.input`` fragments are JSON text; the stop reason and usage come from
``messageStop`` and ``metadata``), independently of the codec.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from hypothesis import strategies as st

import chatcodec
import chatcodec.testing as canonical
from chatcodec.testing._laws.entry import ProviderEntry, SingleHop, StreamPair
from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.normal_forms import (
    with_compact_arguments,
    without_neutral_penalties,
    without_provider_data,
    without_spelling_markers,
    without_unasked_logprobs,
)
from conformance.recordings import recordings_of
from providers.bedrock_nova.conformance_streams import CASES
from providers.bedrock_nova.nova_support import assert_valid_request, assert_valid_response, assert_valid_stream

PROVIDER = "bedrock-nova"

FINISH_REASONS: dict[str, chatcodec.UnifiedFinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
    "content_filtered": "content_filter",
    "guardrail_intervened": "content_filter",  # Nova 2 takes guardrails (Bedrock's one word list)
    "malformed_model_output": "error",
    "malformed_tool_use": "error",
    "a_reason_added_in_2027": "other",  # a word Nova adds later: kept as sent
}


def with_finish_reason(payload: JsonObject, raw: str) -> JsonObject:
    return copy.deepcopy(payload) | {"stopReason": raw}


# --- recorded streams and what they stand for ------------------------------------------------


def reference_accumulation(events: list[JsonObject]) -> JsonObject:
    """The InvokeModel answer a stream stands for (see the module docstring)."""
    blocks: dict[int, dict[str, Any]] = {}
    body: dict[str, Any] = {}
    for event in events:
        ((kind, payload),) = ((key, value) for key, value in event.items() if key != "amazon-bedrock-invocationMetrics")
        if kind == "contentBlockStart":
            blocks[payload["contentBlockIndex"]] = {"toolUse": dict(payload["start"]["toolUse"])}
        elif kind == "contentBlockDelta":
            ((member, value),) = payload["delta"].items()
            block = blocks.setdefault(payload["contentBlockIndex"], {})
            if member == "text":
                block["text"] = block.get("text", "") + value
            elif member == "toolUse":
                block["toolUse"]["input"] = block["toolUse"].get("input", "") + value["input"]
            else:
                text = block.setdefault("reasoningContent", {"reasoningText": {"text": ""}})["reasoningText"]
                text["text"] += value["text"]
        elif kind == "messageStop":
            body.update(payload)
        elif kind == "metadata":
            body["usage"] = dict(payload["usage"])
    content = [_finished(blocks[index]) for index in sorted(blocks)]
    return {"output": {"message": {"role": "assistant", "content": content}}, **body}


def _finished(block: dict[str, Any]) -> dict[str, Any]:
    if "toolUse" in block:
        call = block["toolUse"]
        return {"toolUse": {**call, "input": json.loads(call.get("input") or "{}")}}
    return block


def streamed_meaning(response: chatcodec.ChatResponse) -> object:
    """A stream and a body of one answer: argument spelling aside, and the stream's own
    response-level fields (``metrics``, ``trace``, the invocation metrics) and usage
    spelling, which a body has no place for."""
    compacted = without_spelling_markers(with_compact_arguments(response)).model_dump(mode="json")
    compacted.pop("provider_metadata", None)
    if compacted.get("usage") is not None:
        compacted["usage"].pop("provider_metadata", None)
    return compacted


def stream_pairs(provider: ProviderEntry) -> list[StreamPair]:
    return [
        StreamPair(name, lambda name=name: reference_accumulation(provider.stream_events(name)), streamed_meaning)
        for name in provider.recorded["stream"]
    ]


# --- responses as Nova carries them ----------------------------------------------------------

_words = st.text(alphabet="abcdefghij _-", min_size=1, max_size=10).filter(lambda text: text.strip() != "")
_ids = st.text(alphabet="abcXYZ019_.:-", min_size=1, max_size=20)
_names = st.text(alphabet="abcXYZ019_-", min_size=1, max_size=20)


@st.composite
def nova_responses(draw: st.DrawFn) -> chatcodec.ChatResponse:
    """Responses the codec carries exactly: text, Nova's reasoning text, client tool calls
    with object arguments, Nova's stop reasons, plain usage."""
    thinking = st.builds(chatcodec.ThinkingPart, text=_words, provider=st.just(PROVIDER))
    calls = st.builds(
        chatcodec.ToolUsePart,
        id=_ids,
        name=_names,
        arguments=st.dictionaries(_names, st.integers(0, 9), max_size=2).map(json.dumps),
    )
    parts = draw(st.lists(st.one_of(st.builds(chatcodec.TextPart, text=_words), thinking, calls), max_size=4))
    raw = draw(st.sampled_from(list(FINISH_REASONS)[:-1]))
    usage = draw(
        st.one_of(
            st.none(),
            st.builds(
                chatcodec.Usage,
                input_tokens=st.integers(10, 90),
                output_tokens=st.integers(0, 9),
                cache_read_tokens=st.one_of(st.none(), st.integers(0, 5)),
            ),
        )
    )
    return chatcodec.ChatResponse(
        message=chatcodec.AssistantMessage(content=parts),
        finish_reason=chatcodec.FinishReason(unified=FINISH_REASONS[raw], raw=raw),
        usage=usage,
    )


def same_streamed(response: chatcodec.ChatResponse) -> object:
    """Argument spelling (text versus parsed object) and the usage's bag (a stream's
    ``metadata`` has no ``totalTokens``)."""
    compacted = with_compact_arguments(response).model_dump(mode="json")
    compacted.pop("provider_metadata", None)
    if compacted.get("usage") is not None:
        compacted["usage"].pop("provider_metadata", None)
    return compacted


# --- the single-hop loss law: judged on what a request means --------------------------------


def single_hop_requests() -> st.SearchStrategy[chatcodec.ChatRequest]:
    """Any canonical request (single-message ones too), without a registered provider's data."""
    single = st.builds(chatcodec.ChatRequest, messages=st.lists(canonical.messages(), max_size=1))
    return st.one_of(canonical.chat_requests(), single).map(without_provider_data)


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
        if isinstance(parsed, dict):
            part = {**part, "arguments": json.dumps(parsed, ensure_ascii=False, separators=(",", ":"))}
    if part.get("type") == "tool_result":
        content = part.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}] if content else []
        part = {**part, "content": [_rewritten_part(item) for item in content or []]}
        last = part["content"][-1] if part["content"] else {}
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


# --- the entry -----------------------------------------------------------------------------------


SERVER_THEN_CLIENT_TOOLS: JsonObject = {
    "messages": [{"role": "user", "content": [{"text": "q"}]}],
    "toolConfig": {
        "tools": [
            {"systemTool": {"name": "nova_grounding"}},
            {"toolSpec": {"name": "f", "inputSchema": {"json": {}}}},
        ]
    },
}
"""A system tool (Nova 2's web grounding) before a client tool: the ``_tool_order`` marker."""


def deep_kept_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    """``messageStart`` keeps its unknown members: ``value`` goes into the first event's."""
    first = {**events[0], "messageStart": {**events[0]["messageStart"], "x_extension": value}}
    return [first, *events[1:]], 0


ENTRY = ProviderEntry.minimal(
    name=PROVIDER,
    fixtures=recordings_of(PROVIDER),
    names_in_prose=("bedrock", "aws", "amazon", "nova"),
    check_request=assert_valid_request,
    check_response=assert_valid_response,
    check_stream=assert_valid_stream,
    finish_reasons=FINISH_REASONS,
    with_finish_reason=with_finish_reason,
    finish_reason_fixture="tool_use.json",
    pair_streams=stream_pairs,
    streams=CASES,
    shaped_responses=nova_responses,
    single_hop=SingleHop(requests=single_hop_requests, original=meaning, decoded=meaning),
    tool_name_rule=re.compile(r"\A[a-zA-Z0-9_-]{1,64}\Z"),  # the family's ToolName rule
    deep_kept_value=deep_kept_value,
    same_result=same_streamed,
    silent_rewrites=silent_rewrites,
    marker_requests={"_tool_order": SERVER_THEN_CLIENT_TOOLS},
    unplaced_response_fields=("created", "id", "model", "usage.reasoning_tokens"),
)
