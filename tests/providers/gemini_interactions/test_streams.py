"""Interactions streams (the steps schema's SSE events, https://ai.google.dev/gemini-api/docs/interactions/streaming):
decoded and accumulated on the one stream path, written back, every event written parsing as
google-genai 3.6.1's ``InteractionSSEEvent``, and a cut stream refused (or read in part)."""

from __future__ import annotations

import copy

import pytest

from chatcodec import StreamError, to_sse
from providers.gemini_interactions.interactions_support import (
    CODEC,
    accumulated,
    encoded_stream,
    sdk_checked,
    write_response,
)
from providers.gemini_interactions.recorded_shapes import INTERACTION, STREAM


def test_a_stream_accumulates_to_the_answer_it_streamed() -> None:
    response = accumulated(copy.deepcopy(STREAM))
    choice = response.choices[0]
    assert [part.type for part in choice.message.parts] == ["thinking", "text", "tool_use"]
    thinking, text, call = (part.model_dump() for part in choice.message.parts)
    assert (thinking["text"], thinking["signature"]) == ("Hm.", "c2ln")
    assert text["text"] == "1, 2, 3"
    assert (call["id"], call["arguments"]) == ("call_3", '{"to":25}')
    assert choice.finish_reason is not None
    assert choice.finish_reason.raw == "requires_action"
    assert response.usage is not None
    assert (response.usage.output_tokens, response.usage.reasoning_tokens) == (9, 2)


def test_a_written_stream_parses_with_the_sdk_and_reads_back_the_same() -> None:
    response = accumulated(copy.deepcopy(STREAM))
    events, losses = encoded_stream(response)
    assert losses == []
    assert [event["event_type"] for event in events][:2] == ["interaction.created", "step.start"]
    assert events[-1]["event_type"] == "interaction.completed"
    for event in events:
        sdk_checked("InteractionSSEEvent", event)
    assert accumulated(events) == response


def test_a_stream_and_the_interaction_it_ends_with_say_the_same() -> None:
    """The recorded Interaction, replayed as events and read back, is the Interaction."""
    response = CODEC.decode_response(copy.deepcopy(INTERACTION))
    events, _ = encoded_stream(response)
    streamed = accumulated(events)
    assert write_response(streamed.model_dump())[0]["steps"] == INTERACTION["steps"]


def test_the_sse_names_each_event_by_its_event_type() -> None:
    """``event: step.delta`` before each ``data:`` line, as the streaming guide's REST example shows."""
    text = "".join(to_sse("gemini-interactions", copy.deepcopy(STREAM[:2])))
    assert text.startswith("event: interaction.created\ndata: {")
    assert "\n\nevent: interaction.status_update\ndata: {" in text


def test_a_cut_stream_is_refused_and_read_in_part_when_asked() -> None:
    cut = copy.deepcopy(STREAM[:8])  # ends inside the text step
    with pytest.raises(StreamError, match=r"interaction\.completed"):
        accumulated(cut)
    partial = accumulated(cut, partial=True)
    assert [part.type for part in partial.choices[0].message.parts] == ["thinking", "text"]


def test_an_error_event_ends_the_stream_with_the_apis_error() -> None:
    events = [
        *copy.deepcopy(STREAM[:3]),
        {"event_type": "error", "error": {"code": "RESOURCE_EXHAUSTED", "message": "quota"}},
    ]
    with pytest.raises(Exception, match="quota"):
        accumulated(events)


def test_a_bad_event_names_its_place() -> None:
    events = [
        copy.deepcopy(STREAM[0]),
        {"event_type": "step.delta", "index": -1, "delta": {"type": "text", "text": "x"}},
    ]
    with pytest.raises(StreamError) as caught:
        accumulated(events)
    assert "index" in str(caught.value)


