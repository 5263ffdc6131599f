"""Converse responses and ConverseStream events: stop reasons, usage without double
counting, error bodies and exception events, padding, and what a stream writes."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._registry import get_codec
from chatcodec.streams._replay import events_from_response
from providers.bedrock_converse.bedrock_support import assert_valid_response, assert_valid_stream

PROVIDER = "bedrock-converse"

METRICS = "$.provider_metadata['bedrock-converse'].metrics"
"""Where an invented ``metrics.latencyMs: 0`` is reported: where a Converse answer's metrics are kept."""


def _body(**fields: Any) -> dict[str, Any]:
    message = {"role": "assistant", "content": [{"text": "hi"}]}
    usage = {"inputTokens": 3, "outputTokens": 5, "totalTokens": 8}
    return {
        "output": {"message": message},
        "stopReason": "end_turn",
        "usage": usage,
        "metrics": {"latencyMs": 9},
    } | fields


@pytest.mark.parametrize(
    ("raw", "unified"),
    [
        ("guardrail_intervened", "content_filter"),
        ("content_filtered", "content_filter"),
        ("malformed_tool_use", "error"),
        ("malformed_model_output", "error"),
        ("model_context_window_exceeded", "length"),
        ("max_tokens", "length"),
    ],
)
def test_stop_reasons_keep_their_word_and_do_not_collapse(raw: str, unified: str) -> None:
    response = chatcodec.decode_response(PROVIDER, _body(stopReason=raw))
    assert response.finish_reason == chatcodec.FinishReason(unified=unified, raw=raw)  # type: ignore[arg-type]
    assert chatcodec.encode_response(PROVIDER, response, on_loss="error")["stopReason"] == raw


def test_a_finish_reason_bedrock_has_no_word_for_is_reported() -> None:
    response = chatcodec.decode_response(PROVIDER, _body())
    choice = response.choices[0].model_copy(update={"finish_reason": chatcodec.FinishReason(unified="pause")})
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_response(
        PROVIDER, response.model_copy(update={"choices": [choice]}), on_loss="ignore", losses=losses
    )
    assert body["stopReason"] == "end_turn"
    assert [loss.path for loss in losses] == ["$.choices[0].finish_reason"]


def test_usage_counts_the_cache_once() -> None:
    """Recorded: inputTokens 3 + cacheRead 1712 + cacheWrite 236 + output 121 = total 2072."""
    usage = {
        "inputTokens": 3,
        "outputTokens": 121,
        "totalTokens": 2072,
        "cacheReadInputTokens": 1712,
        "cacheWriteInputTokens": 236,
        "cacheReadInputTokenCount": 1712,
        "cacheWriteInputTokenCount": 236,
    }
    response = chatcodec.decode_response(PROVIDER, _body(usage=usage))
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (1951, 121)
    assert (response.usage.cache_read_tokens, response.usage.cache_write_tokens) == (1712, 236)
    assert response.usage.total_tokens == 2072
    assert chatcodec.encode_response(PROVIDER, response, on_loss="error")["usage"] == usage


def test_usage_from_another_provider_is_written_as_bedrock_counts_it() -> None:
    usage = chatcodec.Usage(input_tokens=100, output_tokens=7, cache_read_tokens=60, reasoning_tokens=2)
    finished = chatcodec.FinishReason(unified="stop")
    response = chatcodec.ChatResponse(
        message=chatcodec.AssistantMessage(content="x"), usage=usage, finish_reason=finished
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_response(PROVIDER, response, on_loss="ignore", losses=losses)
    assert body["usage"] == {"inputTokens": 40, "outputTokens": 7, "totalTokens": 107, "cacheReadInputTokens": 60}
    # and the latency botocore requires, which the answer never measured
    assert [loss.path for loss in losses] == ["$.usage.reasoning_tokens", METRICS]
    assert_valid_response(body)


def test_an_error_body_raises_the_providers_message() -> None:
    with pytest.raises(chatcodec.ProviderAPIError, match="doesn't support the s3Uri field"):
        chatcodec.decode_response(PROVIDER, {"message": "This model doesn't support the s3Uri field."})


def test_bad_input_names_the_wire_path() -> None:
    body = _body()
    body["output"]["message"]["content"] = [{"toolUse": {"toolUseId": 5, "name": "f", "input": {}}}]
    with pytest.raises(chatcodec.ValidationError, match=r"output\.message\.content\[0\]\.toolUse\.toolUseId"):
        chatcodec.decode_response(PROVIDER, body)


# --- streams ---------------------------------------------------------------------------------


def _events(*events: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"messageStart": {"role": "assistant", "p": "abc"}}, *events]


def test_padding_is_read_and_dropped() -> None:
    events = _events(
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "a"}, "p": "abcdef"}},
        {"messageStop": {"stopReason": "end_turn", "p": "ab"}},
    )
    response = chatcodec.accumulate_stream(PROVIDER, events)
    assert response.provider_metadata is None
    assert response.choices[0].message.parts == [chatcodec.TextPart(text="a")]


