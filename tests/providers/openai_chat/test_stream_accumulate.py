"""``accumulate_stream`` gives exactly what ``decode_stream`` + ``StreamAccumulator`` give:
the openai-chat specific cases. The law itself, for every provider (recordings, broken
streams, one stream per decoder rule, generated and mutated streams), is
``tests/conformance/test_accumulate_as_decoded.py``."""

from __future__ import annotations

from typing import Any

import pytest

from chatcodec.testing._laws.stream_law import StreamLaw, outcome
from providers.openai_chat.conformance_streams import plain_stream
from providers.openai_chat.openai_chat_support import FORMAT

LAW = StreamLaw(FORMAT)


def test_fields_that_say_nothing_on_a_continuing_chunk_change_nothing() -> None:
    """The decoder drops them (or keeps them on a delta event, which the accumulator does
    not read), so building the response directly need not look at them."""
    chunks = plain_stream()
    chunks[4] = {**chunks[4], "x_groq": {"id": "req_1"}, "obfuscation": 7}
    chunks[4]["choices"] = [{**chunks[4]["choices"][0], "logprobs": {"content": []}, "extra": 1}]
    chunks[8]["choices"][0]["delta"]["channel"] = "analysis"
    chunks[9]["choices"][0]["delta"]["tool_calls"][0]["id"] = None
    assert outcome(LAW.accumulated, chunks) == outcome(LAW.decoded, chunks)


@pytest.mark.parametrize(
    "odd",
    [
        {"error": {"message": "overloaded", "type": "server_error"}},
        {"x_groq": {"usage": {"queue_time": 1}}},
        {"system_fingerprint": "fp_other"},
        {"created": 1.0},
        {"model": 5},
    ],
    ids=["error", "new-field", "changed-field", "float-created", "number-model"],
)
def test_an_odd_chunk_accumulates_as_decoded(odd: dict[str, Any]) -> None:
    chunks = plain_stream()
    chunks[-2] = {**chunks[-2], **odd}
    assert outcome(LAW.accumulated, chunks) == outcome(LAW.decoded, chunks)
    LAW.assert_same_one_by_one(chunks)
