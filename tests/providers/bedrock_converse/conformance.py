"""What the conformance laws need to know about bedrock-converse: its :data:`ENTRY`, collected by
``tests/conformance/providers.py``.

The oracles are botocore's ``ParamValidator`` on the ``bedrock-runtime`` service model
(``_providers/bedrock_converse/bedrock_support.py``). botocore has no stream accumulator,
so each recorded stream pairs with :func:`reference_accumulation`: the ``Converse`` body
the events stand for, built here by the rules the AWS documentation gives (deltas of one
``contentBlockIndex`` concatenate; ``toolUse.input`` fragments are JSON text; the stop
reason and usage come from ``messageStop`` and ``metadata``), independently of the codec.
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
    without_provider_data,
    without_spelling_markers,
)
from conformance.normal_forms import without_neutral_penalties, without_unasked_logprobs
from conformance.recordings import recordings_of
from providers.bedrock_converse.bedrock_support import (
    assert_valid_request,
    assert_valid_response,
    assert_valid_stream,
    for_sdk,
)
from providers.bedrock_converse.conformance_streams import CASES

__all__ = ["ENTRY", "assert_valid_request", "assert_valid_response", "assert_valid_stream", "for_sdk"]

check_request = assert_valid_request
check_response = assert_valid_response


def check_stream(events: list[JsonObject]) -> None:
    """botocore's stream shapes, minus two things recordings show are not required on the
    wire: usage members newer than the installed model (AWS sends them; botocore's parser
    skips them), and ``metrics`` in ``metadata``, which SDK-level recordings leave out (the
    encoder writes it unless the stream it re-encodes had none: its ``_no_metrics`` marker,
    tested in ``_providers/bedrock_converse/test_streams.py``)."""
    adapted = [for_sdk("", event) for event in events]
    for event in adapted:
        if isinstance(event.get("metadata"), dict):
            event["metadata"].setdefault("metrics", {"latencyMs": 0})
    assert_valid_stream(adapted)


FINISH_REASONS: dict[str, chatcodec.UnifiedFinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_calls",
    "guardrail_intervened": "content_filter",
    "content_filtered": "content_filter",
    "malformed_model_output": "error",
    "malformed_tool_use": "error",
    "a_reason_added_in_2027": "other",  # spelled as Bedrock spells them: kept as sent
}


def with_finish_reason(payload: JsonObject, raw: str) -> JsonObject:
    return copy.deepcopy(payload) | {"stopReason": raw}


def compact_arguments(response: chatcodec.ChatResponse) -> object:
    """A stream passes argument text through; a non-streamed body carries the parsed
    ``input`` object, which decodes to compact JSON."""
    return with_compact_arguments(response)


# --- recorded streams and what they stand for ------------------------------------------------


def reference_accumulation(events: list[JsonObject]) -> JsonObject:
    """The ``Converse`` body a ConverseStream stands for (see the module docstring)."""
    blocks: dict[int, dict[str, Any]] = {}
    body: dict[str, Any] = {}
    for event in events:
        ((kind, payload),) = event.items()
        payload = {key: value for key, value in payload.items() if key != "p"}
        if kind == "contentBlockStart":
            ((member, start),) = payload["start"].items()
            blocks[payload["contentBlockIndex"]] = {member: dict(start)}
        elif kind == "contentBlockDelta":
            _add_delta(blocks, payload["contentBlockIndex"], payload["delta"])
        elif kind in {"messageStop", "metadata"}:
            body.update(payload)
    content = [_finished(blocks[index]) for index in sorted(blocks)]
    return {"output": {"message": {"role": "assistant", "content": content}}, **body}


def _add_delta(blocks: dict[int, dict[str, Any]], index: int, delta: JsonObject) -> None:
    ((member, value),) = delta.items()
    block = blocks.setdefault(index, {})
    if member == "text":
        block["text"] = block.get("text", "") + value
    elif member == "toolUse":
        block["toolUse"]["input"] = block["toolUse"].get("input", "") + value["input"]
    elif member == "reasoningContent":
        reasoning = block.setdefault("reasoningContent", {})
        if "redactedContent" in value:
            reasoning["redactedContent"] = value["redactedContent"]
        else:
            text = reasoning.setdefault("reasoningText", {"text": ""})
            for key, item in value.items():
                text[key] = text.get(key, "") + item


def _finished(block: dict[str, Any]) -> dict[str, Any]:
    if "toolUse" in block:
        call = block["toolUse"]
        return {"toolUse": {**call, "input": json.loads(call.get("input") or "{}")}}
    return block


def unmarked_compact(response: chatcodec.ChatResponse) -> object:
    """Against the reference accumulation: argument spelling, and spelling markers (a
    stream records that its ``metadata`` had no ``metrics``; the body cannot say so)."""
    return without_spelling_markers(with_compact_arguments(response))


def stream_pairs(provider: ProviderEntry) -> list[StreamPair]:
    return [
        StreamPair(name, lambda name=name: reference_accumulation(provider.stream_events(name)), unmarked_compact)
        for name in provider.recorded["stream"]
    ]


# --- responses as Bedrock carries them ----------------------------------------------------------

_words = st.text(alphabet="abcdefghij _-", min_size=1, max_size=10).filter(lambda text: text.strip() != "")
_ids = st.text(alphabet="abcXYZ019_.:-", min_size=1, max_size=20)
_names = st.text(alphabet="abcXYZ019_-", min_size=1, max_size=20)


@st.composite
def bedrock_responses(draw: st.DrawFn) -> chatcodec.ChatResponse:
    """Responses the codec carries exactly: text, signed or redacted reasoning of Bedrock,
    client tool calls with object arguments, Bedrock's stop reasons, plain usage."""
    thinking = st.one_of(
        st.builds(
            chatcodec.ThinkingPart,
            text=_words,
            signature=st.one_of(st.none(), _words),
            provider=st.just("bedrock-converse"),
        ),
        st.builds(
            chatcodec.ThinkingPart,
            encrypted=st.just("RXU4"),
            redacted=st.just(True),
            provider=st.just("bedrock-converse"),
        ),
    )
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
    """Argument spelling (text versus parsed object), and the response-level fields a
    ConverseStream always sends (``metrics``, required by botocore) which a generated
    response may lack."""
    compacted = with_compact_arguments(response).model_dump(mode="json")
    compacted.pop("provider_metadata", None)
    if compacted.get("usage") is not None:
        compacted["usage"].pop("provider_metadata", None)
    return compacted


