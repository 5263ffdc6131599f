"""What the conformance laws need to know about bedrock-converse: its :data:`ENTRY`, collected by
``tests/conformance/providers.py``.

The oracles are botocore's ``ParamValidator`` on the ``bedrock-runtime`` service model
(``_providers/bedrock_converse/bedrock_support.py``). botocore has no stream accumulator,
so each recorded stream pairs with :func:`reference_accumulation`: the ``Converse`` body
the events stand for, built here by the rules the AWS documentation gives (deltas of one
``contentBlockIndex`` concatenate; ``toolUse.input`` fragments are JSON text; the stop
reason and usage come from ``messageStop`` and ``metadata``), independently of the codec.
The codec's own facts (its documented rewrites, single-hop normal form, marker requests) are
its ``chatcodec.laws`` entry's (``chatcodec.testing._laws.built_in.bedrock_converse``).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import strategies as st

import chatcodec
from chatcodec.testing._laws.built_in import bedrock_converse
from chatcodec.testing._laws.entry import ProviderEntry, StreamPair
from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.normal_forms import with_compact_arguments, without_spelling_markers
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


def deep_kept_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    """``messageStart`` keeps its unknown members: ``value`` goes into the first event's."""
    first = {**events[0], "messageStart": {**events[0]["messageStart"], "x_extension": value}}
    return [first, *events[1:]], 0


ENTRY = bedrock_converse.entry(
    fixtures=recordings_of("bedrock-converse"),
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
    deep_kept_value=deep_kept_value,
    for_sdk=for_sdk,
)
"""The codec's own facts (``chatcodec.testing._laws.built_in.bedrock_converse``) and those of the
recordings and SDK."""
