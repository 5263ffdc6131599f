"""Law: a loss is reported if and only if something changed.

One hop: for every provider and any generated request ``r`` (its ``single_hop`` entry in
the provider table), encoding ``r`` reports a loss exactly when decoding the body does not
give ``r`` back, compared in the provider's normal form (its documented silent rewrites
applied to ``r``).

Across providers: for every ordered pair of providers ``A != B`` (of two wires: not one
folder's codec registered twice) and a generated request ``r``
(``chatcodec.testing.chat_requests``, without data of a registered provider, which only
that provider's decoder writes): ``a = encode_A(r)`` is an A request and
``original = decode_A(a)`` the canonical request it says. Converted A -> B -> A
(``convert_request`` both ways), with no loss reported on either hop, the result
``again = decode_A(final)`` must equal the original:

    unmarked(again) == expected   and   final == encode_A(expected)

with canonical model equality (every field, provider bags included), where
``unmarked`` drops the pure-spelling markers of provider bags
(:func:`~conformance.normal_forms.without_spelling_markers`: they record how a value was
spelled, and another provider drops them by design; the markers a provider declares
meaningful, such as a cache breakpoint's key a gateway may read in one spelling only, stay,
so dropping one without a loss breaks the law), and ``expected`` is
``unmarked(original)`` after B's ``silent_rewrites``: the rewrites B documents as
meaning-preserving (each listed in the provider's entry, such as a setting the wire
requires written out). Nothing else may differ: not a turn boundary, not a part.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec.testing import chat_requests, messages
from conformance.entry import ProviderEntry
from conformance.normal_forms import without_provider_data, without_spelling_markers
from conformance.providers import PROVIDER, PROVIDER_NAMES, case_id, one_wire

SINGLE_HOP = settings(max_examples=max(100, settings.default.max_examples), deadline=None)
"""At least the 100 examples per provider the per-provider laws this one replaces ran."""


@SINGLE_HOP
@given(data=st.data())
@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_losses_are_reported_exactly_when_something_changed(name: str, data: st.DataObject) -> None:
    single_hop = PROVIDER[name].single_hop
    request = data.draw(single_hop.requests(), "request")
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(name, request, on_loss="ignore", losses=losses)
    decoded = chatcodec.decode_request(name, body)
    changed = single_hop.decoded(decoded) != single_hop.original(request)
    assert changed == bool(_changes(losses)), (losses, single_hop.decoded(decoded), single_hop.original(request))


PAIRS = [(first, second) for first in PROVIDER_NAMES for second in PROVIDER_NAMES if not one_wire(first, second)]
"""Ordered pairs of two wires (:func:`~conformance.providers.one_wire`): a codec registered
twice converts to itself, keeping its spelling markers, as the single-hop law covers."""


def _expected(original: chatcodec.ChatRequest, source: str, via: str) -> chatcodec.ChatRequest:
    """The original after ``via``'s silent rewrites, then ``source``'s: the last hop encodes
    into ``source`` again, without the spelling markers ``via`` could not carry (such as where
    system turns stood: back home they are leading system messages, joined)."""
    return PROVIDER[source].silent_rewrites(PROVIDER[via].silent_rewrites(without_spelling_markers(original)))


def _there_and_back(payload: dict[str, Any], source: str, via: str) -> bool:
    """Check the law for one ``source`` payload; whether it applied (no loss reported)."""
    original = chatcodec.decode_request(source, payload)
    there: list[chatcodec.Loss] = []
    back: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(payload, source=source, target=via, on_loss="ignore", losses=there)
    final = chatcodec.convert_request(converted, source=via, target=source, on_loss="ignore", losses=back)
    if _changes(there) or _changes(back):
        return False  # something was reported: the law says nothing about the result
    expected = _expected(original, source, via)
    assert without_spelling_markers(chatcodec.decode_request(source, final)) == expected
    assert final == chatcodec.encode_request(source, expected, on_loss=_CHANGES_ERROR)
    return True


_CHANGES_ERROR: chatcodec.OnLoss = {"required": "ignore", "*": "error"}


def _changes(losses: list[chatcodec.Loss]) -> list[chatcodec.Loss]:
    """The losses that say something changed: a ``required`` one says the body lacks a
    field the target requires (``model`` of a request whose format keeps it in the URL), which
    nothing in the request held."""
    return [loss for loss in losses if loss.kind != "required"]


_SINGLE_MESSAGES = st.builds(chatcodec.ChatRequest, messages=st.lists(messages(), max_size=1))
"""Small requests too: most large generated ones lose something, and one loss would hide
an unreported change beside it."""


@given(data=st.data())
@pytest.mark.parametrize(("source", "via"), PAIRS)
def test_no_loss_there_and_back_means_nothing_changed(source: str, via: str, data: st.DataObject) -> None:
    generated = data.draw(st.one_of(chat_requests(), _SINGLE_MESSAGES).map(without_provider_data), "request")
    _there_and_back(chatcodec.encode_request(source, generated, on_loss="ignore"), source, via)


RECORDED = [(PROVIDER[source], name, via) for source, via in PAIRS for name in PROVIDER[source].recorded["request"]]


@pytest.mark.parametrize(("source", "name", "via"), RECORDED, ids=case_id)
def test_recorded_request_there_and_back(source: ProviderEntry, name: str, via: str) -> None:
    _there_and_back(source.load("request", name), source.name, via)


def test_the_law_applies_to_some_recordings() -> None:
    """Not vacuous: some recorded requests cross and come back with no loss reported."""
    applied = [
        (source.name, name)
        for source, name, via in RECORDED
        if _there_and_back(source.load("request", name), source.name, via)
    ]
    # 15 of 26 when written; 9 since a request without max_tokens reports that a provider
    # requires one (no silent default), as most recordings lack it;
    # 52 (of more recordings) before and after meaningful markers were kept
    assert len(applied) >= 8, applied
