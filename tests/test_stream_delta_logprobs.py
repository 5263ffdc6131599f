"""Token log probabilities arrive per text delta in a stream, as the providers stream them.

Built from the providers' documentation and SDK types:

- OpenAI Chat (``ChatCompletionChunk``): each chunk's ``choices[].logprobs`` is a
  ``ChoiceLogprobs`` (``content``: the chunk's own ``ChatCompletionTokenLogprob`` entries,
  ``refusal``), the non-streamed choice's ``logprobs`` holding all of them;
- Responses (``ResponseTextDeltaEvent.logprobs``: ``Logprob`` of ``token``, ``logprob``,
  ``top_logprobs`` of ``token``/``logprob``, no ``bytes``; ``ResponseTextDoneEvent`` the
  same for the whole part; ``ResponseOutputText.logprobs`` the part's with ``bytes``);
- Ollama (``api.ChatResponse.Logprobs`` on each streamed line, the body's joined).

A client reading a stream sees each delta's tokens with its text, the accumulated answer's
tokens equal the non-streamed body's, a same-format trip is exact, and a format with no
logprobs reports them once.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.responses import (
    ResponseContentPartDoneEvent,
    ResponseOutputItemDoneEvent,
    ResponseTextDeltaEvent,
    ResponseTextDoneEvent,
)

import chatcodec
from chatcodec import FinishEvent, TextDeltaEvent

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "openai-responses" / "response" / "output_text_logprobs.json"
RECORDED: dict[str, Any] = json.loads(FIXTURE.read_text())
"""pydantic-ai's cassette of the live Responses API with ``message.output_text.logprobs``."""

_BASE = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1727346173, "model": "gpt-4o"}


def _token(text: str, logprob: float, *alternatives: tuple[str, float]) -> dict[str, Any]:
    """A ``ChatCompletionTokenLogprob`` as OpenAI writes it: every key, ``bytes`` its UTF-8."""
    top = [{"token": alt, "logprob": value, "bytes": list(alt.encode())} for alt, value in alternatives]
    return {"token": text, "logprob": logprob, "bytes": list(text.encode()), "top_logprobs": top}


PIECES = [
    [_token("The", -0.01, ("A", -4.5))],
    [_token(" capital", -0.2, (" city", -2.0)), _token(" is", -0.0)],
    [_token(" Belo", -0.5), _token(" Horizonte", -0.1), _token(".", -0.0)],
]
"""Three chunks' tokens; the second and third carry several tokens, as a server batching
tokens into one chunk does."""
TEXT = "".join(token["token"] for piece in PIECES for token in piece)


def _chat_chunks(pieces: list[list[dict[str, Any]]] = PIECES) -> list[dict[str, Any]]:
    opening = {"index": 0, "delta": {"role": "assistant", "content": ""}, "logprobs": None, "finish_reason": None}
    chunks: list[dict[str, Any]] = [{**_BASE, "choices": [opening]}]
    for piece in pieces:
        text = "".join(token["token"] for token in piece)
        choice: dict[str, Any] = {
            "index": 0,
            "delta": {"content": text},
            "logprobs": {"content": piece, "refusal": None},
            "finish_reason": None,
        }
        chunks.append({**_BASE, "choices": [choice]})
    chunks.append({**_BASE, "choices": [{"index": 0, "delta": {}, "logprobs": None, "finish_reason": "stop"}]})
    for chunk in chunks:
        ChatCompletionChunk.model_validate(chunk)
    return chunks


def _chat_body(pieces: list[list[dict[str, Any]]] = PIECES) -> dict[str, Any]:
    tokens = [token for piece in pieces for token in piece]
    text = "".join(token["token"] for token in tokens)
    body = {
        **_BASE,
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text, "refusal": None},
                "logprobs": {"content": tokens, "refusal": None},
                "finish_reason": "stop",
            }
        ],
    }
    ChatCompletion.model_validate(body)
    return body


def _dumped(events: list[Any]) -> list[dict[str, Any]]:
    return [event.model_dump(mode="json") for event in events]


def _delta_tokens(events: list[Any]) -> list[list[str]]:
    return [[token.token for token in event.logprobs or ()] for event in events if isinstance(event, TextDeltaEvent)]