@pytest.mark.parametrize(
    "message",
    [
        {"role": "assistant", "content": ""},
        {"role": "assistant", "content": [{"type": "refusal", "text": ""}]},
        {"role": "assistant", "content": [{"type": "opaque", "provider": "acme", "data": {}}]},
    ],
    ids=["empty text", "empty refusal", "foreign part"],
)
def test_an_answer_saying_nothing_is_written_as_no_step_in_a_body_and_in_a_stream(message: dict[str, object]) -> None:
    """Found by the provider laws (generated_response_streams_as_it_encodes): a stream of such
    an answer sends no step, so its body holds none either (not an empty model_output)."""
    answer = {"choices": [{"index": 0, "message": message, "finish_reason": {"unified": "stop"}}]}
    body, _ = write_response(answer)
    assert body == {"status": "completed", "steps": []}
    whole = CODEC.decode_response(body)
    events, _ = encoded_stream(whole)
    assert accumulated(events) == whole


def test_the_interactions_own_fields_stream_on_its_created_event_and_a_choice_bag_is_reported() -> None:
    """Found by the provider laws (law_stream_metadata): an Interaction's fields without a
    canonical home (``object``, ``created``) ride on the stream's start, ``interaction.created``
    (where a recorded stream has them: law_recordings re-encodes one exactly), and read back
    as in a body; an answer's own choice data has no place on this wire, so it is reported, in
    a body and a stream."""
    response = CODEC.decode_response(copy.deepcopy(INTERACTION))
    events, _ = encoded_stream(response)
    assert events[0]["interaction"]["created"] == INTERACTION["created"]
    assert accumulated(events).provider_metadata == response.provider_metadata
    bagged = response.model_copy(
        update={
            "choices": [response.choices[0].model_copy(update={"provider_metadata": {"gemini-interactions": {"x": 1}}})]
        }
    )
    _, body_losses = write_response(bagged.model_dump())
    _, stream_losses = encoded_stream(bagged)
    assert [loss.path for loss in body_losses] == ["$.choices[0]"]
    assert len(stream_losses) == 1


def test_an_empty_text_with_data_is_no_step_and_its_data_is_reported() -> None:
    """Found by the provider laws: an empty text holding another provider's data writes no step
    (as its stream sends none), and the data is reported, not dropped unasked."""
    answer = {
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": [{"type": "text", "text": "", "provider_metadata": {"openai": {"x": 1}}}],
                },
                "finish_reason": {"unified": "stop"},
            }
        ]
    }
    body, losses = write_response(answer)
    assert body["steps"] == []
    assert [loss.path for loss in losses] == ["$.choices[0].message.content[0]"]


def test_a_signature_delta_on_a_call_step_is_kept_in_the_calls_bag_both_ways() -> None:
    """Only a thought step documents a signature; one streamed on a ``function_call`` step (the
    stream law's find: ``decode_stream`` refused it as a signature for a tool_use part, the
    accumulator put it on the part, which the model refused) is the call's, in its bag, whichever
    way the stream is read, reported where a format has no field for it and written back home."""
    import chatcodec

    events = [
        {"event_type": "interaction.created", "interaction": {"id": "i1", "status": "in_progress"}},
        {
            "event_type": "step.start",
            "index": 0,
            "step": {"type": "function_call", "id": "c1", "name": "f", "arguments": {}},
        },
        {"event_type": "step.delta", "index": 0, "delta": {"type": "thought_signature", "signature": "s"}},
        {"event_type": "step.delta", "index": 0, "delta": {"type": "thought_signature", "signature": "ig"}},
        {"event_type": "interaction.completed", "interaction": {"id": "i1", "status": "requires_action"}},
    ]
    accumulated = chatcodec.accumulate_stream("gemini-interactions", events)
    decoded = chatcodec.StreamAccumulator()
    decoded.extend(chatcodec.decode_stream("gemini-interactions", events))
    assert decoded.response() == accumulated
    call = accumulated.choices[0].message.content[0]
    assert (call.type, call.provider_metadata) == ("tool_use", {"gemini-interactions": {"signature": "sig"}})
    body = chatcodec.encode_response("gemini-interactions", accumulated)
    assert body["steps"][0]["signature"] == "sig"
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_response(
        body, source="gemini-interactions", target="openai-chat", on_loss="ignore", losses=losses
    )
    assert [loss.path for loss in losses if "signature" in str(loss)] == ["$.choices[0].message.content[0]"]
