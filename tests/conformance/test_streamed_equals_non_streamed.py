"""Law: streamed == non-streamed.

* A recorded stream accumulates to the non-streamed body of the same request (a
  recording of it, or the provider SDK's own accumulation of the stream), in the
  pair's normal form (separate live recordings differ in ids and timestamps).
* Every recorded response, and every generated response as the provider carries it
  (``decode(encode_response(r))``), replayed as canonical events under any chunking,
  encoded as the provider's stream and accumulated, is that response again in the
  provider's ``same_result`` normal form, with no loss and SDK-valid events.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from chatcodec.streams._replay import events_from_response
from chatcodec.testing import Splitter, chat_responses, chunkings
from conformance.entry import ProviderEntry, StreamPair
from conformance.normal_forms import without_provider_data
from conformance.providers import PROVIDER, PROVIDERS, STREAMING, STREAMING_NAMES, case_id, fixture_cases

PAIRS = [(provider, pair) for provider in STREAMING for pair in provider.stream_pairs()]


def _pair_id(case: object) -> str:
    return case.stream if isinstance(case, StreamPair) else case_id(case)


def test_every_provider_pairs_recorded_streams() -> None:
    counts = {provider.name: len(provider.stream_pairs()) for provider in PROVIDERS}
    assert counts == {provider.name: provider.stream_pair_count for provider in PROVIDERS}
    assert all(count > 0 for count in counts.values()), counts


@pytest.mark.parametrize(("provider", "pair"), PAIRS, ids=_pair_id)
def test_recorded_stream_accumulates_to_its_non_streamed_response(provider: ProviderEntry, pair: StreamPair) -> None:
    streamed = chatcodec.accumulate_stream(provider.name, provider.stream_text(pair.stream))
    whole = chatcodec.decode_response(provider.name, pair.response())
    assert pair.comparable(streamed) == pair.comparable(whole)
    if streamed.usage is not None:
        assert streamed.usage == whole.usage


def _replayed(
    provider: ProviderEntry, response: chatcodec.ChatResponse, split: Splitter, fixture: str = ""
) -> chatcodec.ChatResponse:
    """``response`` as canonical events, encoded as the provider's stream (SDK-checked,
    no loss) and accumulated again."""
    losses: list[chatcodec.Loss] = []
    events = events_from_response(response, split)
    wire = list(chatcodec.encode_stream(provider.name, events, on_loss="ignore", losses=losses))
    assert losses == []
    provider.check_stream([provider.for_sdk(fixture, event) for event in wire])
    return chatcodec.accumulate_stream(provider.name, wire)


def _sevens(text: str) -> list[str]:
    return [text[start : start + 7] for start in range(0, len(text), 7)]


REPLAYABLE = [
    (provider, name)
    for provider, name in fixture_cases("response")
    if name not in provider.stream_gaps and provider.name in STREAMING_NAMES
]
"""Every recorded response but the ones a provider's ``stream_gaps`` names, each with its bug."""


@pytest.mark.parametrize(("provider", "name"), REPLAYABLE, ids=case_id)
def test_recorded_response_replayed_as_a_stream_accumulates_back(provider: ProviderEntry, name: str) -> None:
    response = chatcodec.decode_response(provider.name, provider.load("response", name))
    replayed = _replayed(provider, response, _sevens, name)
    assert provider.same_result(replayed) == provider.same_result(response)


def _known_finish_words(response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    """Without a raw word for an ``other`` reason: codecs pass an unknown word spelled
    their provider's way through on purpose (a reason added after the codec was written),
    which today's SDK types cannot know."""
    choices = [
        choice.model_copy(update={"finish_reason": chatcodec.FinishReason(unified="other")})
        if choice.finish_reason is not None and choice.finish_reason.unified == "other"
        else choice
        for choice in response.choices
    ]
    return response.model_copy(update={"choices": choices})


@given(data=st.data())
@pytest.mark.parametrize("name", STREAMING_NAMES)
def test_generated_response_streams_as_it_encodes(name: str, data: st.DataObject) -> None:
    provider = PROVIDER[name]
    generated = data.draw(chat_responses(finished=True).map(without_provider_data).map(_known_finish_words), "response")
    split = data.draw(chunkings(), "split")
    body = chatcodec.encode_response(provider.name, generated, on_loss="ignore")
    provider.check_response(body)
    whole = chatcodec.decode_response(provider.name, body)
    assert provider.same_result(_replayed(provider, whole, split)) == provider.same_result(whole)
