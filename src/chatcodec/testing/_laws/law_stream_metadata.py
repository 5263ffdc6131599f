"""Law: a choice's and its message's metadata survive a stream.

* For every codec P that streams, a response as P carries it, with the kind of bag P's own
  decoder writes on a choice and on its message (its entry's ``bags``): encoded as P's stream
  (from the replayed events) and accumulated, it is what ``decode_response(encode_response(r))``
  gives, and the stream reports a loss for a bag exactly when ``encode_response`` does
  (streamed == non-streamed, or a loss on both sides; never a silent drop on one).
* A choice with a bag and no finish reason: P's stream gives the bag back, or reports it.
* A recorded answer with bags, cut before its finish, keeps its bags or reports them.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from chatcodec.testing._answers import chat_responses
from chatcodec.testing._chunking import chunkings
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.law_streamed import accumulated_as
from chatcodec.testing._laws.normal_forms import without_provider_data
from chatcodec.testing._laws.registry import law, raises
from chatcodec.testing._laws.suite import Suite
from chatcodec.testing._replay import events_from_response


def _sample_keys(provider: ProviderEntry) -> set[str]:
    """The keys of the codec's sample bags."""
    return {key for bag in (provider.bags.choice, provider.bags.message) for key in bag or {}}


def bags_merged(response: chatcodec.ChatResponse, choice_bag: Any, message_bag: Any) -> chatcodec.ChatResponse:
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


def _merged(metadata: dict[str, dict[str, Any]] | None, extra: dict[str, Any] | None) -> Any:
    if extra is None:
        return metadata
    merged: dict[str, dict[str, Any]] = {provider: dict(bag) for provider, bag in (metadata or {}).items()}
    for provider, bag in extra.items():
        merged.setdefault(provider, {}).update(bag)
    return merged


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


def _bag_losses(losses: list[chatcodec.Loss], provider: ProviderEntry) -> list[str]:
    """The losses of the sample bags' keys, by what they say was lost."""
    keys = _sample_keys(provider)
    return sorted(loss.what for loss in losses if any(repr(key) in loss.what for key in keys))


def _as_provider_carries(provider: ProviderEntry, response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    body = chatcodec.encode_response(provider.name, response, on_loss="ignore")
    return chatcodec.decode_response(provider.name, body)


@law(lambda suite: suite.streaming)
@given(data=st.data())
def choice_and_message_bags_stream_as_they_encode(provider: ProviderEntry, data: st.DataObject) -> None:
    name = provider.name
    generated = data.draw(chat_responses(finished=True).map(without_provider_data).map(_known_finish_words), "response")
    message_bag = None if provider.bags.message is None else dict(provider.bags.message)
    carried = _as_provider_carries(provider, generated)
    choice_bag = dict(provider.bags.choice)
    if any(choice.logprobs is not None for choice in carried.choices):
        # canonical tokens take the place of a bag's, reported (test_logprobs_canonical_over_bag.py)
        choice_bag.pop("logprobs", None)
    response = bags_merged(carried, {name: choice_bag}, None if message_bag is None else {name: message_bag})
    whole_losses: list[chatcodec.Loss] = []
    whole = chatcodec.decode_response(
        name, chatcodec.encode_response(name, response, on_loss="ignore", losses=whole_losses)
    )

    stream_losses: list[chatcodec.Loss] = []
    events = events_from_response(response, data.draw(chunkings(), "split"))
    wire = list(chatcodec.encode_stream(name, events, on_loss="ignore", losses=stream_losses))
    provider.check_stream(wire)
    streamed = accumulated_as(name, wire, response)

    if not _bag_losses(stream_losses, provider):  # carried: exactly as the non-streamed body carries them
        assert provider.same_result(streamed) == provider.same_result(whole)
        assert _bag_losses(whole_losses, provider) == []
        assert (streamed.choices[0].provider_metadata or {}).get(name, {}).items() >= _without_nulls(choice_bag).items()
        if message_bag is not None:
            streamed_message_bag = (streamed.choices[0].message.provider_metadata or {})[name]
            assert streamed_message_bag.items() >= _without_nulls(message_bag).items()
    else:  # reported: what arrives is the rest, the same as without the bags
        assert provider.same_result(streamed) == provider.same_result(_without_sample_bags(whole, provider))
        assert provider.bags.stream_place == "none"


def _without_sample_bags(response: chatcodec.ChatResponse, provider: ProviderEntry) -> chatcodec.ChatResponse:
    """``response`` without the sample bags' keys on its choices and messages."""
    keys = _sample_keys(provider)

    def kept(metadata: dict[str, dict[str, Any]] | None) -> Any:
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


@law(lambda suite: suite.streaming)
def a_choice_bag_without_a_finish_reason_streams_or_is_reported(provider: ProviderEntry) -> None:
    name = provider.name
    bag = {name: dict(provider.bags.choice)}
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
        assert _bag_losses(losses, provider), losses
        assert streamed.choices[0].message.text == "Otters hold hands"


def _cut_before_the_finish(response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    return response.model_copy(
        update={"choices": [choice.model_copy(update={"finish_reason": None}) for choice in response.choices]}
    )


def _has_bags(provider: ProviderEntry, name: str) -> bool:
    response = chatcodec.decode_response(provider.name, provider.load("response", name))
    return any(choice.provider_metadata or choice.message.provider_metadata for choice in response.choices)


def with_bags(suite: Suite) -> list[tuple[ProviderEntry, str]]:
    """Recorded responses with a choice or message bag, of the codecs that stream."""
    return [
        (entry, name)
        for entry in suite.streaming
        for name in entry.recorded["response"]
        if name not in entry.stream_gaps and _has_bags(entry, name)
    ]


@law(with_bags)
def a_recorded_answer_cut_before_its_finish_keeps_its_bags_or_reports_them(provider: ProviderEntry, name: str) -> None:
    cut = _cut_before_the_finish(chatcodec.decode_response(provider.name, provider.load("response", name)))
    losses: list[chatcodec.Loss] = []
    wire = list(chatcodec.encode_stream(provider.name, events_from_response(cut), on_loss="ignore", losses=losses))
    provider.check_stream([provider.for_sdk(name, event) for event in wire])
    with raises(chatcodec.StreamError, match="cut off"):
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
    return _with_bags_replaced(response, _no_bags)


def _no_bags(metadata: object) -> None:
    del metadata
