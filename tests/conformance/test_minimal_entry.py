"""``ProviderEntry.minimal``: a new provider's entry states only what its documentation
gives; what the registry name and the fixture folder tell is derived, and agrees with
what every full entry states."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chatcodec.testing._laws.entry import NO_BAGS, ProviderEntry, no_sdk_oracle
from conformance.providers import PROVIDERS, by_name


def _minimal(entry: ProviderEntry, **stated: object) -> ProviderEntry:
    return ProviderEntry.minimal(
        entry.name,
        finish_reasons=entry.finish_reasons,
        with_finish_reason=entry.with_finish_reason,
        finish_reason_fixture=entry.finish_reason_fixture,
        streams=entry.streams,
        shaped_responses=entry.shaped_responses,
        single_hop=entry.single_hop,
        tool_name_rule=entry.tool_name_rule,
        deep_kept_value=entry.deep_kept_value,
        **{"fixtures": entry.fixtures, **stated},
    )


@pytest.mark.parametrize("entry", PROVIDERS, ids=by_name)
def test_a_minimal_entry_counts_the_recordings_a_full_entry_pins(entry: ProviderEntry) -> None:
    assert _minimal(entry).recordings == dict(entry.recordings)


@pytest.mark.parametrize("entry", PROVIDERS, ids=by_name)
def test_a_minimal_entry_names_the_vendor_word_a_full_entry_lists(entry: ProviderEntry) -> None:
    (word,) = _minimal(entry).names_in_prose
    assert word in entry.names_in_prose


@pytest.mark.parametrize("entry", PROVIDERS, ids=by_name)
def test_a_minimal_entry_counts_the_stream_pairs_it_is_given(entry: ProviderEntry) -> None:
    assert _minimal(entry, pair_streams=entry.pair_streams).stream_pair_count == entry.stream_pair_count


def test_a_minimal_entry_has_no_sdk_oracle_no_stream_pairs_and_no_bags() -> None:
    entry = _minimal(PROVIDERS[0])
    assert (entry.check_request, entry.check_response, entry.check_stream) == (no_sdk_oracle,) * 3
    assert entry.stream_pairs() == []
    assert entry.stream_pair_count == 0
    assert entry.bags == NO_BAGS


def test_what_a_minimal_entry_is_given_wins_over_what_it_derives() -> None:
    entry = _minimal(PROVIDERS[0], names_in_prose=("otter",), recordings={"request": 1}, stream_pair_count=7)
    assert (entry.names_in_prose, entry.recordings, entry.stream_pair_count) == (("otter",), {"request": 1}, 7)


def test_an_entry_whose_fixture_folder_lacks_a_kind_lists_none_of_it() -> None:
    """A codec without streams has no ``stream/`` folder (git keeps no empty one): the
    entry lists no recorded streams rather than failing the collection of every law."""
    entry = replace(PROVIDERS[0], fixtures=PROVIDERS[0].folder.parent / "no-such-fixture-folder")
    assert entry.recorded == {"request": [], "response": [], "stream": []}
