"""A choice's canonical ``logprobs`` are its tokens, wherever else a spelling of them was kept.

Found when the shipped strategies (``chatcodec.testing``) began drawing logprobs on responses
and stream events:

- A choice may hold canonical tokens *and* a bag ``logprobs`` (a spelling its reader did not
  take: OpenAI Chat's ``{"content": []}`` without ``refusal``, an Ollama list spelled with
  ``null`` keys). OpenAI Chat's and Ollama's body writers let the bag's win, dropping the
  canonical tokens unreported, while their stream writers let the canonical win, dropping the
  bag's unreported. Both now write the canonical tokens (OpenAI's ``ChoiceLogprobs``, Ollama's
  ``api.Logprob`` list) and report the bag's when it differs.
- ``events_from_response`` gave an unfinished choice's tokens no event (only a finish carried
  them), so accumulating the replay lost them; they now ride on the first delta of the
  choice's first streamed text part, as a stream cut before its finish gave them.
"""

from __future__ import annotations

from typing import Any

import pytest
from openai.types.chat import ChatCompletion, ChatCompletionChunk

import chatcodec
from chatcodec import AssistantMessage, ChatResponse, FinishReason, ResponseChoice, TextDeltaEvent, TextPart
from chatcodec.streams._replay import events_from_response

TOKENS = [
    {"token": "Hi", "logprob": -0.25, "bytes": [72, 105], "top_logprobs": [{"token": "Hey", "logprob": -1.5}]},
    {"token": "!", "logprob": -0.5},
]
KEPT = {"content": []}
"""An OpenAI-style ``logprobs`` a reader keeps in the bag: no ``refusal`` key, so not the
``ChoiceLogprobs`` spelling it takes."""


def _response(provider: str, *, kept: object = KEPT, finished: bool = True) -> ChatResponse:
    return ChatResponse(
        id="r-1",
        model="m",
        created=1,
        choices=[
            ResponseChoice(
                message=AssistantMessage(content=[TextPart(text="Hi!")]),
                finish_reason=FinishReason(unified="stop", raw="stop") if finished else None,
                logprobs=TOKENS,
                provider_metadata={provider: {"logprobs": kept}},
            )
        ],
    )


def _logprob_losses(losses: list[chatcodec.Loss]) -> list[chatcodec.Loss]:
    return [loss for loss in losses if "'logprobs'" in loss.what]


@pytest.mark.parametrize("provider", ["openai-chat", "ollama"])
def test_a_body_writes_the_canonical_tokens_over_the_bags_and_reports_the_bags(provider: str) -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_response(provider, _response(provider), on_loss="ignore", losses=losses)
    if provider == "openai-chat":
        ChatCompletion.model_validate(body)
    read = chatcodec.decode_response(provider, body)
    assert read.choices[0].model_dump(mode="json")["logprobs"] == [
        token.model_dump(mode="json") for token in _response(provider).choices[0].logprobs or ()
    ]
    [loss] = _logprob_losses(losses)
    assert loss.path == "$.choices[0].logprobs"
    assert "take its place" in loss.why


@pytest.mark.parametrize("provider", ["openai-chat", "ollama"])
def test_a_stream_writes_the_canonical_tokens_over_the_bags_and_reports_the_bags(provider: str) -> None:
    losses: list[chatcodec.Loss] = []
    events = events_from_response(_response(provider))
    wire = list(chatcodec.encode_stream(provider, events, on_loss="ignore", losses=losses))
    if provider == "openai-chat":
        for chunk in wire:
            ChatCompletionChunk.model_validate(chunk)
    streamed = chatcodec.accumulate_stream(provider, wire)
    assert streamed.choices[0].logprobs == _response(provider).choices[0].logprobs
    [loss] = _logprob_losses(losses)
    assert loss.path.endswith("choice_metadata.logprobs")


@pytest.mark.parametrize("provider", ["openai-chat", "ollama"])
def test_a_bag_spelling_equal_to_what_is_written_is_no_loss(provider: str) -> None:
    written: Any = chatcodec.encode_response(provider, _response(provider), on_loss="ignore")
    same = written["choices"][0]["logprobs"] if provider == "openai-chat" else written["logprobs"]
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_response(provider, _response(provider, kept=same), on_loss="ignore", losses=losses)
    assert _logprob_losses(losses) == []


def test_replay_gives_an_unfinished_choices_tokens_on_its_first_text_delta() -> None:
    response = _response("acme", finished=False).model_copy(deep=True)
    response.choices[0].provider_metadata = None
    events = list(events_from_response(response, list))
    deltas = [event for event in events if isinstance(event, TextDeltaEvent)]
    assert [delta.delta for delta in deltas] == ["H", "i", "!"]
    assert deltas[0].logprobs == response.choices[0].logprobs
    assert all(delta.logprobs is None for delta in deltas[1:])
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(events)
    assert accumulator.response() == response


def test_replay_gives_an_empty_text_one_empty_delta_to_carry_the_tokens() -> None:
    response = ChatResponse(
        choices=[ResponseChoice(message=AssistantMessage(content=[TextPart(text="")]), logprobs=TOKENS)]
    )
    events = list(events_from_response(response))
    [delta] = [event for event in events if isinstance(event, TextDeltaEvent)]
    assert delta.delta == ""
    assert delta.logprobs == response.choices[0].logprobs
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(events)
    assert accumulator.response() == response
