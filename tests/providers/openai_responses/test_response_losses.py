"""Law: a Responses response converted to any other format reports a loss exactly when
the converted response says something else (the request law is ``tests/conformance/test_losses.py``).

For a generated response ``r``, ``body = encode(r)`` is a Responses body and
``original = decode(body)`` what it says. Converted to a target ``T`` with
``convert_response`` and read back by ``T``'s decoder, the result must equal
``original`` in :func:`~conformance.normal_forms.response_meaning` (no provider bags, no
raw finish words, content as parts, compact arguments: what every format writes alike),
with ``T``'s ``unplaced_response_fields`` (fields its wire has no place for, such as
``created``) compared out; and a loss must be reported if and only if it does not. The
reports set aside are those of the fields compared out and of the Responses bags
(``openai-responses data [...]``, the bag laws' business).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec.testing import assistant_messages, chat_responses, finish_reasons, usages
from chatcodec.testing._laws.normal_forms import without_provider_data
from conformance.normal_forms import response_meaning
from conformance.providers import PROVIDER, PROVIDER_NAMES
from providers.openai_responses.conformance import shaped_responses

SOURCE = "openai-responses"
TARGETS = [name for name in PROVIDER_NAMES if name != SOURCE]

_ONE_CHOICE = st.builds(
    chatcodec.ChatResponse,
    id=st.one_of(st.none(), st.text(max_size=3)),
    model=st.one_of(st.none(), st.text(max_size=3)),
    choices=st.lists(
        st.builds(
            chatcodec.ResponseChoice,
            index=st.just(0),
            message=assistant_messages(),
            finish_reason=st.one_of(st.none(), finish_reasons()),
        ),
        min_size=1,
        max_size=1,
    ),
    usage=st.one_of(st.none(), usages()),
)
"""Small responses too: most large generated ones lose something, and one loss would hide
an unreported change beside it."""

RESPONSES = st.one_of(shaped_responses(), st.one_of(chat_responses(), _ONE_CHOICE).map(without_provider_data))


def _changes(losses: list[chatcodec.Loss], unplaced: tuple[str, ...]) -> list[chatcodec.Loss]:
    set_aside = {f"$.{dotted}" for dotted in unplaced}
    return [
        loss
        for loss in losses
        if loss.path not in set_aside
        and not loss.what.startswith(f"{SOURCE} data")
        # a value invented in the target's own bag (Bedrock's metrics.latencyMs) reads back
        # into no canonical field: reported, but no change of what the answer says
        and not (loss.what.startswith("invented ") and loss.path.startswith("$.provider_metadata"))
    ]


@settings(max_examples=max(100, settings.default.max_examples), deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("target", TARGETS)
def test_a_converted_response_reports_a_loss_exactly_when_it_says_something_else(
    target: str, data: st.DataObject
) -> None:
    body = chatcodec.encode_response(SOURCE, data.draw(RESPONSES, "response"), on_loss="ignore")
    unplaced = tuple(PROVIDER[target].unplaced_response_fields)
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_response(body, source=SOURCE, target=target, on_loss="ignore", losses=losses)
    expected = response_meaning(chatcodec.decode_response(SOURCE, body), unplaced)
    got = response_meaning(chatcodec.decode_response(target, converted), unplaced)
    reported = _changes(losses, unplaced)
    assert (got != expected) == bool(reported), (reported, got, expected)