def test_exception_events_are_error_events() -> None:
    events = _events({"throttlingException": {"message": "Too many requests"}})
    decoded = list(chatcodec.decode_stream(PROVIDER, events))
    error = decoded[-1]
    assert isinstance(error, chatcodec.ErrorEvent)
    assert (error.message, error.error_type) == ("Too many requests", "throttlingException")
    with pytest.raises(chatcodec.ProviderAPIError, match="Too many requests"):
        chatcodec.accumulate_stream(PROVIDER, events)
    wire = list(chatcodec.encode_stream(PROVIDER, decoded, on_loss="error"))
    assert wire[-1] == {"throttlingException": {"message": "Too many requests"}}


def test_a_stream_from_another_provider_writes_what_botocore_requires() -> None:
    response = chatcodec.ChatResponse(
        message=chatcodec.AssistantMessage(
            content=[
                chatcodec.TextPart(text="Calling."),
                chatcodec.ToolUsePart(id="functions.get:0", name="get", arguments='{"a": 1}'),
            ]
        ),
        finish_reason=chatcodec.FinishReason(unified="tool_calls", raw="tool_calls"),
        usage=chatcodec.Usage(input_tokens=10, output_tokens=3),
    )
    losses: list[chatcodec.Loss] = []
    wire = list(chatcodec.encode_stream(PROVIDER, events_from_response(response), on_loss="ignore", losses=losses))
    assert [(loss.path, loss.what, loss.kind) for loss in losses] == [
        (METRICS, "invented metrics.latencyMs", "default")
    ]
    assert_valid_stream(wire)
    assert [next(iter(event)) for event in wire] == [
        "messageStart",
        "contentBlockDelta",
        "contentBlockStop",
        "contentBlockStart",
        "contentBlockDelta",
        "contentBlockStop",
        "messageStop",
        "metadata",
    ]
    assert wire[-1]["metadata"]["metrics"] == {"latencyMs": 0}
    assert wire[3]["contentBlockStart"]["start"]["toolUse"]["toolUseId"] == "functions.get:0"
    assert chatcodec.accumulate_stream(PROVIDER, wire).choices[0].message.parts == response.choices[0].message.parts


def test_a_text_part_without_deltas_survives_as_an_empty_delta() -> None:
    response = chatcodec.ChatResponse(
        message=chatcodec.AssistantMessage(content=[chatcodec.TextPart(text="")]),
        finish_reason=chatcodec.FinishReason(unified="stop"),
    )
    wire = list(chatcodec.encode_stream(PROVIDER, events_from_response(response), on_loss="error"))
    assert wire[1] == {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": ""}}}
    assert chatcodec.accumulate_stream(PROVIDER, wire).choices[0].message.parts == [chatcodec.TextPart(text="")]


def test_another_providers_signature_is_not_streamed() -> None:
    thinking = chatcodec.ThinkingPart(text="hm", signature="sig", provider="openai-responses")
    response = chatcodec.ChatResponse(message=chatcodec.AssistantMessage(content=[thinking]))
    losses: list[chatcodec.Loss] = []
    wire = list(chatcodec.encode_stream(PROVIDER, events_from_response(response), on_loss="ignore", losses=losses))
    assert all("signature" not in json.dumps(event) for event in wire)
    assert [loss.path for loss in losses] == ["$.content[0].signature"]


def test_to_sse_writes_json_lines_that_decode_back() -> None:
    codec = get_codec(PROVIDER)
    events = list(codec.decode_stream(_events({"messageStop": {"stopReason": "end_turn"}})))
    text = "".join(chatcodec.to_sse("bedrock-converse", codec.encode_stream(events, LossRecorder())))
    assert text.splitlines()[0] == '{"messageStart":{"role":"assistant"}}'
    assert list(chatcodec.decode_stream(PROVIDER, text)) == events


def _nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"a": 1}
    for _ in range(depth):
        value = {"a": value}
    return value


def test_a_finish_refusing_a_kept_value_at_the_streams_end_is_a_stream_error() -> None:
    """The finish is built at ``close()`` from ``messageStop``'s kept fields: a value
    nested past pydantic-core's limit there raised a bare pydantic error (found by the long
    fuzz run). Every provider's decoder is wrapped by the same guard."""
    events = [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "hi"}}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {"messageStop": {"stopReason": "end_turn", "x": _nested(1200)}},
    ]
    with pytest.raises(chatcodec.StreamError) as caught:
        list(chatcodec.decode_stream("bedrock-converse", events))
    assert caught.value.event_index == 3
    assert "recursion_depth_exceeded" in str(caught.value)


