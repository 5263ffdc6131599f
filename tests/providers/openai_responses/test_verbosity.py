"""OpenAI's verbosity between the two OpenAI APIs (issue 107's noted gap): Chat Completions'
top-level ``verbosity`` and Responses' ``text.verbosity`` (openai 3.54
``CompletionCreateParams.verbosity``, ``ResponseTextConfigParam.verbosity``) are one canonical
``verbosity``, carried both ways with no loss; a format with no such setting reports it (it was
reported lost to Responses as ``openai-chat data ['verbosity']`` and dropped from Responses'
``text`` into the bag before)."""

from __future__ import annotations

from typing import Any, get_args

import pytest
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming
from pydantic import ValidationError

import chatcodec
from chatcodec._model.request import Verbosity
from chatcodec._providers.openai_chat.request_fields import VERBOSITY
from sdk_oracle import assert_matches

_CHAT: dict[str, Any] = {
    "model": "gpt-5",
    "messages": [{"role": "user", "content": "hi"}],
    "max_completion_tokens": 1024,
}
_RESPONSES: dict[str, Any] = {"model": "gpt-5", "input": "hi", "max_output_tokens": 1024}
_WORDS = get_args(Verbosity)


def _convert(body: dict[str, Any], source: str, target: str) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(body, source=source, target=target, on_loss="ignore", losses=losses)
    return out, [loss for loss in losses if loss.kind != "required"]


def test_the_words_spelled_out_are_the_canonical_type() -> None:
    assert VERBOSITY == _WORDS == ("low", "medium", "high")


@pytest.mark.parametrize("word", _WORDS)
def test_chat_verbosity_reaches_responses_text_verbosity_and_back(word: str) -> None:
    body = {**_CHAT, "verbosity": word}
    assert chatcodec.decode_request("openai-chat", body).verbosity == word
    responses, losses = _convert(body, "openai-chat", "openai-responses")
    assert losses == []
    assert responses["text"] == {"verbosity": word}
    assert_matches(responses, ResponseCreateParamsNonStreaming)
    back, losses = _convert(responses, "openai-responses", "openai-chat")
    assert losses == []
    assert back == body
    assert_matches(back, CompletionCreateParamsNonStreaming)


@pytest.mark.parametrize("word", _WORDS)
def test_responses_text_verbosity_reaches_chat_beside_a_format(word: str) -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    text = {"format": {"type": "json_schema", "name": "answer", "schema": schema, "strict": False}, "verbosity": word}
    body = {**_RESPONSES, "text": text}
    read = chatcodec.decode_request("openai-responses", body)
    assert read.verbosity == word
    assert read.provider_options is None  # nothing of ``text`` left in the bag
    chat, losses = _convert(body, "openai-responses", "openai-chat")
    assert losses == []
    assert chat["verbosity"] == word
    assert chat["response_format"]["json_schema"]["name"] == "answer"
    assert_matches(chat, CompletionCreateParamsNonStreaming)
    assert _convert(body, "openai-responses", "openai-responses") == (body, [])
    assert _convert(chat, "openai-chat", "openai-responses")[0]["text"] == text


@pytest.mark.parametrize(
    ("target", "why"),
    [
        ("anthropic", "Anthropic has no such setting"),
        ("gemini", "Gemini has no verbosity setting"),
        ("bedrock-converse", "Bedrock Converse has no such setting"),
        ("ollama", "Ollama has no verbosity setting"),
    ],
)
@pytest.mark.parametrize("source", ["openai-chat", "openai-responses"])
def test_a_format_with_no_verbosity_reports_it(source: str, target: str, why: str) -> None:
    body = {**_CHAT, "verbosity": "low"} if source == "openai-chat" else {**_RESPONSES, "text": {"verbosity": "low"}}
    out, losses = _convert(body, source, target)
    assert [(loss.path, loss.what, loss.why) for loss in losses] == [("$.verbosity", "verbosity", why)]
    assert "low" not in str(out)


def test_a_word_canonical_does_not_know_goes_back_as_it_came() -> None:
    """A later word (or a wrong one) is not read: each API gets it back, another reports it."""
    chat = {**_CHAT, "verbosity": "max"}
    assert chatcodec.decode_request("openai-chat", chat).verbosity is None
    assert _convert(chat, "openai-chat", "openai-chat") == (chat, [])
    _, losses = _convert(chat, "openai-chat", "openai-responses")
    assert [loss.what for loss in losses] == ["openai-chat data ['verbosity']"]
    responses = {**_RESPONSES, "text": {"verbosity": "max"}}
    assert chatcodec.decode_request("openai-responses", responses).verbosity is None
    assert _convert(responses, "openai-responses", "openai-responses") == (responses, [])


def test_canonical_verbosity_is_validated() -> None:
    with pytest.raises(ValidationError, match="'low', 'medium' or 'high'"):
        chatcodec.ChatRequest.model_validate({"messages": [], "verbosity": "loud"})
    assert chatcodec.ChatRequest(verbosity="high").model_dump()["verbosity"] == "high"


@pytest.mark.parametrize("target", ["openai-responses", "anthropic", "openai-chat"])
def test_the_direct_paths_agree_with_the_canonical_path(target: str) -> None:
    """An agent's usual request with ``verbosity`` beside it: a direct path (``chatcodec._direct``)
    gives what its oracle, the canonical path, gives."""
    from chatcodec._direct.table import canonical_only

    tool = {"type": "function", "function": {"name": "read", "parameters": {"type": "object"}}}
    body = {**_CHAT, "tools": [tool], "verbosity": "high", "reasoning": {"effort": "low"}}
    direct = _convert(body, "openai-chat", target)
    with canonical_only():
        assert _convert(body, "openai-chat", target) == direct
