"""A choice's token log probabilities, one canonical list carried between the formats that have them.

From each API's own types: OpenAI Chat's ``choices[].logprobs`` is ``{"content": [...],
"refusal": null}`` of ``ChatCompletionTokenLogprob`` (``token``, ``logprob``, ``bytes``
possibly ``null``, ``top_logprobs`` of ``TopLogprob``: every key written), a stream's chunk
carrying its own tokens; Ollama's chat response has a top-level ``logprobs`` list of the same
entries with ``bytes`` and ``top_logprobs`` left out when empty (``api.Logprob``, Go's
``omitempty``; ollama-python's ``chat(..., logprobs=True, top_logprobs=3)`` example reads
``response["logprobs"]``), a stream's line carrying its own. Responses (its ``output_text``
parts' ``logprobs``: ``tests/providers/openai_responses/test_logprobs.py``) and Gemini
(``logprobsResult``: ``tests/providers/gemini/test_logprobs.py``) carry them too; Anthropic and
Bedrock Converse get a loss.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai.types.chat import ChatCompletion

import chatcodec
from chatcodec._providers.kit.token_logprobs import read_token_logprobs, write_token_logprobs

OPENAI_TOKENS = [
    {
        "token": "Hi",
        "logprob": -0.0031,
        "bytes": [72, 105],
        "top_logprobs": [
            {"token": "Hi", "logprob": -0.0031, "bytes": [72, 105]},
            {"token": "Hello", "logprob": -5.8, "bytes": None},
        ],
    },
    {"token": "!", "logprob": -0.2, "bytes": [33], "top_logprobs": []},
]
OPENAI_BODY = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1727346173,
    "model": "gpt-4o-2024-08-06",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "Hi!", "refusal": None},
            "logprobs": {"content": OPENAI_TOKENS, "refusal": None},
            "finish_reason": "stop",
        }
    ],
}
OLLAMA_TOKENS = [
    {
        "token": "Hi",
        "logprob": -0.0031,
        "bytes": [72, 105],
        "top_logprobs": [{"token": "Hi", "logprob": -0.0031, "bytes": [72, 105]}, {"token": "Hello", "logprob": -5.8}],
    },
    {"token": "!", "logprob": -0.2, "bytes": [33]},
]
OLLAMA_BODY = {
    "model": "llama3.2",
    "created_at": "2025-11-12T10:00:00Z",
    "message": {"role": "assistant", "content": "Hi!"},
    "done": True,
    "done_reason": "stop",
    "logprobs": OLLAMA_TOKENS,
}
CANONICAL = [
    {
        "token": "Hi",
        "logprob": -0.0031,
        "bytes": [72, 105],
        "top_logprobs": [{"token": "Hi", "logprob": -0.0031, "bytes": [72, 105]}, {"token": "Hello", "logprob": -5.8}],
    },
    {"token": "!", "logprob": -0.2, "bytes": [33]},
]


def _convert(body: dict[str, Any], source: str, target: str) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    return chatcodec.convert_response(body, source=source, target=target, on_loss="ignore", losses=losses), losses


@pytest.mark.parametrize(("provider", "body"), [("openai-chat", OPENAI_BODY), ("ollama", OLLAMA_BODY)])
def test_each_format_reads_its_logprobs_as_the_canonical_tokens_and_writes_them_back(
    provider: str, body: dict[str, Any]
) -> None:
    response = chatcodec.decode_response(provider, body)
    assert [
        token.model_dump(exclude_none=True, exclude_defaults=True) for token in response.choices[0].logprobs or []
    ] == CANONICAL
    assert response.choices[0].provider_metadata is None
    assert chatcodec.encode_response(provider, response, on_loss="error") == body


def test_ollama_s_logprobs_reach_openai_chat_and_back() -> None:
    as_openai, losses = _convert(OLLAMA_BODY, "ollama", "openai-chat")
    assert as_openai["choices"][0]["logprobs"] == {"content": OPENAI_TOKENS, "refusal": None}
    assert not [loss for loss in losses if "logprobs" in loss.path]
    ChatCompletion.model_validate(as_openai)
    as_ollama, _ = _convert(OPENAI_BODY, "openai-chat", "ollama")
    assert as_ollama["logprobs"] == OLLAMA_TOKENS


def test_a_logprobs_object_of_another_spelling_stays_as_it_came() -> None:
    other = json.loads(json.dumps(OPENAI_BODY))
    other["choices"][0]["logprobs"] = {
        "content": OPENAI_TOKENS,
        "refusal": None,
        "text_offset": [0, 2],
    }  # a server's own key
    response = chatcodec.decode_response("openai-chat", other)
    assert response.choices[0].logprobs is None
    assert chatcodec.encode_response("openai-chat", response, on_loss="error") == other
    # vLLM's spelling (no refusal key) is read as tokens: providers/openai_chat/test_logprobs_without_refusal.py


def _ollama_stream() -> bytes:
    lines = [
        {
            **OLLAMA_BODY,
            "message": {"role": "assistant", "content": "Hi"},
            "done": False,
            "logprobs": OLLAMA_TOKENS[:1],
        },
        {**OLLAMA_BODY, "message": {"role": "assistant", "content": "!"}, "done": False, "logprobs": OLLAMA_TOKENS[1:]},
        {
            **{key: value for key, value in OLLAMA_BODY.items() if key != "logprobs"},
            "message": {"role": "assistant", "content": ""},
        },
    ]
    for line in lines[:2]:
        del line["done_reason"]
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def test_a_stream_s_logprobs_are_the_finished_choice_s_as_the_body_has_them() -> None:
    streamed = chatcodec.accumulate_stream("ollama", _ollama_stream())
    assert streamed.choices[0].logprobs == chatcodec.decode_response("ollama", OLLAMA_BODY).choices[0].logprobs
    events = list(chatcodec.decode_stream("ollama", [_ollama_stream()]))
    # an Ollama stream has no id: the one a chunk requires is invented, reported as a default
    chunks = list(chatcodec.encode_stream("openai-chat", events, on_loss={"default": "ignore", "*": "error"}))
    # each line's tokens on the chunk of its text, none left for the finish chunk
    with_text = [
        chunk["choices"][0] for chunk in chunks if chunk["choices"] and chunk["choices"][0]["delta"].get("content")
    ]
    assert [choice["logprobs"]["content"] for choice in with_text] == [OPENAI_TOKENS[:1], OPENAI_TOKENS[1:]]
    finish = next(chunk for chunk in chunks if chunk["choices"] and chunk["choices"][0]["finish_reason"])
    assert "logprobs" not in finish["choices"][0]
    assert chatcodec.accumulate_stream("openai-chat", chunks).choices[0].logprobs == streamed.choices[0].logprobs


@pytest.mark.parametrize("target", ["anthropic", "bedrock-converse"])
def test_a_format_with_no_place_for_them_reports_them(target: str) -> None:
    _, losses = _convert(OPENAI_BODY, "openai-chat", target)
    assert [loss.path for loss in losses if "logprobs" in loss.path] == ["$.choices[0].logprobs"]
    events = list(chatcodec.decode_stream("ollama", [_ollama_stream()]))
    streamed: list[chatcodec.Loss] = []
    list(chatcodec.encode_stream(target, events, on_loss="ignore", losses=streamed))
    assert [loss.what for loss in streamed if "logprobs" in loss.path] == ["token log probabilities"]


_BYTES = st.none() | st.lists(st.integers(min_value=0, max_value=255), max_size=4)
"""Empty bytes too: the empty token's UTF-8, which each spelling reads back."""
_ALTERNATIVE = st.builds(
    chatcodec.TopLogprob, token=st.text(), logprob=st.floats(max_value=0, allow_infinity=False), bytes=_BYTES
)
_TOKENS = st.lists(
    st.builds(
        chatcodec.TokenLogprob,
        token=st.text(),
        logprob=st.floats(max_value=0, allow_infinity=False),
        bytes=_BYTES,
        top_logprobs=st.lists(_ALTERNATIVE, max_size=3),
    ),
    max_size=4,
)


