"""Stream metadata the earlier notes left open: per-chunk logprobs,
a cut-off server-tool block, a ``message_delta`` whose ``stop_reason`` is ``null``, and
(26(b)) a choice's and its message's bags on :class:`~chatcodec.ChoiceMetadataEvent`
through the decoders and encoders that have a place for them (the law over every provider
is ``tests/conformance/test_stream_choice_metadata.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec.streams._replay import events_from_response

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_per_chunk_logprobs_are_accumulated_as_the_non_streamed_choice_has_them() -> None:
    stream = (FIXTURES / "openai-chat" / "stream" / "content_logprobs.sse").read_text(encoding="utf-8")
    response = chatcodec.accumulate_stream("openai-chat", stream)
    assert [token.token for token in response.choices[0].logprobs or []] == ["Foo", "!"]
    assert response.choices[0].provider_metadata is None  # {"content": [...], "refusal": null}: all canonical
    events = list(chatcodec.decode_stream("openai-chat", stream))
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(events)
    assert accumulator.response() == response
    # encoded again, the logprobs stay on their chunks (none is repeated on the finish chunk)
    chunks = list(chatcodec.encode_stream("openai-chat", events, on_loss="error"))
    assert [chunk["choices"][0].get("logprobs") for chunk in chunks if chunk["choices"]][-1] is None
    assert list(chatcodec.decode_stream("openai-chat", chunks)) == events
    # and a response replayed as a stream carries them on its finish
    replayed = list(events_from_response(response))
    wire = list(chatcodec.encode_stream("openai-chat", replayed, on_loss="error"))
    assert chatcodec.accumulate_stream("openai-chat", wire) == response


def _anthropic_start() -> list[dict[str, Any]]:
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude", "content": []}
    usage = {"input_tokens": 5, "output_tokens": 1}
    return [
        {"type": "message_start", "message": {**message, "stop_reason": None, "stop_sequence": None, "usage": usage}}
    ]


SERVER_TOOL = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}


def test_anthropic_close_gives_a_cut_off_server_tool_block() -> None:
    stream = [
        *_anthropic_start(),
        {"type": "content_block_start", "index": 0, "content_block": SERVER_TOOL},
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": '{"query": "otters"}'},
        },
    ]
    response = chatcodec.accumulate_stream("anthropic", stream, partial=True)
    (part,) = response.choices[0].message.content
    assert isinstance(part, chatcodec.OpaquePart)
    assert part.data == {**SERVER_TOOL, "input": {"query": "otters"}}
    decoded = list(chatcodec.decode_stream("anthropic", stream, partial=True))
    assert decoded[-1] == chatcodec.PartEvent(index=0, part=part)
    # cut mid-JSON: the block as it started
    cut = [*stream[:-1], {**stream[-1], "delta": {"type": "input_json_delta", "partial_json": '{"que'}}]
    (part,) = chatcodec.accumulate_stream("anthropic", cut, partial=True).choices[0].message.content
    assert part.data == SERVER_TOOL  # type: ignore[union-attr]


def test_message_delta_with_null_stop_reason_keeps_its_other_fields() -> None:
    container = {"id": "container_1", "expires_at": "2026-11-22T15:00:00Z"}
    stream = [
        *_anthropic_start(),
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Working"}},
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": None, "stop_sequence": None, "container": container},
            "usage": {"output_tokens": 3},
        },
    ]
    response = chatcodec.accumulate_stream("anthropic", stream, partial=True)
    assert response.choices[0].finish_reason is None
    assert (response.provider_metadata or {})["anthropic"]["container"] == container
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(chatcodec.decode_stream("anthropic", stream, partial=True))
    assert accumulator.response() == response


# --- choice- and message-level metadata --------------------------------------------------

_CITATION = {
    "type": "url_citation",
    "url_citation": {"start_index": 0, "end_index": 6, "title": "Otters", "url": "https://example.com/otters"},
}


def _openai_chunk(choice: dict[str, Any]) -> dict[str, Any]:
    envelope = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o-search-preview"}
    return {**envelope, "choices": [{"index": 0, "logprobs": None, "finish_reason": None, **choice}]}


def _openai_search_stream() -> list[dict[str, Any]]:
    """A search model's stream: the citations come on the finish chunk's ``delta``."""
    return [
        _openai_chunk({"delta": {"role": "assistant", "content": ""}}),
        _openai_chunk({"delta": {"content": "Otters"}}),
        _openai_chunk({"delta": {"annotations": [_CITATION]}, "finish_reason": "stop"}),
    ]


def test_openai_finish_delta_fields_are_the_message_bag_as_the_body_has_them() -> None:
    stream = _openai_search_stream()
    response = chatcodec.accumulate_stream("openai-chat", stream)
    # the url citation is the text's (as the body reads it, issue 61); the rest of the delta is the message's bag
    [text] = response.choices[0].message.parts
    assert isinstance(text, chatcodec.TextPart)
    assert [(c.start_index, c.end_index, c.url) for c in text.citations] == [(0, 6, "https://example.com/otters")]
    assert response.choices[0].provider_metadata is None  # not a "delta" key in the choice's bag
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o-search-preview",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "Otters", "annotations": [_CITATION]},
                "finish_reason": "stop",
            }
        ],
    }
    whole = chatcodec.decode_response("openai-chat", body)
    assert response.choices[0].message.provider_metadata == whole.choices[0].message.provider_metadata
    events = list(chatcodec.decode_stream("openai-chat", stream))
    assert [event.type for event in events[-2:]] == ["text_end", "finish"]  # the citations on the text's end
    # encoded again: the citations go back on the finish chunk's delta, nothing lost
    chunks = list(chatcodec.encode_stream("openai-chat", events, on_loss="error"))
    assert chunks[-1]["choices"][0]["delta"] == {"annotations": [_CITATION]}
    assert list(chatcodec.decode_stream("openai-chat", chunks)) == events
    # and the body replayed as a stream gives the same
    replayed = list(chatcodec.encode_stream("openai-chat", events_from_response(whole), on_loss="error"))
    assert chatcodec.accumulate_stream("openai-chat", replayed).choices[0].message == response.choices[0].message


def test_openai_choice_data_with_no_finish_or_after_it_is_reported() -> None:
    text = [
        chatcodec.ResponseStartEvent(id="chatcmpl-1", model="m", created=1),
        chatcodec.TextStartEvent(index=0),
        chatcodec.TextDeltaEvent(index=0, delta="Otters"),
        chatcodec.TextEndEvent(index=0),
    ]
    data = chatcodec.ChoiceMetadataEvent(
        choice_metadata={"openai-chat": {"native_finish_reason": "STOP"}},
        message_metadata={"openai-chat": {"annotations": [_CITATION], "_nulls": ["refusal"]}},
    )
    losses: list[chatcodec.Loss] = []
    list(chatcodec.encode_stream("openai-chat", [*text, data], on_loss="ignore", losses=losses))
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$[4]", "openai-chat data ['annotations', 'native_finish_reason']")
    ]
    finish = chatcodec.FinishEvent(finish_reason=chatcodec.FinishReason(unified="stop"))
    losses = []
    list(chatcodec.encode_stream("openai-chat", [*text, finish, data], on_loss="ignore", losses=losses))
    assert sorted((loss.path, loss.what) for loss in losses) == [
        ("$[5].choice_metadata", "openai-chat data ['native_finish_reason']"),
        ("$[5].message_metadata", "openai-chat data ['annotations']"),
    ]


def _gemini_chunk(candidate: dict[str, Any]) -> dict[str, Any]:
    return {"candidates": [candidate], "modelVersion": "gemini-2.5-flash", "responseId": "r1"}


def test_gemini_candidate_fields_without_a_finish_reason_are_kept() -> None:
    citations = {"citations": [{"startIndex": 0, "endIndex": 6, "uri": "https://example.com/otters"}]}
    stream = [
        _gemini_chunk({"content": {"role": "model", "parts": [{"text": "Otters"}]}, "index": 0}),
        _gemini_chunk({"content": {"role": "model", "parts": [{"text": " swim"}]}, "citationMetadata": citations}),
    ]  # cut off: no finishReason ever came
    response = chatcodec.accumulate_stream("gemini", stream, partial=True)
    assert response.choices[0].finish_reason is None
    assert response.choices[0].provider_metadata == {"gemini": {"citationMetadata": citations}}
    events = list(chatcodec.decode_stream("gemini", stream, partial=True))
    assert chatcodec.ChoiceMetadataEvent(choice_metadata={"gemini": {"citationMetadata": citations}}) in events
    chunks = list(chatcodec.encode_stream("gemini", events, on_loss="error"))
    assert chatcodec.accumulate_stream("gemini", chunks, partial=True) == response


def test_gemini_content_fields_are_the_message_bag_streamed_or_not() -> None:
    """A ``content`` field Gemini may add (read tolerantly) is the message's, both ways."""
    content = {"role": "model", "parts": [{"text": "Otters"}], "futureField": {"x": 1}}
    stream = [_gemini_chunk({"content": content, "finishReason": "STOP", "index": 0})]
    streamed = chatcodec.accumulate_stream("gemini", stream)
    whole = chatcodec.decode_response("gemini", stream[0])
    assert streamed.choices[0].message.provider_metadata == {"gemini": {"futureField": {"x": 1}}}
    assert streamed.choices[0].message.provider_metadata == whole.choices[0].message.provider_metadata
    chunks = list(chatcodec.encode_stream("gemini", chatcodec.decode_stream("gemini", stream), on_loss="error"))
    assert chunks[-1]["candidates"][0]["content"]["futureField"] == {"x": 1}


