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
from typing import Any

from hypothesis import strategies as st

import chatcodec
from chatcodec.testing._laws.built_in import bedrock_nova
from chatcodec.testing._laws.entry import ProviderEntry, StreamPair
from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.normal_forms import (
    with_compact_arguments,
    without_spelling_markers,
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


# --- the single-hop loss law: judged on what a request means --------------------------------


# --- the entry -----------------------------------------------------------------------------------


def deep_kept_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    """``messageStart`` keeps its unknown members: ``value`` goes into the first event's."""
    first = {**events[0], "messageStart": {**events[0]["messageStart"], "x_extension": value}}
    return [first, *events[1:]], 0


ENTRY = bedrock_nova.entry(
    fixtures=recordings_of(PROVIDER),
    check_request=assert_valid_request,
    check_response=assert_valid_response,
    check_stream=assert_valid_stream,
    finish_reasons=FINISH_REASONS,
    with_finish_reason=with_finish_reason,
    finish_reason_fixture="tool_use.json",
    pair_streams=stream_pairs,
    streams=CASES,
    shaped_responses=nova_responses,
    deep_kept_value=deep_kept_value,
)
"""The codec's own facts (``chatcodec.testing._laws.built_in.bedrock_nova``) and those of the recordings and SDK."""
