"""``accumulate_stream`` gives exactly what ``decode_stream`` + ``StreamAccumulator`` give:
the Anthropic specific cases. The law itself, for every provider (recordings, broken
streams, one stream per decoder rule, generated and mutated streams), is
``tests/conformance/test_accumulate_as_decoded.py``."""

from __future__ import annotations

from typing import Any

import pytest

from chatcodec.testing._laws.stream_law import StreamLaw, outcome
from providers.anthropic.conformance_streams import block_delta, block_start, plain_stream

LAW = StreamLaw("anthropic")


def test_fields_that_say_nothing_on_a_delta_change_nothing() -> None:
    """The decoder reads only ``index`` and ``delta`` from a delta event."""
    events = plain_stream()
    events[8] = {**events[8], "x_extra": {"any": "thing"}}
    assert outcome(LAW.accumulated, events) == outcome(LAW.decoded, events)


@pytest.mark.parametrize(
    ("position", "odd"),
    [
        (8, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        (8, block_delta(1, "citations_delta", "citation", {"type": "char_location"})),
        (7, block_start(1, {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}})),
        (7, block_start(1, {"type": "text", "text": "", "citations": []})),
        (11, block_start(2, {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}})),
        (2, {"type": "future_event"}),
    ],
    ids=["error", "citations", "server-tool", "text-with-citations", "whole-input", "unknown-event"],
)
def test_an_odd_event_accumulates_as_decoded(position: int, odd: dict[str, Any]) -> None:
    events = plain_stream()
    events[position] = odd
    assert outcome(LAW.accumulated, events) == outcome(LAW.decoded, events)
    LAW.assert_same_one_by_one(events)
