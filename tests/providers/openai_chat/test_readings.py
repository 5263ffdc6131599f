"""Readings chatcodec used to refuse or misread (issue 10, items 8-11): what OpenAI-format
traffic from OpenRouter, litellm and older OpenAI clients looks like, read and written back."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import StreamError

FORMAT = "openai-chat"


def chunk(*choices: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": list(choices),
        **fields,
    }


def delta(finish_reason: str | None = None, **fields: Any) -> dict[str, Any]:
    return {"index": 0, "delta": fields, "finish_reason": finish_reason}


USAGE = {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}


# --- item 11: benign repetitions in a stream -----------------------------------------------


def test_item11_finish_reason_repeated_on_trailing_usage_chunk_streams_fine() -> None:
    stream = [
        chunk(delta(role="assistant", content="Hi")),
        chunk({**delta("stop", role="assistant", content="!"), "native_finish_reason": "stop"}),
        chunk({**delta("stop", role="assistant", content=""), "native_finish_reason": "stop"}, usage=USAGE),
    ]
    response = chatcodec.accumulate_stream(FORMAT, stream)
    dumped = response.model_dump(mode="json", exclude_none=True)
    assert dumped["choices"][0]["message"]["content"] == [{"type": "text", "text": "Hi!"}]
    assert dumped["choices"][0]["finish_reason"] == {"unified": "stop", "raw": "stop"}
    assert dumped["usage"] == {"input_tokens": 3, "output_tokens": 2}
    events = list(chatcodec.decode_stream(FORMAT, stream))
    assert [event.type for event in events].count("finish") == 1
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(events)
    assert accumulator.response() == response


def test_item11_same_role_id_and_model_again_stream_fine() -> None:
    stream = [
        chunk(delta(role="assistant", content="a")),
        chunk(delta(role="assistant", content="b")),
        chunk(delta("stop", role="assistant")),
    ]
    response = chatcodec.accumulate_stream(FORMAT, stream)
    assert (response.id, response.model) == ("c1", "m")
    assert response.model_dump(mode="json")["choices"][0]["message"]["content"] == [{"type": "text", "text": "ab"}]


def test_item11_new_choice_fields_on_a_repeated_finish_are_kept() -> None:
    stream = [chunk(delta("stop", content="a")), chunk({**delta("stop"), "native_finish_reason": "end_turn"})]
    response = chatcodec.accumulate_stream(FORMAT, stream)
    assert response.choices[0].provider_metadata == {FORMAT: {"native_finish_reason": "end_turn"}}


@pytest.mark.parametrize(
    ("stream", "message"),
    [
        (
            [chunk(delta("stop", content="a")), chunk(delta("length"), usage=USAGE)],
            "$.choices[0].finish_reason: choice 0 finished again with 'length' after 'stop'",
        ),
        (
            [chunk(delta("stop", content="a")), chunk(delta("stop", content="more"))],
            "$.choices[0].delta: choice 0 continues after its finish_reason",
        ),
        (
            [chunk(delta(role="assistant", content="a")), chunk(delta(role="user", content="b"))],
            "$.choices[0].delta.role: choice 0 changed its role from 'assistant' to 'user'",
        ),
    ],
)
def test_item11_conflicting_repetition_is_still_an_error(stream: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(StreamError) as accumulated:
        chatcodec.accumulate_stream(FORMAT, stream)
    with pytest.raises(StreamError) as decoded:
        list(chatcodec.decode_stream(FORMAT, stream))
    assert message in str(accumulated.value)
    assert str(accumulated.value) == str(decoded.value)