def test_tool_input_fragments_that_are_not_json_name_the_delta_events_path() -> None:
    """A block kept whole (a ``toolUse`` start without its id and name) has its input
    fragments parsed when it stops: the error names where they were, the
    ``contentBlockDelta`` events (it named ``$.contentBlockStop.delta...``, a place no event
    has; found by the long fuzz run)."""
    events = [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockStart": {"contentBlockIndex": 0, "start": {"toolUse": {"type": "text"}}}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": '{"a": 1} x'}}}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
    ]
    with pytest.raises(chatcodec.StreamError) as caught:
        list(chatcodec.decode_stream("bedrock-converse", events))
    assert caught.value.path == "$.contentBlockDelta.delta.toolUse.input"


def test_a_redacted_block_with_other_deltas_names_the_delta_events_path() -> None:
    """Judged when the block stops, like a whole block's input (found by the long fuzz run)."""
    events = [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"reasoningContent": {"redactedContent": "QUJD"}}}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"reasoningContent": {"_redactedContent": "QUJD"}}}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
    ]
    with pytest.raises(chatcodec.StreamError) as caught:
        list(chatcodec.decode_stream("bedrock-converse", events))
    assert caught.value.path == "$.contentBlockDelta.delta.reasoningContent"


@pytest.mark.parametrize("twins", [[["x"]], [{"a": 1}], "cacheReadInputTokenCount", [None, 3]])
def test_a_count_twins_marker_holding_other_json_is_passed_over(twins: object) -> None:
    """A bag comes from the caller too: a list in ``_count_twins`` raised TypeError
    (unhashable) deep in the usage encoder (found by the long fuzz run)."""
    response = chatcodec.validate_model(
        chatcodec.ChatResponse,
        {
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}}],
            "usage": {
                "input_tokens": 5,
                "output_tokens": 1,
                "provider_metadata": {"bedrock-converse": {"_count_twins": twins}},
            },
        },
    )
    body = chatcodec.encode_response("bedrock-converse", response, on_loss="ignore")
    assert body["usage"]["inputTokens"] == 5
    assert "cacheReadInputTokenCount" not in body["usage"]


def test_usage_counts_written_as_zero_because_bedrock_requires_them_are_reported() -> None:
    """botocore requires ``inputTokens``, ``outputTokens`` and ``totalTokens``: a response
    without usage gets zeros, which read back as counts the answer never had (a default)."""
    response = chatcodec.ChatResponse(
        choices=[
            chatcodec.ResponseChoice(
                index=0,
                message=chatcodec.AssistantMessage(content="hi"),
                finish_reason=chatcodec.FinishReason(unified="stop"),
            )
        ]
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_response("bedrock-converse", response, on_loss="ignore", losses=losses)
    assert body["usage"] == {"inputTokens": 0, "outputTokens": 0, "totalTokens": 0}
    assert [(loss.path, loss.kind) for loss in losses] == [("$.usage", "default"), (METRICS, "default")]


def test_an_answers_reasoning_from_another_provider_is_reported_as_read_back_as_bedrocks() -> None:
    response = chatcodec.ChatResponse(
        choices=[
            chatcodec.ResponseChoice(
                index=0,
                message=chatcodec.AssistantMessage(
                    content=[chatcodec.ThinkingPart(text="hmm", provider="openai-responses")]
                ),
                finish_reason=chatcodec.FinishReason(unified="stop"),
            )
        ],
        usage=chatcodec.Usage(input_tokens=1, output_tokens=1),
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_response("bedrock-converse", response, on_loss="ignore", losses=losses)
    assert body["output"]["message"]["content"] == [{"reasoningContent": {"reasoningText": {"text": "hmm"}}}]
    assert [(loss.what, loss.kind) for loss in losses] == [
        ("thinking part from openai-responses", "metadata"),
        ("invented metrics.latencyMs", "default"),  # botocore requires it; no answer from elsewhere has it
    ]


@pytest.mark.parametrize("provider", ["bedrock-converse", "bedrock-nova"])
def test_a_member_of_message_stop_the_codec_does_not_know_is_written_back_on_it(provider: str) -> None:
    """AWS adds members to its events: one on ``messageStop`` (read into the finish's bag)
    is written back on ``messageStop``, not dropped, as one on ``messageStart`` is on its event."""
    events: list[dict[str, Any]] = [
        {"messageStart": {"role": "assistant", "startNote": 1}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "a"}}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {"messageStop": {"stopReason": "end_turn", "stopNote": {"b": 2}}},
    ]
    if provider == "bedrock-nova":  # read as InvokeModelWithResponseStream's chunks of the same events
        events = [{"chunk": {"bytes": base64.b64encode(json.dumps(event).encode()).decode()}} for event in events]
    decoded = list(chatcodec.decode_stream(provider, events))
    wire = list(chatcodec.encode_stream(provider, decoded, on_loss="error"))
    assert {"messageStart": {"role": "assistant", "startNote": 1}} in wire
    assert {"messageStop": {"stopReason": "end_turn", "stopNote": {"b": 2}}} in wire