def test_anthropic_encode_response_reports_a_choice_or_message_bag_of_its_own() -> None:
    """Anthropic's decoder keeps every message field on the response; a bag of its own on a
    choice or a message (written by hand) has no place, and was dropped unreported."""
    response = chatcodec.ChatResponse(
        choices=[
            chatcodec.ResponseChoice(
                message=chatcodec.AssistantMessage(content="hi", provider_metadata={"anthropic": {"x_trace": "m"}}),
                finish_reason=chatcodec.FinishReason(unified="stop"),
                provider_metadata={"anthropic": {"x_trace": "c"}},
            )
        ]
    )
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_response("anthropic", response, on_loss="ignore", losses=losses)
    assert [(loss.path, loss.what) for loss in losses if "x_trace" in loss.what] == [
        ("$.choices[0]", "anthropic data ['x_trace']"),
        ("$.choices[0].message", "anthropic data ['x_trace']"),
    ]
    losses = []
    list(chatcodec.encode_stream("anthropic", events_from_response(response), on_loss="ignore", losses=losses))
    assert sorted(loss.path for loss in losses if "x_trace" in loss.what) == ["$.choices[0]", "$.choices[0].message"]


def test_gemini_candidate_fields_nested_too_deep_are_a_stream_error_at_the_end() -> None:
    """The candidate fields are given at ``close()`` (with the finish, or on their own): a
    value nested past pydantic's depth limit is refused there as a chatcodec error, for
    the new ``ChoiceMetadataEvent`` too (the codec's guard around every decoder's close)."""
    deep: dict[str, Any] = {}
    for _ in range(300):
        deep = {"a": deep}
    for candidate in ({"finishReason": "STOP"}, {}):
        stream = [_gemini_chunk({"content": {"role": "model", "parts": [{"text": "hi"}]}, "x": deep, **candidate})]
        with pytest.raises(chatcodec.StreamError, match="recursion"):
            list(chatcodec.decode_stream("gemini", stream))


