"""Law: streamed == non-streamed.

* A recorded stream accumulates to the non-streamed body of the same request (a recording
  of it, or the SDK's own accumulation of the stream), in the pair's normal form (separate
  live recordings differ in ids and timestamps).
* Every recorded response, and every generated response as the codec carries it
  (``decode(encode_response(r))``), replayed as canonical events under any chunking, encoded
  as the codec's stream and accumulated, is that response again in the entry's
  ``same_result`` normal form, with no loss and SDK-valid events (a response with no finish,
  as a format whose bodies carry none gives it, replays as a stream cut before its finish).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from chatcodec.testing._answers import chat_responses
from chatcodec.testing._chunking import Splitter, chunkings
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.normal_forms import without_provider_data
from chatcodec.testing._laws.registry import law
from chatcodec.testing._laws.suite import Suite
from chatcodec.testing._replay import events_from_response


def _pairs(suite: Suite) -> list[tuple[ProviderEntry, str]]:
    return [(entry, pair.stream) for entry in suite.streaming for pair in entry.stream_pairs()]


@law(_pairs)
def recorded_stream_accumulates_to_its_non_streamed_response(provider: ProviderEntry, stream: str) -> None:
    pair = next(pair for pair in provider.stream_pairs() if pair.stream == stream)
    streamed = chatcodec.accumulate_stream(provider.name, provider.stream_text(pair.stream))
    whole = chatcodec.decode_response(provider.name, pair.response())
    assert pair.comparable(streamed) == pair.comparable(whole)
    if streamed.usage is not None:
        assert streamed.usage == whole.usage


def replayed(
    provider: ProviderEntry, response: chatcodec.ChatResponse, split: Splitter, fixture: str = ""
) -> chatcodec.ChatResponse:
    """``response`` as canonical events, encoded as the codec's stream (SDK-checked, no
    loss) and accumulated again."""
    losses: list[chatcodec.Loss] = []
    events = events_from_response(response, split)
    wire = list(chatcodec.encode_stream(provider.name, events, on_loss="ignore", losses=losses))
    assert losses == []
    provider.check_stream([provider.for_sdk(fixture, event) for event in wire])
    return accumulated_as(provider.name, wire, response)


def accumulated_as(name: str, wire: list[Any], response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    """The stream ``wire`` that replays ``response``, accumulated: read as a cut stream
    (``partial=True``) when a choice of the response has no finish, since a stream whose format
    ends on the finish (an AG-UI run's ``RUN_FINISHED``) then ends without its last event."""
    unfinished = any(choice.finish_reason is None for choice in response.choices)
    return chatcodec.accumulate_stream(name, wire, partial=unfinished)


def _sevens(text: str) -> list[str]:
    return [text[start : start + 7] for start in range(0, len(text), 7)]


def _replayable(suite: Suite) -> list[tuple[ProviderEntry, str]]:
    """Every recorded response of a codec that streams but the ones its ``stream_gaps``
    names, each with its bug."""
    return [
        (entry, name)
        for entry in suite.streaming
        for name in entry.recorded["response"]
        if name not in entry.stream_gaps
    ]


@law(_replayable)
def recorded_response_replayed_as_a_stream_accumulates_back(provider: ProviderEntry, name: str) -> None:
    response = chatcodec.decode_response(provider.name, provider.load("response", name))
    again = replayed(provider, response, _sevens, name)
    assert provider.same_result(again) == provider.same_result(response)


def known_finish_words(response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    """Without a raw word for an ``other`` reason: codecs pass an unknown word spelled their
    wire's way through on purpose (a reason added after the codec was written), which
    today's SDK types cannot know."""
    choices = [
        choice.model_copy(update={"finish_reason": chatcodec.FinishReason(unified="other")})
        if choice.finish_reason is not None and choice.finish_reason.unified == "other"
        else choice
        for choice in response.choices
    ]
    return response.model_copy(update={"choices": choices})


@law(lambda suite: suite.streaming)
@given(data=st.data())
def generated_response_streams_as_it_encodes(provider: ProviderEntry, data: st.DataObject) -> None:
    generated = data.draw(chat_responses(finished=True).map(without_provider_data).map(known_finish_words), "response")
    split = data.draw(chunkings(), "split")
    body = chatcodec.encode_response(provider.name, generated, on_loss="ignore")
    provider.check_response(body)
    whole = chatcodec.decode_response(provider.name, body)
    assert provider.same_result(replayed(provider, whole, split)) == provider.same_result(whole)
