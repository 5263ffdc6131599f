"""A conversion refuses what ``decode_request`` refuses, for a codec whose reader checks
nothing: a reader without a closed front (an outside codec's, the template's) may pass on a
value the canonical model refuses, so the core asks the model before a writer sees it.

Found by random draws of the refusal law over the MCP sampling example (then outside
chatcodec, ``examples/mcp-sampling-codec``; built in since): its request with ``maxTokens: 0``
was refused by ``decode_request`` and converted to OpenAI Chat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import chatcodec
from test_optional_streams import streamless_codec

NAME = "unchecked-reader"


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    chatcodec.register_codec(NAME, lambda: streamless_codec(NAME))
    try:
        yield
    finally:
        chatcodec.unregister_codec(NAME)


@pytest.mark.parametrize(
    "body",
    [
        {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 0},
        {"model": "m", "messages": [{"role": "user", "content": 5}], "max_tokens": 5},
    ],
    ids=["token-limit-under-1", "content-not-text"],
)
def test_convert_request_refuses_what_decode_request_refuses(body: dict[str, Any]) -> None:
    with pytest.raises(chatcodec.ValidationError) as decoded:
        chatcodec.decode_request(NAME, body)
    with pytest.raises(chatcodec.ValidationError) as converted:
        chatcodec.convert_request(body, source=NAME, target="openai-chat", on_loss="ignore")
    assert str(converted.value) == str(decoded.value)


def test_a_body_the_model_holds_still_converts() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 5}
    converted = chatcodec.convert_request(body, source=NAME, target="openai-chat", on_loss="ignore")
    assert converted["max_completion_tokens"] == 5