def _all_tokens(events: list[Any]) -> list[tuple[str, float]]:
    """Every token the stream carries, deltas' then finish's, in order."""
    found: list[tuple[str, float]] = []
    for event in events:
        if isinstance(event, TextDeltaEvent | FinishEvent):
            found.extend((token.token, token.logprob) for token in event.logprobs or ())
    return found


EXPECTED = [(token["token"], token["logprob"]) for piece in PIECES for token in piece]


# --- OpenAI Chat -----------------------------------------------------------------------------


def test_a_chat_chunks_tokens_are_its_text_deltas() -> None:
    events = list(chatcodec.decode_stream("openai-chat", _chat_chunks()))
    assert _delta_tokens(events) == [[token["token"] for token in piece] for piece in PIECES]
    finish = next(event for event in events if isinstance(event, FinishEvent))
    assert finish.logprobs is None  # every token already came with its text
    assert all(event.provider_metadata is None for event in events if isinstance(event, TextDeltaEvent))


def test_the_accumulated_chat_answer_has_the_bodys_tokens() -> None:
    streamed = chatcodec.accumulate_stream("openai-chat", _chat_chunks())
    body = chatcodec.decode_response("openai-chat", _chat_body())
    assert streamed.choices[0].logprobs == body.choices[0].logprobs
    via_events = chatcodec.StreamAccumulator()
    for event in chatcodec.decode_stream("openai-chat", _chat_chunks()):
        via_events.add(event)
    assert via_events.response().choices[0].logprobs == body.choices[0].logprobs


def test_chat_to_chat_is_exact_and_writes_each_chunks_tokens_on_it() -> None:
    events = list(chatcodec.decode_stream("openai-chat", _chat_chunks()))
    wire = list(chatcodec.encode_stream("openai-chat", events, on_loss="error"))
    for chunk in wire:
        ChatCompletionChunk.model_validate(chunk)
    carried = [chunk["choices"][0].get("logprobs") for chunk in wire if chunk["choices"][0]["delta"].get("content")]
    assert carried == [{"content": piece, "refusal": None} for piece in PIECES]
    assert _dumped(list(chatcodec.decode_stream("openai-chat", wire))) == _dumped(events)


def test_a_chunk_with_tokens_and_no_text_keeps_them_for_the_finish_and_the_order_holds() -> None:
    chunks = _chat_chunks()
    early = copy.deepcopy(chunks[0])
    early["choices"][0]["logprobs"] = {"content": [_token("", -0.3)], "refusal": None}
    chunks[0] = early
    events = list(chatcodec.decode_stream("openai-chat", chunks))
    assert _delta_tokens(events) == [[], [], []]  # a token before the text: the rest follow it to the finish
    assert _all_tokens(events) == [("", -0.3), *EXPECTED]
    streamed = chatcodec.accumulate_stream("openai-chat", chunks)
    assert [token.token for token in streamed.choices[0].logprobs or ()] == ["", *(t for t, _ in EXPECTED)]


def test_a_refusals_tokens_stay_as_the_chunk_spelt_them() -> None:
    """``logprobs.refusal`` has no canonical field (the choice's tokens are its text's):
    the refusal delta carries the chunk's ``logprobs`` in its bag, and the finish joins them
    into the choice's bag, as the non-streamed choice keeps them."""
    token = _token("I", -0.1)
    refusing: dict[str, Any] = {
        "index": 0,
        "delta": {"refusal": "I"},
        "logprobs": {"content": None, "refusal": [token]},
        "finish_reason": None,
    }
    finish: dict[str, Any] = {"index": 0, "delta": {}, "logprobs": None, "finish_reason": "stop"}
    chunks: list[dict[str, Any]] = [{**_BASE, "choices": [refusing]}, {**_BASE, "choices": [finish]}]
    for chunk in chunks:
        ChatCompletionChunk.model_validate(chunk)
    body: dict[str, Any] = {
        **_BASE,
        "object": "chat.completion",
        "choices": [{**refusing, "message": {"role": "assistant", "content": None, "refusal": "I"}, **finish}],
    }
    del body["choices"][0]["delta"]
    body["choices"][0]["logprobs"] = refusing["logprobs"]
    ChatCompletion.model_validate(body)
    response = chatcodec.accumulate_stream("openai-chat", chunks)
    assert response.choices[0].logprobs is None
    assert response.choices[0].provider_metadata == {"openai-chat": {"logprobs": refusing["logprobs"]}}
    assert response.choices[0] == chatcodec.decode_response("openai-chat", body).choices[0]
    events = list(chatcodec.decode_stream("openai-chat", chunks))
    assert _dumped(list(chatcodec.decode_stream("openai-chat", chatcodec.encode_stream("openai-chat", events)))) == (
        _dumped(events)
    )


