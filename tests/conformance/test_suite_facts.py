"""What this repository's suite of entries gives the shipped laws: no law over entry data is
vacuous here (an empty case list would only skip), the recordings are as the entries pin
them, and the canonical replay the stream laws stand on gives every response back."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from chatcodec.testing import Splitter, chat_responses, chunkings, events_from_response, json_objects
from chatcodec.testing._laws import law_losses, law_server_facts, law_silent_changes, law_stream_metadata
from chatcodec.testing._laws.suite import Suite
from conformance.providers import PROVIDER_NAMES, PROVIDERS, STREAMING

SUITE = Suite.of(PROVIDERS)


def test_every_provider_has_recordings_of_every_kind() -> None:
    """Each kind is recorded, as many files as the provider's entry says (a fixture lost
    or added without its entry changing fails here)."""
    counts = {provider.name: {kind: len(names) for kind, names in provider.recorded.items()} for provider in PROVIDERS}
    assert counts == {provider.name: dict(provider.recordings) for provider in PROVIDERS}
    assert all(count > 0 for kinds in counts.values() for count in kinds.values()), counts


def test_every_provider_pairs_recorded_streams() -> None:
    counts = {provider.name: len(provider.stream_pairs()) for provider in PROVIDERS}
    assert counts == {provider.name: provider.stream_pair_count for provider in PROVIDERS}
    assert all(count > 0 for count in counts.values()), counts


def test_the_cross_provider_law_applies_to_some_recordings() -> None:
    """Not vacuous: some recorded requests cross and come back with no loss reported."""
    applied = [
        (source.name, name)
        for source, name, via in law_losses.recorded_pairs(SUITE)
        if law_losses.there_and_back(source.load("request", name), source, via)
    ]
    # 15 of 26 when written; 9 since a request without max_tokens reports that a provider
    # requires one (no silent default), as most recordings lack it
    assert len(applied) >= 8, applied


def test_the_laws_over_entry_data_are_not_vacuous() -> None:
    assert law_silent_changes.own_parameters(SUITE)
    assert law_silent_changes.reparsing(SUITE)
    assert law_silent_changes.response_markers(SUITE)
    assert law_silent_changes.twins(SUITE)


def test_every_meaningful_marker_has_a_payload() -> None:
    """A request marker has a request that makes its decoder write it; a marker only a response
    decoder writes (an answer's echo of the turn it answered) has a response."""
    declared = {(name, marker) for name in PROVIDER_NAMES for marker in chatcodec.contract.meaningful_markers(name)}
    requests = {(source.name, marker) for source, marker, _ in law_silent_changes.meaningful(SUITE)}
    responses = {(source.name, marker) for source, marker, _ in law_silent_changes.response_markers(SUITE)}
    assert declared == requests | responses


def test_recorded_responses_with_bags_are_the_ones_the_entries_name() -> None:
    with_bags = law_stream_metadata.with_bags(SUITE)
    assert {provider.name for provider, _name in with_bags} == {p.name for p in STREAMING if p.bags.recorded}
    assert len(with_bags) >= 14


def test_the_metadata_law_applies_to_some_format() -> None:
    """Not vacuous: some format has no place for a response's id."""
    reported = []
    for name in PROVIDER_NAMES:
        losses: list[chatcodec.Loss] = []
        chatcodec.encode_response(name, law_server_facts.RESPONSE, on_loss="ignore", losses=losses)
        reported += [name] if law_server_facts.metadata_kinds(losses) else []
    assert reported


def test_the_gateway_facts_are_not_empty() -> None:
    """The edge laws over model lists and token counts have codecs to run over."""
    edges = [chatcodec.get_codec(name).edge for name in PROVIDER_NAMES]  # type: ignore[attr-defined]
    assert any(edge.front is not None and edge.front.models is not None for edge in edges)
    assert any(edge.front is not None and edge.front.count_tokens is not None for edge in edges)


# --- the canonical replay the stream laws stand on ------------------------------------------


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
    return law_stream_metadata.bags_merged(response, None, draw(_BAGS))


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
