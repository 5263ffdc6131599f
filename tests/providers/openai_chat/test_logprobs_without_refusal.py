"""vLLM's ``ChatCompletionLogProbs`` has ``content`` only (``vllm/entrypoints/openai/protocol.py``:
``class ChatCompletionLogProbs(OpenAIBaseModel): content: Optional[list[ChatCompletionLogProbsContent]]``,
entries ``token``, ``logprob``, ``bytes``, ``top_logprobs``), where OpenAI's ``ChoiceLogprobs``
adds ``refusal``: the same tokens, read as canonical tokens in bodies and in streams, and
written back with no ``refusal`` key to OpenAI Chat (the ``_no_refusal`` marker), so the
same-format round trip stays exact (issue 61)."""

from __future__ import annotations

import copy
from typing import Any

import chatcodec

TOKENS = [
    {
        "token": "Hi",
        "logprob": -0.25,
        "bytes": [72, 105],
        "top_logprobs": [{"token": "Hi", "logprob": -0.25, "bytes": [72, 105]}],
    },
    {"token": "!", "logprob": -1.5, "bytes": [33], "top_logprobs": []},
]
CHOICE = {
    "index": 0,
    "message": {"role": "assistant", "content": "Hi!"},
    "logprobs": {"content": TOKENS},
    "finish_reason": "stop",
}
BODY: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1700000000,
    "model": "meta-llama/Llama-3.1-8B-Instruct",
    "choices": [CHOICE],
}
CHUNK = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1700000000, "model": BODY["model"]}
STREAM: list[dict[str, Any]] = [
    {
        **CHUNK,
        "choices": [
            {
                "index": 0,
                "delta": {"role": "assistant", "content": "Hi"},
                "logprobs": {"content": TOKENS[:1]},
                "finish_reason": None,
            }
        ],
    },
    {
        **CHUNK,
        "choices": [
            {"index": 0, "delta": {"content": "!"}, "logprobs": {"content": TOKENS[1:]}, "finish_reason": None}
        ],
    },
    {**CHUNK, "choices": [{"index": 0, "delta": {}, "logprobs": None, "finish_reason": "stop"}]},
]


def _tokens(logprobs: list[chatcodec.TokenLogprob] | None) -> list[tuple[object, ...]]:
    assert logprobs is not None
    return [(token.token, token.logprob, token.bytes, len(token.top_logprobs or ())) for token in logprobs]


def _wire(tokens: list[dict[str, Any]]) -> list[tuple[object, ...]]:
    return [(token["token"], token["logprob"], token["bytes"], len(token["top_logprobs"])) for token in tokens]


def test_a_body_reads_the_tokens_and_round_trips_exactly() -> None:
    response = chatcodec.decode_response("openai-chat", copy.deepcopy(BODY))
    assert _tokens(response.choices[0].logprobs) == _wire(TOKENS)
    assert chatcodec.encode_response("openai-chat", response) == BODY


def test_the_tokens_reach_responses_as_output_text_logprobs() -> None:
    written = chatcodec.convert_response(copy.deepcopy(BODY), source="openai-chat", target="openai-responses")
    (message,) = written["output"]
    assert [token["token"] for token in message["content"][0]["logprobs"]] == ["Hi", "!"]


def test_a_stream_reads_each_chunks_tokens_and_writes_them_back_as_they_came() -> None:
    events = list(chatcodec.decode_stream("openai-chat", copy.deepcopy(STREAM)))
    deltas = [event for event in events if isinstance(event, chatcodec.TextDeltaEvent)]
    assert [_tokens(delta.logprobs) for delta in deltas] == [_wire(TOKENS[:1]), _wire(TOKENS[1:])]
    written = list(chatcodec.encode_stream("openai-chat", events))
    assert [choice["logprobs"] for chunk in written for choice in chunk["choices"] if "logprobs" in choice] == [
        {"content": TOKENS[:1]},
        {"content": TOKENS[1:]},
    ]
    assert list(chatcodec.decode_stream("openai-chat", written)) == events
    answer = chatcodec.accumulate_stream("openai-chat", copy.deepcopy(STREAM))
    assert _tokens(answer.choices[0].logprobs) == _wire(TOKENS)


def test_openais_own_spelling_keeps_its_refusal_key() -> None:
    body = copy.deepcopy(BODY)
    body["choices"][0]["logprobs"]["refusal"] = None
    response = chatcodec.decode_response("openai-chat", copy.deepcopy(body))
    assert not response.choices[0].provider_metadata
    assert chatcodec.encode_response("openai-chat", response) == body
