"""A candidate's ``logprobsResult``, carried as the choice's token log probabilities.

From the API reference (https://ai.google.dev/api/generate-content#LogprobsResult) and the
google-genai types (``LogprobsResult``: ``chosen_candidates``, one ``LogprobsResultCandidate``
of ``token``, ``token_id`` and ``log_probability`` per decoding step; ``top_candidates``, one
``LogprobsResultTopCandidates`` per step, "The length of this list is equal to the total number
of decoding steps"; ``log_probability_sum``). ``avgLogprobs`` is the candidate's own average:
never carried, kept in its bag.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from google.genai import types as genai_types

import chatcodec
from chatcodec.streams._convert import convert_stream

CHOSEN = [
    {"token": "Hi", "tokenId": 5, "logProbability": -0.1},
    {"token": "!", "tokenId": 7, "logProbability": -0.5},
]
TOP = [
    {
        "candidates": [
            {"token": "Hi", "tokenId": 5, "logProbability": -0.1},
            {"token": "Hey", "tokenId": 6, "logProbability": -2.0},
        ]
    },
    {"candidates": [{"token": "!", "tokenId": 7, "logProbability": -0.5}]},
]
BODY: dict[str, Any] = {
    "candidates": [
        {
            "content": {"role": "model", "parts": [{"text": "Hi!"}]},
            "finishReason": "STOP",
            "avgLogprobs": -0.3,
            "logprobsResult": {"topCandidates": TOP, "chosenCandidates": CHOSEN, "logProbabilitySum": -0.6},
        }
    ],
    "modelVersion": "gemini-2.5-flash",
}


def test_the_chosen_and_top_candidates_are_the_choices_tokens_and_written_back_exactly() -> None:
    genai_types.GenerateContentResponse.model_validate(BODY)
    response = chatcodec.decode_response("gemini", BODY)
    tokens = response.choices[0].logprobs
    assert tokens is not None
    assert [(token.token, token.logprob) for token in tokens] == [("Hi", -0.1), ("!", -0.5)]
    assert [(top.token, top.logprob) for top in tokens[0].top_logprobs] == [("Hi", -0.1), ("Hey", -2.0)]
    assert chatcodec.encode_response("gemini", response, on_loss="error") == BODY


def test_what_canonical_has_no_field_for_is_reported_elsewhere_and_avg_logprobs_is_never_made_up() -> None:
    losses: list[chatcodec.Loss] = []
    chat = chatcodec.convert_response(BODY, source="gemini", target="openai-chat", on_loss="ignore", losses=losses)
    assert [entry["token"] for entry in chat["choices"][0]["logprobs"]["content"]] == ["Hi", "!"]
    assert [loss.what for loss in losses if loss.path == "$.choices[0]"] == [
        "gemini data ['avgLogprobs', 'logprobsResult']"  # the token ids and the sum
    ]
    again = chatcodec.convert_response(chat, source="openai-chat", target="gemini", on_loss="error")
    candidate = again["candidates"][0]
    assert "avgLogprobs" not in candidate
    assert candidate["logprobsResult"] == {
        "topCandidates": [
            {"candidates": [{"token": "Hi", "logProbability": -0.1}, {"token": "Hey", "logProbability": -2.0}]},
            {"candidates": [{"token": "!", "logProbability": -0.5}]},
        ],
        "chosenCandidates": [{"token": "Hi", "logProbability": -0.1}, {"token": "!", "logProbability": -0.5}],
    }
    genai_types.GenerateContentResponse.model_validate(again)


def test_openai_tokens_without_alternatives_get_no_top_candidates_and_bytes_not_utf8_are_reported() -> None:
    chat = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "\u00e9"},
                "logprobs": {
                    "content": [
                        {"token": "\\xc3", "logprob": -0.1, "bytes": [195], "top_logprobs": []},
                        {"token": "\\xa9", "logprob": -0.2, "bytes": [169], "top_logprobs": []},
                    ],
                    "refusal": None,
                },
                "finish_reason": "stop",
            }
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_response(chat, source="openai-chat", target="gemini", on_loss="ignore", losses=losses)
    assert list(body["candidates"][0]["logprobsResult"]) == ["chosenCandidates"]
    assert [loss.what for loss in losses if loss.path == "$.choices[0].logprobs"] == ["token bytes"]


def test_a_result_of_another_shape_stays_in_the_bag_as_it_came() -> None:
    odd = copy.deepcopy(BODY)
    odd["candidates"][0]["logprobsResult"]["topCandidates"] = TOP[:1]  # fewer steps than chosen
    response = chatcodec.decode_response("gemini", odd)
    assert response.choices[0].logprobs is None
    assert chatcodec.encode_response("gemini", response, on_loss="error") == odd


def test_a_streams_steps_are_joined_over_its_chunks_and_given_with_the_finish() -> None:
    first = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": "Hi"}]},
                "logprobsResult": {"chosenCandidates": CHOSEN[:1]},
            }
        ],
        "modelVersion": "gemini-2.5-flash",
    }
    last = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": "!"}]},
                "finishReason": "STOP",
                "logprobsResult": {"chosenCandidates": CHOSEN[1:]},
            }
        ],
        "modelVersion": "gemini-2.5-flash",
    }
    sse = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in (first, last)).encode()
    streamed = chatcodec.accumulate_stream("gemini", [sse])
    tokens = streamed.choices[0].logprobs
    assert tokens is not None
    assert [token.token for token in tokens] == ["Hi", "!"]
    kept = (streamed.choices[0].provider_metadata or {})["gemini"]["logprobsResult"]
    assert kept == {"chosenCandidates": [{"tokenId": 5}, {"tokenId": 7}]}
    as_chat = b"".join(convert_stream([sse], source="gemini", target="openai-chat", on_loss="ignore"))
    assert b'"token":"Hi"' in as_chat
    back = b"".join(convert_stream([as_chat], source="openai-chat", target="gemini", on_loss="ignore")).decode()
    chunks = [json.loads(line[6:]) for line in back.splitlines() if line.startswith("data: ")]
    results = [
        candidate["logprobsResult"]
        for chunk in chunks
        for candidate in chunk.get("candidates", [])
        if "logprobsResult" in candidate
    ]
    assert results == [
        {"chosenCandidates": [{"token": "Hi", "logProbability": -0.1}, {"token": "!", "logProbability": -0.5}]}
    ]


def test_a_log_probability_a_double_cannot_hold_stays_in_the_bag_as_it_came() -> None:
    for logprob in (10**400, 2**53 + 1):  # JSON numbers have no size limit; the API's are doubles
        odd = copy.deepcopy(BODY)
        odd["candidates"][0]["logprobsResult"]["chosenCandidates"][1]["logProbability"] = logprob
        response = chatcodec.decode_response("gemini", odd)
        assert response.choices[0].logprobs is None
        assert chatcodec.encode_response("gemini", response, on_loss="error") == odd


def test_a_token_holding_a_lone_surrogate_is_compared_not_raised() -> None:
    """A fuzz find (seed 20261127): a token text with a lone surrogate made the bytes check
    raise UnicodeEncodeError; its bytes are now compared as Python writes the text
    (``surrogatepass``), and bytes that differ are the usual reported loss."""
    import warnings

    import chatcodec

    def answer(data: list[int]) -> dict[str, object]:
        token = {"token": "a\ud800", "logprob": -0.1, "bytes": data}
        message = {"role": "assistant", "content": "a\ud800"}
        return {
            "choices": [{"index": 0, "message": message, "finish_reason": {"unified": "stop"}, "logprobs": [token]}]
        }

    def bytes_losses(data: list[int]) -> list[str]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            chatcodec.encode_response("gemini", answer(data))
        warned = [
            loss
            for warning in caught
            if isinstance(warning.message, chatcodec.LossWarning)
            for loss in warning.message.losses
        ]
        return [str(loss) for loss in warned if "token bytes" in str(loss)]

    assert bytes_losses([97, 237, 160, 128]) == []  # the text's own bytes
    assert len(bytes_losses([97])) == 1