# --- the single-hop loss law: judged on what a request means --------------------------------


def single_hop_requests() -> st.SearchStrategy[chatcodec.ChatRequest]:
    """Any canonical request (single-message ones too), without a registered provider's
    data and without reasoning (canonical's several spellings of one thinking setting)."""
    single = st.builds(chatcodec.ChatRequest, messages=st.lists(canonical.messages(), max_size=1))
    return (
        st.one_of(canonical.chat_requests(), single)
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
    without_neutral_penalties(neutral, request)
    without_unasked_logprobs(neutral, request)
    request = without_spelling_markers(request.model_copy(update=neutral))
    items: list[Any] = []
    for message in request.messages:
        role = {"tool": "user"}.get(message.role, message.role)  # developer -> system is reported
        parts = message.parts if message.content != "" else [chatcodec.TextPart(text="")]
        parts = [_part_meaning(part) for part in parts] or [{"empty": True}]
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
    without_neutral_penalties(update, request)
    without_unasked_logprobs(update, request)
    dumped = request.model_copy(update=update).model_dump(mode="json")
    dumped["messages"] = _rewritten_messages(request)
    if request.response_format is not None and request.response_format.type == "text":
        dumped["response_format"] = None
    if request.reasoning is not None and not request.reasoning.model_dump(exclude_none=True):
        dumped["reasoning"] = None
    _claude_thinking_reading(dumped.get("reasoning"))
    return chatcodec.ChatRequest.model_validate(_without_auto_detail(dumped))


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
        if isinstance(parsed, dict):
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


def _without_auto_detail(value: Any) -> Any:
    if isinstance(value, list):
        return [_without_auto_detail(item) for item in value]
    if not isinstance(value, dict):
        return value
    cleaned = {key: _without_auto_detail(item) for key, item in value.items()}
    if value.get("type") == "image" and value.get("detail") == "auto":
        cleaned["detail"] = None
    return cleaned


# --- the entry -----------------------------------------------------------------------------------

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


def deep_kept_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    """``messageStart`` keeps its unknown members: ``value`` goes into the first event's."""
    first = {**events[0], "messageStart": {**events[0]["messageStart"], "x_extension": value}}
    return [first, *events[1:]], 0


ENTRY = ProviderEntry.minimal(
    name="bedrock-converse",
    fixtures=recordings_of("bedrock-converse"),
    names_in_prose=("bedrock", "aws", "amazon"),
    rule_models=("anthropic.claude-opus-4-7", "amazon.nova-pro-v1:0"),
    check_request=check_request,
    check_response=check_response,
    check_stream=check_stream,
    recordings={"request": 9, "response": 7, "stream": 5},
    finish_reasons=FINISH_REASONS,
    with_finish_reason=with_finish_reason,
    finish_reason_fixture="tool_use_with_nova_thinking_text.json",
    pair_streams=stream_pairs,
    stream_pair_count=5,
    streams=CASES,
    shaped_responses=bedrock_responses,
    single_hop=SingleHop(requests=single_hop_requests, original=meaning, decoded=meaning),
    tool_name_rule=re.compile(r"\A[a-zA-Z0-9_-]{1,64}\Z"),  # botocore's ToolName shape
    # bags: NO_BAGS (the decoder writes none; a Converse body has ``output`` and ``output.message``
    # for them, its stream neither)
    deep_kept_value=deep_kept_value,
    same_result=compact_arguments,
    for_sdk=for_sdk,
    silent_rewrites=silent_rewrites,
    unplaced_response_fields=("created", "id", "model", "usage.reasoning_tokens"),
    marker_requests={
        "_tool_order": SERVER_THEN_CLIENT_TOOLS,
        "_guard": GUARDED_TEXT,
    },
    marker_responses={"_guard": GUARDED_RESPONSE},
    # Not ``reports_reparsed_arguments``: ``toolUse.input`` is an object too, but duplicate
    # keys in the argument text collapse without a report today (found moving this table).
)