@given(_TOKENS)
def test_any_tokens_written_by_either_spelling_read_back_the_same(tokens: list[chatcodec.TokenLogprob]) -> None:
    data = [token.model_dump(exclude_none=True, exclude_defaults=True) for token in tokens]
    for every_key in (True, False):
        assert read_token_logprobs(write_token_logprobs(data, every_key=every_key), every_key=every_key) == data


def test_a_token_canonical_cannot_hold_stays_as_it_came() -> None:
    # a token cut inside a character, sent as a lone surrogate (JSON can spell one)
    body = {**OLLAMA_BODY, "logprobs": [{"token": "\ud83d", "logprob": -1.0}]}
    response = chatcodec.decode_response("ollama", body)
    assert response.choices[0].logprobs is None
    assert chatcodec.encode_response("ollama", response) == body


def test_an_ollama_token_with_empty_bytes_is_read_as_canonical() -> None:
    # the empty token's bytes are empty; refused, the whole answer's tokens went to the bag
    body = {**OLLAMA_BODY, "logprobs": [{"token": "", "logprob": -0.5, "bytes": []}, {"token": "!", "logprob": -0.1}]}
    response = chatcodec.decode_response("ollama", body)
    assert response.choices[0].logprobs == [
        chatcodec.TokenLogprob(token="", logprob=-0.5, bytes=[]),
        chatcodec.TokenLogprob(token="!", logprob=-0.1),
    ]
    assert chatcodec.encode_response("ollama", response) == body


@pytest.mark.parametrize("logprob", [10**400, 2**53 + 1], ids=["past-a-double", "not-exact-in-a-double"])
@pytest.mark.parametrize(("provider", "body"), [("openai-chat", OPENAI_BODY), ("ollama", OLLAMA_BODY)])
def test_a_logprob_a_double_cannot_hold_stays_as_it_came(provider: str, body: dict[str, Any], logprob: int) -> None:
    # JSON's numbers have no size limit; canonical's logprob is a double (the APIs' own
    # type), so an integer no double holds exactly is kept where it came, not rounded
    odd = json.loads(json.dumps(body))
    tokens = odd["choices"][0]["logprobs"]["content"] if provider == "openai-chat" else odd["logprobs"]
    tokens[1]["logprob"] = logprob
    response = chatcodec.decode_response(provider, odd)
    assert response.choices[0].logprobs is None
    assert chatcodec.encode_response(provider, response, on_loss="error") == odd