# --- OpenAI Responses ------------------------------------------------------------------------


def _delta_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A part's ``Logprob`` as a delta's (``ResponseTextDeltaEvent.Logprob``: no ``bytes``)."""
    top = [{"token": item["token"], "logprob": item["logprob"]} for item in entry["top_logprobs"]]
    return {"token": entry["token"], "logprob": entry["logprob"], "top_logprobs": top}


def _responses_stream(per_delta: int) -> list[dict[str, Any]]:
    """The recorded answer streamed as OpenAI streams it, ``per_delta`` tokens a delta."""
    item = RECORDED["output"][0]
    part = item["content"][0]
    entries = part["logprobs"]
    where = {"item_id": item["id"], "output_index": 0, "content_index": 0}
    groups = [entries[start : start + per_delta] for start in range(0, len(entries), per_delta)]
    deltas = [
        {
            "type": "response.output_text.delta",
            **where,
            "delta": "".join(entry["token"] for entry in group),
            "logprobs": [_delta_entry(entry) for entry in group],
        }
        for group in groups
    ]
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {**RECORDED, "status": "in_progress", "output": []}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**item, "status": "in_progress", "content": []},
        },
        {
            "type": "response.content_part.added",
            **where,
            "part": {"type": "output_text", "text": "", "annotations": [], "logprobs": []},
        },
        *deltas,
        {
            "type": "response.output_text.done",
            **where,
            "text": part["text"],
            "logprobs": [_delta_entry(entry) for entry in entries],
        },
        {"type": "response.content_part.done", **where, "part": part},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": RECORDED},
    ]
    return [{**event, "sequence_number": number} for number, event in enumerate(events)]


@pytest.mark.parametrize("per_delta", [1, 2, 9])
def test_a_responses_delta_gives_its_tokens_and_the_answer_equals_the_bodys(per_delta: int) -> None:
    stream = _responses_stream(per_delta)
    for event in stream:
        if event["type"] == "response.output_text.delta":
            ResponseTextDeltaEvent.model_validate(event)
    events = list(chatcodec.decode_stream("openai-responses", stream))
    entries = RECORDED["output"][0]["content"][0]["logprobs"]
    assert [token for tokens in _delta_tokens(events) for token in tokens] == [entry["token"] for entry in entries]
    assert next(event for event in events if isinstance(event, FinishEvent)).logprobs is None
    body = chatcodec.decode_response("openai-responses", RECORDED)
    assert chatcodec.accumulate_stream("openai-responses", stream).choices[0].logprobs == body.choices[0].logprobs


@pytest.mark.parametrize("per_delta", [1, 4])
def test_responses_to_responses_is_exact_and_every_event_carries_the_tokens(per_delta: int) -> None:
    events = list(chatcodec.decode_stream("openai-responses", _responses_stream(per_delta)))
    wire = list(chatcodec.encode_stream("openai-responses", events, on_loss="ignore"))
    assert _dumped(list(chatcodec.decode_stream("openai-responses", wire))) == _dumped(events)
    part = RECORDED["output"][0]["content"][0]
    by_type = {event["type"]: event for event in wire}
    deltas = [event for event in wire if event["type"] == "response.output_text.delta"]
    for delta in deltas:
        ResponseTextDeltaEvent.model_validate(delta)
    original = [e for e in _responses_stream(per_delta) if e["type"] == "response.output_text.delta"]
    assert [(d["delta"], d["logprobs"]) for d in deltas] == [(d["delta"], d["logprobs"]) for d in original]
    done = ResponseTextDoneEvent.model_validate(by_type["response.output_text.done"])
    assert [entry.model_dump() for entry in done.logprobs] == [_delta_entry(entry) for entry in part["logprobs"]]
    content_done = ResponseContentPartDoneEvent.model_validate(by_type["response.content_part.done"])
    assert content_done.part.model_dump()["logprobs"] == part["logprobs"]
    item_done = ResponseOutputItemDoneEvent.model_validate(by_type["response.output_item.done"])
    assert item_done.item.model_dump()["content"][0]["logprobs"] == part["logprobs"]
    assert by_type["response.completed"]["response"]["output"][0]["content"][0]["logprobs"] == part["logprobs"]


def test_responses_deltas_whose_tokens_do_not_spell_them_leave_the_rest_to_the_terminal_response() -> None:
    stream = _responses_stream(1)
    deltas = [event for event in stream if event["type"] == "response.output_text.delta"]
    deltas[3]["logprobs"][0]["token"] = "?"  # no longer its text: from here on, the terminal response's
    events = list(chatcodec.decode_stream("openai-responses", stream))
    assert sum(map(len, _delta_tokens(events))) == 3
    body = chatcodec.decode_response("openai-responses", RECORDED)
    assert chatcodec.accumulate_stream("openai-responses", stream).choices[0].logprobs == body.choices[0].logprobs


# --- across formats --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "route",
    [
        ("openai-chat", "openai-responses", "ollama", "openai-chat"),
        ("openai-chat", "ollama", "openai-responses", "openai-chat"),
        ("openai-chat", "gemini", "openai-chat"),
    ],
)
def test_every_token_keeps_its_place_across_formats(route: tuple[str, ...]) -> None:
    events = list(chatcodec.decode_stream(route[0], _chat_chunks()))
    for target in route[1:]:
        losses: list[chatcodec.Loss] = []
        wire = list(chatcodec.encode_stream(target, events, on_loss="ignore", losses=losses))
        assert not [loss for loss in losses if "logprobs" in loss.path], (target, losses)
        events = list(chatcodec.decode_stream(target, wire))
        assert _all_tokens(events) == EXPECTED, target
    if route[-2] != "gemini":  # Gemini gives an answer's tokens at its finish
        assert _delta_tokens(events) == [[token["token"] for token in piece] for piece in PIECES]


def test_ollama_lines_carry_their_tokens_and_the_answer_equals_the_body() -> None:
    events = list(chatcodec.decode_stream("openai-chat", _chat_chunks()))
    lines = list(chatcodec.encode_stream("ollama", events, on_loss="ignore"))
    with_text = [line for line in lines if line["message"].get("content")]
    expected = [
        [{key: value for key, value in token.items() if value not in (None, [])} for token in piece] for piece in PIECES
    ]
    assert [line.get("logprobs") for line in with_text] == expected
    streamed = chatcodec.accumulate_stream("ollama", lines)
    assert streamed.choices[0].logprobs == chatcodec.decode_response("openai-chat", _chat_body()).choices[0].logprobs


@pytest.mark.parametrize("target", ["anthropic", "bedrock-converse"])
def test_a_format_without_logprobs_reports_them_once(target: str) -> None:
    events = list(chatcodec.decode_stream("openai-chat", _chat_chunks()))
    losses: list[chatcodec.Loss] = []
    list(chatcodec.encode_stream(target, events, on_loss="ignore", losses=losses))
    reported = [loss for loss in losses if loss.what == "token log probabilities"]
    first_delta = next(number for number, event in enumerate(events) if isinstance(event, TextDeltaEvent))
    assert [loss.path for loss in reported] == [f"$.events[{first_delta}].logprobs"]


def test_a_gemini_stream_cut_before_its_finish_reports_the_deltas_tokens() -> None:
    events = [
        event for event in chatcodec.decode_stream("openai-chat", _chat_chunks()) if not isinstance(event, FinishEvent)
    ]
    losses: list[chatcodec.Loss] = []
    list(chatcodec.encode_stream("gemini", events, on_loss="ignore", losses=losses))
    assert [loss.what for loss in losses if loss.path.endswith("logprobs")] == ["token log probabilities"]


def test_the_accumulator_joins_the_deltas_tokens_then_the_finishs() -> None:
    token = {"token": "a", "logprob": -1.0}
    events = [
        {"type": "text_start", "index": 0},
        {"type": "text_delta", "index": 0, "delta": "a", "logprobs": [token]},
        {"type": "text_delta", "index": 0, "delta": "b"},
        {"type": "text_end", "index": 0},
        {"type": "finish", "finish_reason": {"unified": "stop"}, "logprobs": [{**token, "token": "b"}]},
    ]
    accumulator = chatcodec.StreamAccumulator()
    for event in events:
        accumulator.add(chatcodec.STREAM_EVENT_ADAPTER.validate_python(event))
    assert [t.token for t in accumulator.response().choices[0].logprobs or ()] == ["a", "b"]
