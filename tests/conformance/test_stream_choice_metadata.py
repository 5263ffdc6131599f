"""Law: a choice's and its message's metadata survive a replayed stream.

* Accumulating ``events_from_response(r)`` gives ``r`` back exactly (content as a list of
  parts; a message's ``name`` and cache breakpoint have no event), for every generated
  response, among them a choice with a bag and no finish reason and a message with a bag.
* For every provider P, a response as P carries it, with the kind of bag P's own decoder
  writes on a choice and on its message: encoded as P's stream (from the replayed events)
  and accumulated, it is what ``decode_response(encode_response(r))`` gives, and the
  stream reports a loss for a bag exactly when ``encode_response`` does (streamed ==
  non-streamed, or a loss on both sides; never a silent drop on one).
* A choice with a bag and no finish reason: P's stream gives the bag back, or reports it.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from chatcodec.streams._replay import events_from_response
from chatcodec.testing import Splitter, chat_responses, chunkings, json_objects
from conformance.entry import ProviderEntry
from conformance.normal_forms import without_provider_data
from conformance.providers import (
    PROVIDER,
    PROVIDER_NAMES,
    PROVIDERS,
    STREAMING,
    STREAMING_NAMES,
    case_id,
    fixture_cases,
)


def _choice_bag(name: str) -> dict[str, Any]:
    """A choice's bag as the provider's decoder writes one (its entry's sample)."""
    return dict(PROVIDER[name].bags.choice)


def _message_bag(name: str) -> dict[str, Any] | None:
    """A message's bag as the provider's decoder writes one, or None where it has none."""
    message = PROVIDER[name].bags.message
    return None if message is None else dict(message)


def _sample_keys() -> set[str]:
    """The keys of every provider's sample bags."""
    bags = [bag for provider in PROVIDERS for bag in (provider.bags.choice, provider.bags.message)]
    return {key for bag in bags for key in bag or {}}


def _with_bags(response: chatcodec.ChatResponse, choice_bag: Any, message_bag: Any) -> chatcodec.ChatResponse:
    """``response`` with ``choice_bag`` merged into every choice's bag and ``message_bag``
    into every message's (each a ``provider_metadata`` value, or None for none)."""
    choices = [
        choice.model_copy(
            update={
                "provider_metadata": _merged(choice.provider_metadata, choice_bag),
                "message": choice.message.model_copy(
                    update={"provider_metadata": _merged(choice.message.provider_metadata, message_bag)}
                ),
            }
        )
        for choice in response.choices
    ]
    return response.model_copy(update={"choices": choices})


def _merged(metadata: Any, extra: Any) -> Any:
    if extra is None:
        return metadata
    merged = {provider: dict(bag) for provider, bag in (metadata or {}).items()}
    for provider, bag in extra.items():
        merged.setdefault(provider, {}).update(bag)
    return merged


# --- the canonical law ---------------------------------------------------------------------


def _replayable(response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    """List content, no message ``name`` or ``cache_control`` (no event carries them)."""
    choices = [
        choice.model_copy(
            update={
                "message": choice.message.model_copy(
                    update={"content": choice.message.parts, "name": None, "cache_control": None}
                ),
                "logprobs": choice.logprobs if _tokens_replayed(choice) else None,
            }
        )
        for choice in response.choices
    ]
    return response.model_copy(update={"choices": choices})


def _tokens_replayed(choice: chatcodec.ResponseChoice) -> bool:
    """Whether replay carries the choice's ``logprobs``: on its finish, or (unfinished) on
    a text part streamed as deltas; an unfinished choice with neither has no event for
    them (``events_from_response``)."""
    return choice.finish_reason is not None or any(
        isinstance(part, chatcodec.TextPart) and part.cache_control is None for part in choice.message.parts
    )


_BAGS = st.dictionaries(st.sampled_from([*PROVIDER_NAMES, "acme"]), json_objects(), min_size=1, max_size=2)
"""Non-empty ``provider_metadata``: any provider's bag, any JSON object."""


@st.composite
def _responses_with_choice_and_message_bags(draw: st.DrawFn) -> chatcodec.ChatResponse:
    """A generated response whose first choice has a bag and no finish reason, and whose
    every message has a bag (any provider's, any JSON)."""
    response = draw(chat_responses())
    first = response.choices[0].model_copy(update={"finish_reason": None, "provider_metadata": draw(_BAGS)})
    response = response.model_copy(update={"choices": [first, *response.choices[1:]]})
    return _with_bags(response, None, draw(_BAGS))


@given(response=_responses_with_choice_and_message_bags().map(_replayable), split=chunkings())
def test_replayed_events_accumulate_to_the_response_with_every_bag(
    response: chatcodec.ChatResponse, split: Splitter
) -> None:
    events = list(events_from_response(response, split))
    assert any(isinstance(event, chatcodec.ChoiceMetadataEvent) for event in events)
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(events)
    assert accumulator.response() == response
    assert accumulator.response().choices[0].finish_reason is None


def test_a_choice_with_nothing_in_it_is_replayed() -> None:
    empty = chatcodec.ResponseChoice(index=1, message=chatcodec.AssistantMessage(content=[]))
    full = chatcodec.ResponseChoice(message=chatcodec.AssistantMessage(content=[chatcodec.TextPart(text="hi")]))
    response = chatcodec.ChatResponse(choices=[full, empty])
    events = list(events_from_response(response))
    assert events[-1] == chatcodec.ChoiceMetadataEvent(choice=1)
    assert _accumulated(events) == response


def _accumulated(events: list[chatcodec.AnyStreamEvent]) -> chatcodec.ChatResponse:
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(events)
    return accumulator.response()


# --- every provider's stream -------------------------------------------------------------------


def _known_finish_words(response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    """Every choice finished, with a raw word the SDK types know (see the streamed ==
    non-streamed law: an ``other`` word passes through as written)."""
    choices = [
        choice.model_copy(
            update={
                "finish_reason": chatcodec.FinishReason(unified="stop")
                if choice.finish_reason is None or choice.finish_reason.unified == "other"
                else choice.finish_reason
            }
        )
        for choice in response.choices
    ]
    return response.model_copy(update={"choices": choices})


def _bag_losses(losses: list[chatcodec.Loss]) -> list[str]:
    """The losses of the sample bags' keys, by what they say was lost."""
    keys = _sample_keys()
    return sorted(loss.what for loss in losses if any(repr(key) in loss.what for key in keys))


def _as_provider_carries(provider: ProviderEntry, response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    body = chatcodec.encode_response(provider.name, response, on_loss="ignore")
    return chatcodec.decode_response(provider.name, body)


@given(data=st.data())
@pytest.mark.parametrize("name", STREAMING_NAMES)
def test_choice_and_message_bags_stream_as_they_encode(name: str, data: st.DataObject) -> None:
    provider = PROVIDER[name]
    generated = data.draw(chat_responses(finished=True).map(without_provider_data).map(_known_finish_words), "response")
    message_bag = _message_bag(name)
    carried = _as_provider_carries(provider, generated)
    choice_bag = _choice_bag(name)
    if any(choice.logprobs is not None for choice in carried.choices):
        # canonical tokens take the place of a bag's, reported (test_logprobs_canonical_over_bag.py)
        choice_bag.pop("logprobs", None)
    response = _with_bags(carried, {name: choice_bag}, None if message_bag is None else {name: message_bag})
    whole_losses: list[chatcodec.Loss] = []
    whole = chatcodec.decode_response(
        name, chatcodec.encode_response(name, response, on_loss="ignore", losses=whole_losses)
    )

    stream_losses: list[chatcodec.Loss] = []
    events = events_from_response(response, data.draw(chunkings(), "split"))
    wire = list(chatcodec.encode_stream(name, events, on_loss="ignore", losses=stream_losses))
    provider.check_stream(wire)
    streamed = chatcodec.accumulate_stream(name, wire)

    if not _bag_losses(stream_losses):  # carried: exactly as the non-streamed body carries them
        assert provider.same_result(streamed) == provider.same_result(whole)
        assert _bag_losses(whole_losses) == []
        assert (streamed.choices[0].provider_metadata or {}).get(name, {}).items() >= _without_nulls(choice_bag).items()
        if message_bag is not None:
            streamed_message_bag = (streamed.choices[0].message.provider_metadata or {})[name]
            assert streamed_message_bag.items() >= _without_nulls(message_bag).items()
    else:  # reported: what arrives is the rest, the same as without the bags
        assert provider.same_result(streamed) == provider.same_result(_without_sample_bags(whole))
        assert provider.bags.stream_place == "none"


def _without_sample_bags(response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    """``response`` without the sample bags' keys on its choices and messages."""
    keys = _sample_keys()

    def kept(metadata: Any) -> Any:
        bags = {provider: {k: v for k, v in bag.items() if k not in keys} for provider, bag in (metadata or {}).items()}
        return {provider: bag for provider, bag in bags.items() if bag} or None

    return _with_bags_replaced(response, kept)


def _with_bags_replaced(response: chatcodec.ChatResponse, change: Any) -> chatcodec.ChatResponse:
    """``response`` with ``change`` applied to every choice's and message's bag."""
    choices = [
        choice.model_copy(
            update={
                "provider_metadata": change(choice.provider_metadata),
                "message": choice.message.model_copy(
                    update={"provider_metadata": change(choice.message.provider_metadata)}
                ),
            }
        )
        for choice in response.choices
    ]
    return response.model_copy(update={"choices": choices})


def _without_nulls(bag: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in bag.items() if value is not None}


@pytest.mark.parametrize("name", STREAMING_NAMES)
def test_a_choice_bag_without_a_finish_reason_streams_or_is_reported(name: str) -> None:
    provider = PROVIDER[name]
    bag = {name: _choice_bag(name)}
    choice = chatcodec.ResponseChoice(
        message=chatcodec.AssistantMessage(content=[chatcodec.TextPart(text="Otters hold hands")]),
        provider_metadata=bag,
    )
    response = chatcodec.ChatResponse(id="resp_1", model="m", choices=[choice])
    losses: list[chatcodec.Loss] = []
    wire = list(chatcodec.encode_stream(name, events_from_response(response), on_loss="ignore", losses=losses))
    provider.check_stream(wire)
    streamed = chatcodec.accumulate_stream(name, wire, partial=True)  # no finish: the stream ends as a cut one
    if provider.bags.stream_place == "on any event":
        # the law is the choice's bag: a format with no response id reports that apart
        assert [loss for loss in losses if loss.path.startswith("$.choices")] == []
        assert streamed.choices[0].finish_reason is None
        assert streamed.choices[0].provider_metadata == bag
    else:
        assert _bag_losses(losses), losses
        assert streamed.choices[0].message.text == "Otters hold hands"


def _cut_before_the_finish(response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    return response.model_copy(
        update={"choices": [choice.model_copy(update={"finish_reason": None}) for choice in response.choices]}
    )


def _has_bags(provider: ProviderEntry, name: str) -> bool:
    response = chatcodec.decode_response(provider.name, provider.load("response", name))
    return any(choice.provider_metadata or choice.message.provider_metadata for choice in response.choices)


WITH_BAGS = [
    (provider, name)
    for provider, name in fixture_cases("response")
    if provider.name in STREAMING_NAMES and name not in provider.stream_gaps and _has_bags(provider, name)
]
"""Recorded responses with a choice or message bag (of the providers whose entry says so),
of the codecs that stream."""


def test_recorded_responses_with_bags_are_the_ones_the_entries_name() -> None:
    assert {provider.name for provider, _name in WITH_BAGS} == {p.name for p in STREAMING if p.bags.recorded}
    assert len(WITH_BAGS) >= 14


@pytest.mark.parametrize(("provider", "name"), WITH_BAGS, ids=case_id)
def test_a_recorded_answer_cut_before_its_finish_keeps_its_bags_or_reports_them(
    provider: ProviderEntry, name: str
) -> None:
    cut = _cut_before_the_finish(chatcodec.decode_response(provider.name, provider.load("response", name)))
    losses: list[chatcodec.Loss] = []
    wire = list(chatcodec.encode_stream(provider.name, events_from_response(cut), on_loss="ignore", losses=losses))
    provider.check_stream([provider.for_sdk(name, event) for event in wire])
    with pytest.raises(chatcodec.StreamError, match="cut off"):
        chatcodec.accumulate_stream(provider.name, wire)
    streamed = chatcodec.accumulate_stream(provider.name, wire, partial=True)
    assert all(choice.finish_reason is None for choice in streamed.choices)
    if losses:  # only the bags a stream cannot give without a finish (such as a message's annotations)
        assert provider.bags.stream_place != "on any event"
        assert {loss.what.split(" data ")[0] for loss in losses} == {provider.name}
        assert provider.same_result(streamed) == provider.same_result(_without_bags(cut))
    else:
        assert provider.same_result(streamed) == provider.same_result(cut)


def _without_bags(response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    """``response`` without its choices' and messages' bags (what the loss reported)."""
    return _with_bags_replaced(response, lambda _metadata: None)
