"""Law: a loss is reported if and only if something changed.

One hop: for every codec and any generated request ``r`` (its entry's ``single_hop``),
encoding ``r`` reports a loss exactly when decoding the body does not give ``r`` back,
compared in the codec's normal form (its documented silent rewrites applied to ``r``).

Across codecs: for every ordered pair ``A != B`` of two wires and a generated request ``r``
(``chatcodec.testing.chat_requests``, without any codec's data, which only that codec's
decoder writes): ``a = encode_A(r)`` is an A request and ``original = decode_A(a)`` the
canonical request it says. Converted A -> B -> A (``convert_request`` both ways), with no
loss reported on either hop, the result ``again = decode_A(final)`` must equal the original:

    unmarked(again) == expected   and   final == encode_A(expected)

with canonical model equality (every field, bags included), where ``unmarked`` drops the
pure-spelling markers of bags (``without_spelling_markers``: they record how a value was
spelled, and another codec drops them by design; the markers a codec declares meaningful
stay, so dropping one without a loss breaks the law), and ``expected`` is ``unmarked(original)``
after B's ``silent_rewrites``: the rewrites B documents as meaning-preserving. Nothing else
may differ: not a turn boundary, not a part.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from chatcodec._providers.kit.provider_kit import shared_markers
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.normal_forms import without_provider_data, without_spelling_markers
from chatcodec.testing._laws.registry import at_least, law
from chatcodec.testing._strategies import chat_requests, messages

SINGLE_HOP = at_least(100)
"""At least the 100 examples per codec the per-codec laws this one replaces ran."""


@law(lambda suite: suite.entries)
@SINGLE_HOP
@given(data=st.data())
def losses_are_reported_exactly_when_something_changed(provider: ProviderEntry, data: st.DataObject) -> None:
    single_hop = provider.single_hop
    request = data.draw(single_hop.requests(), "request")
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(provider.name, request, on_loss="ignore", losses=losses)
    decoded = chatcodec.decode_request(provider.name, body)
    changed = single_hop.decoded(decoded) != single_hop.original(request)
    assert changed == bool(changes(losses)), (losses, single_hop.decoded(decoded), single_hop.original(request))


def _expected(original: chatcodec.ChatRequest, source: ProviderEntry, via: ProviderEntry) -> chatcodec.ChatRequest:
    """The original after ``via``'s silent rewrites, then ``source``'s: the last hop encodes
    into ``source`` again, without the spelling markers ``via`` could not carry (such as where
    system turns stood: back home they are leading system messages, joined)."""
    kept = without_spelling_markers(original, shared_markers(source.name, via.name))  # what via reads of them
    return source.silent_rewrites(via.silent_rewrites(kept))


def there_and_back(payload: dict[str, Any], source: ProviderEntry, via: ProviderEntry) -> bool:
    """Check the law for one ``source`` payload; whether it applied (no loss reported)."""
    original = chatcodec.decode_request(source.name, payload)
    there: list[chatcodec.Loss] = []
    back: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(payload, source=source.name, target=via.name, on_loss="ignore", losses=there)
    final = chatcodec.convert_request(converted, source=via.name, target=source.name, on_loss="ignore", losses=back)
    if changes(there) or changes(back):
        return False  # something was reported: the law says nothing about the result
    expected = _expected(original, source, via)
    shared = shared_markers(source.name, via.name)
    assert without_spelling_markers(chatcodec.decode_request(source.name, final), shared) == expected
    assert final == chatcodec.encode_request(source.name, expected, on_loss=_CHANGES_ERROR)
    return True


_CHANGES_ERROR: chatcodec.OnLoss = {"required": "ignore", "*": "error"}


def changes(losses: list[chatcodec.Loss]) -> list[chatcodec.Loss]:
    """The losses that say something changed: a ``required`` one says the body lacks a
    field the target requires (``model`` of a request whose format keeps it in the URL), which
    nothing in the request held."""
    return [loss for loss in losses if loss.kind != "required"]


_SINGLE_MESSAGES = st.builds(chatcodec.ChatRequest, messages=st.lists(messages(), max_size=1))
"""Small requests too: most large generated ones lose something, and one loss would hide
an unreported change beside it."""


@law(lambda suite: suite.pairs())
@given(data=st.data())
def no_loss_there_and_back_means_nothing_changed(
    source: ProviderEntry, via: ProviderEntry, data: st.DataObject
) -> None:
    generated = data.draw(st.one_of(chat_requests(), _SINGLE_MESSAGES).map(without_provider_data), "request")
    there_and_back(chatcodec.encode_request(source.name, generated, on_loss="ignore"), source, via)


def recorded_pairs(suite: Any) -> list[tuple[ProviderEntry, str, ProviderEntry]]:
    """``(source, recorded request, via)`` for every pair of two wires."""
    return [(source, name, via) for source, via in suite.pairs() for name in source.recorded["request"]]


@law(recorded_pairs)
def recorded_request_there_and_back(source: ProviderEntry, name: str, via: ProviderEntry) -> None:
    there_and_back(source.load("request", name), source, via)