def test_a_bag_field_the_wire_reads_as_the_answer_does_not_change_it() -> None:
    """A hand-written message bag with ``content`` (OpenAI) or ``parts`` and a choice bag with
    ``index`` (Gemini): on the finish chunk's delta or the candidate they would add to the
    answer or move it, so the answer's own fields win, as in ``encode_response``."""
    text = chatcodec.TextPart(text="Otters")
    stop = chatcodec.FinishReason(unified="stop")
    openai = chatcodec.ChatResponse(  # named and dated: nothing a chunk requires is invented
        id="c1",
        model="m",
        created=1,
        message=chatcodec.AssistantMessage(content=[text], provider_metadata={"openai-chat": {"content": "sneaky"}}),
        finish_reason=stop,
    )
    losses: list[chatcodec.Loss] = []
    wire = list(chatcodec.encode_stream("openai-chat", events_from_response(openai), on_loss="ignore", losses=losses))
    assert chatcodec.accumulate_stream("openai-chat", wire).message.text == "Otters"
    assert [loss.what for loss in losses] == ["openai-chat data ['content']"]
    gemini = chatcodec.ChatResponse(
        choices=[
            chatcodec.ResponseChoice(
                message=chatcodec.AssistantMessage(content=[text], provider_metadata={"gemini": {"parts": []}}),
                finish_reason=stop,
                provider_metadata={"gemini": {"index": 5, "finishMessage": "done"}},
            )
        ]
    )
    wire = list(chatcodec.encode_stream("gemini", events_from_response(gemini), on_loss="error"))
    streamed = chatcodec.accumulate_stream("gemini", wire)
    assert streamed.choices[0].index == 0
    assert streamed.message.text == "Otters"
    assert streamed.choices[0].provider_metadata == {"gemini": {"finishMessage": "done"}}


def test_gemini_candidate_fields_after_the_finish_reason_are_kept() -> None:
    """The finish is given at the end (a trailing chunk may still sign the last part), so a
    candidate field on a chunk after the ``finishReason`` joins the choice's bag too."""
    citations = {"citations": [{"startIndex": 0, "endIndex": 6, "uri": "https://example.com/otters"}]}
    stream = [
        _gemini_chunk({"content": {"role": "model", "parts": [{"text": "Otters"}]}, "finishReason": "STOP"}),
        _gemini_chunk({"content": {"role": "model", "parts": [{"text": ""}]}, "citationMetadata": citations}),
    ]
    response = chatcodec.accumulate_stream("gemini", stream)
    assert (response.choices[0].provider_metadata or {})["gemini"]["citationMetadata"] == citations
    assert response.choices[0].finish_reason == chatcodec.FinishReason(unified="stop", raw="STOP")
