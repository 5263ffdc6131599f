"""The answer's token log probabilities on Responses' ``output_text`` parts, carried both ways.

From the SDK types (openai ``types/responses``): ``ResponseOutputText.logprobs`` is a list of
``Logprob`` (``token``, ``bytes``, ``logprob``, ``top_logprobs`` of ``LogprobTopLogprob``:
``token``, ``bytes``, ``logprob``, every key required), returned when the request includes
``message.output_text.logprobs``; a stream's ``response.output_text.delta`` and ``.done``
carry the tokens too, and its terminal event the whole response. The recorded answer
(``output_text_logprobs.json``, pydantic-ai's cassette of the live API) has one ``output_text``
whose tokens spell its text.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from openai.types.responses import Response

import chatcodec
from chatcodec.streams._convert import convert_stream

FIXTURE = (
    Path(__file__).resolve().parents[2] / "fixtures" / "openai-responses" / "response" / "output_text_logprobs.json"
)
RECORDED: dict[str, Any] = json.loads(FIXTURE.read_text())
CHAT_TOKENS = [
    {
        "token": "Hi",
        "logprob": -0.25,
        "bytes": [72, 105],
        "top_logprobs": [{"token": "Hey", "logprob": -2.5, "bytes": None}],
    },
    {"token": "!", "logprob": -0.5, "bytes": None, "top_logprobs": []},
]
CHAT_BODY = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1727346173,
    "model": "gpt-4o",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "Hi!", "refusal": None},
            "logprobs": {"content": CHAT_TOKENS, "refusal": None},
            "finish_reason": "stop",
        }
    ],
}


def _text_parts(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [part for item in body["output"] if item["type"] == "message" for part in item["content"]]


def test_the_recorded_answers_tokens_are_the_choices_and_written_back_exactly() -> None:
    response = chatcodec.decode_response("openai-responses", RECORDED)
    tokens = response.choices[0].logprobs
    assert tokens is not None
    assert "".join(token.token for token in tokens) == "The capital of Minas Gerais is Belo Horizonte."
    assert tokens[0].bytes == [84, 104, 101]
    assert "logprobs" not in (response.choices[0].message.content[0].provider_metadata or {}).get(
        "openai-responses", {}
    )
    assert chatcodec.encode_response("openai-responses", response, on_loss="error") == RECORDED


def test_they_reach_openai_chat_and_ollama_and_come_back() -> None:
    losses: list[chatcodec.Loss] = []
    chat = chatcodec.convert_response(
        RECORDED, source="openai-responses", target="openai-chat", on_loss="ignore", losses=losses
    )
    assert chat["choices"][0]["logprobs"]["content"] == [
        {**entry, "top_logprobs": []} for entry in _sdk_order(_text_parts(RECORDED)[0]["logprobs"], chat_spelling=True)
    ]
    assert not [loss for loss in losses if "logprobs" in loss.path]
    ollama = chatcodec.convert_response(RECORDED, source="openai-responses", target="ollama", on_loss="ignore")
    assert [entry["token"] for entry in ollama["logprobs"]] == [
        entry["token"] for entry in _text_parts(RECORDED)[0]["logprobs"]
    ]


def _sdk_order(entries: list[dict[str, Any]], *, chat_spelling: bool = False) -> list[dict[str, Any]]:
    keys = ("token", "logprob", "bytes") if chat_spelling else ("token", "bytes", "logprob")
    return [{key: entry[key] for key in keys} for entry in entries]


def test_openai_chat_tokens_are_written_on_the_output_text_with_every_key_the_sdk_requires() -> None:
    body = chatcodec.convert_response(CHAT_BODY, source="openai-chat", target="openai-responses", on_loss="error")
    Response.model_validate(body)  # bytes are required lists: a canonical token without them gets its UTF-8
    (part,) = _text_parts(body)
    assert part["logprobs"] == [
        {
            "token": "Hi",
            "bytes": [72, 105],
            "logprob": -0.25,
            "top_logprobs": [{"token": "Hey", "bytes": [72, 101, 121], "logprob": -2.5}],
        },
        {"token": "!", "bytes": [33], "logprob": -0.5, "top_logprobs": []},
    ]
    again = chatcodec.decode_response("openai-responses", body).choices[0].logprobs
    assert again is not None
    assert [token.token for token in again] == ["Hi", "!"]


def test_tokens_of_several_output_texts_are_joined_and_shared_out_again_by_their_bytes() -> None:
    body = copy.deepcopy(RECORDED)
    message = body["output"][0]
    (whole,) = message["content"]
    first, second = whole["logprobs"][:4], whole["logprobs"][4:]
    message["content"] = [
        {**whole, "text": "".join(entry["token"] for entry in first), "logprobs": first},
        {**whole, "text": "".join(entry["token"] for entry in second), "logprobs": second},
    ]
    response = chatcodec.decode_response("openai-responses", body)
    assert response.choices[0].logprobs is not None
    assert len(response.choices[0].logprobs) == len(whole["logprobs"])
    assert chatcodec.encode_response("openai-responses", response, on_loss="error") == body


def test_tokens_that_do_not_spell_the_text_stay_on_their_part_as_they_came() -> None:
    body = copy.deepcopy(RECORDED)
    _text_parts(body)[0]["logprobs"][0]["token"] = "A"
    _text_parts(body)[0]["logprobs"][0]["bytes"] = [65]
    response = chatcodec.decode_response("openai-responses", body)
    assert response.choices[0].logprobs is None
    assert chatcodec.encode_response("openai-responses", response, on_loss="error") == body


def test_an_answer_that_asked_for_none_keeps_its_empty_lists() -> None:
    body = copy.deepcopy(RECORDED)
    _text_parts(body)[0]["logprobs"] = []
    response = chatcodec.decode_response("openai-responses", body)
    assert response.choices[0].logprobs is None
    assert chatcodec.encode_response("openai-responses", response, on_loss="error") == body


def test_tokens_with_no_output_text_to_carry_them_are_reported() -> None:
    refused = copy.deepcopy(CHAT_BODY)
    refused["choices"][0]["message"] = {"role": "assistant", "content": None, "refusal": "No."}
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_response(
        refused, source="openai-chat", target="openai-responses", on_loss="ignore", losses=losses
    )
    assert [loss.path for loss in losses if "logprobs" in loss.path] == ["$.choices[0].logprobs"]


def test_tokens_that_do_not_divide_along_several_parts_go_on_the_first_reported() -> None:
    data = chatcodec.decode_response("openai-chat", CHAT_BODY).model_dump()
    data["choices"][0]["message"]["content"] = [{"type": "text", "text": "Hello"}, {"type": "text", "text": "there"}]
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_response(
        "openai-responses", chatcodec.ChatResponse.model_validate(data), on_loss="ignore", losses=losses
    )
    first, second = _text_parts(body)
    assert [entry["token"] for entry in first["logprobs"]] == ["Hi", "!"]
    assert "logprobs" in second
    assert [loss.path for loss in losses if "logprobs" in loss.path] == ["$.choices[0].logprobs"]


def _sse(events: list[dict[str, Any]]) -> bytes:
    return "".join(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n" for event in events).encode()


@pytest.mark.parametrize("chunks", [1, 3])
def test_a_stream_carries_them_from_the_terminal_response_both_ways(chunks: int) -> None:
    part = _text_parts(RECORDED)[0]
    entries = part["logprobs"]
    item = {**RECORDED["output"][0], "status": "in_progress", "content": []}
    where = {"item_id": item["id"], "output_index": 0, "content_index": 0}
    size = -(-len(entries) // chunks)
    deltas = [entries[start : start + size] for start in range(0, len(entries), size)]
    delta_events = [
        {"type": "response.output_text.delta", **where, "delta": "".join(e["token"] for e in group), "logprobs": group}
        for group in deltas
    ]
    events = [
        {"type": "response.created", "response": {**RECORDED, "status": "in_progress", "output": []}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {
            "type": "response.content_part.added",
            **where,
            "part": {"type": "output_text", "text": "", "annotations": []},
        },
        *delta_events,
        {"type": "response.output_text.done", **where, "text": part["text"], "logprobs": entries},
        {"type": "response.output_item.done", "output_index": 0, "item": RECORDED["output"][0]},
        {"type": "response.completed", "response": RECORDED},
    ]
    events = [{**event, "sequence_number": number} for number, event in enumerate(events)]
    streamed = chatcodec.accumulate_stream("openai-responses", [_sse(events)])
    assert streamed.choices[0].logprobs == chatcodec.decode_response("openai-responses", RECORDED).choices[0].logprobs
    as_chat = b"".join(
        convert_stream([_sse(events)], source="openai-responses", target="openai-chat", on_loss="ignore")
    )
    back = b"".join(
        convert_stream([as_chat], source="openai-chat", target="openai-responses", on_loss="ignore")
    ).decode()
    terminal = json.loads(
        next(line for line in back.splitlines() if "response.completed" in line and line.startswith("data"))[6:]
    )
    assert _text_parts(terminal["response"])[0]["logprobs"] == entries


def test_an_empty_token_list_puts_an_empty_list_on_each_part_unreported() -> None:
    data = chatcodec.decode_response("openai-chat", CHAT_BODY).model_dump()
    data["choices"][0]["logprobs"] = []
    data["choices"][0]["message"]["content"] = [{"type": "text", "text": "Hello"}, {"type": "text", "text": "there"}]
    losses: list[chatcodec.Loss] = []
    response = chatcodec.ChatResponse.model_validate(data)
    body = chatcodec.encode_response("openai-responses", response, on_loss="ignore", losses=losses)
    assert [part["logprobs"] for part in _text_parts(body)] == [[], []]
    assert not [loss for loss in losses if "logprobs" in loss.path]


@pytest.mark.parametrize("logprob", [10**400, 2**53 + 1], ids=["past-a-double", "not-exact-in-a-double"])
def test_a_logprob_a_double_cannot_hold_stays_on_its_part_as_it_came(logprob: int) -> None:
    odd = copy.deepcopy(RECORDED)
    _text_parts(odd)[0]["logprobs"][1]["logprob"] = logprob
    response = chatcodec.decode_response("openai-responses", odd)
    assert response.choices[0].logprobs is None
    assert chatcodec.encode_response("openai-responses", response, on_loss="error") == odd


_REPLAYED: dict[str, Any] = {
    "model": "gpt-5",
    "input": [
        {"role": "user", "content": "hi"},
        {
            "type": "message",
            "role": "assistant",
            "id": "msg_1",
            "status": "completed",
            "content": [{"type": "output_text", "text": "hello", "annotations": [], "logprobs": []}],
        },
        {"role": "user", "content": "more"},
    ],
}


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "gemini", "bedrock-converse"])
def test_a_replayed_answers_empty_token_list_is_spelling_no_other_format_reports(target: str) -> None:
    """``"logprobs": []`` on an ``output_text`` (the API's answer to a request that asked for no
    tokens, which the Agents SDK replays on every assistant message) holds no token: nothing for
    another format to carry, where it was reported as ``openai-responses data ['logprobs']``."""
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(
        copy.deepcopy(_REPLAYED), source="openai-responses", target=target, on_loss="ignore", losses=losses
    )
    assert not [loss for loss in losses if "logprobs" in loss.what]


def test_a_replayed_answers_empty_token_list_is_written_back_as_it_came() -> None:
    read = chatcodec.decode_request("openai-responses", copy.deepcopy(_REPLAYED))
    assert chatcodec.encode_request("openai-responses", read, on_loss="error") == _REPLAYED
