"""``strict=True`` is refused where a codec cannot honour it: a codec whose capabilities
say ``strict_reading=False`` (no published field set, no structural rules) raises a
:class:`~chatcodec.CodecNotAvailableError` naming it at every strict entry point, instead
of reading the body as leniently as without ``strict``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import chatcodec
from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec.serve import ServeConfig

NAME = "template"
CODEC = ProviderCodec.from_package("chatcodec._providers._template")

BODY = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokenz": 5}
"""A typo strict mode exists to refuse: this codec would keep it in its bag, unasked."""

ANSWER = {"model": "m", "message": {"role": "assistant", "content": "hello"}, "stop_reason": "end"}
EVENTS: list[dict[str, Any]] = [{"delta": "hello"}, {"stop_reason": "end"}]


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    chatcodec.register_codec(NAME, lambda: CODEC)
    try:
        yield
    finally:
        chatcodec.unregister_codec(NAME)


STRICT_CALLS: dict[str, Callable[[], object]] = {
    "decode_request": lambda: chatcodec.decode_request(NAME, BODY, strict=True),
    "convert_request": lambda: chatcodec.convert_request(BODY, source=NAME, target="openai-chat", strict=True),
    "decode_response": lambda: chatcodec.decode_response(NAME, ANSWER, strict=True),
    "decode_stream": lambda: chatcodec.decode_stream(NAME, EVENTS, strict=True),
    "accumulate_stream": lambda: chatcodec.accumulate_stream(NAME, EVENTS, strict=True),
    "append_provider_messages": lambda: chatcodec.Conversation().append_provider_messages(
        NAME, BODY["messages"], strict=True
    ),
}


@pytest.mark.parametrize("call", STRICT_CALLS.values(), ids=STRICT_CALLS.keys())
def test_strict_on_a_codec_that_cannot_read_strictly_is_refused_naming_it(call: Callable[[], object]) -> None:
    with pytest.raises(chatcodec.CodecNotAvailableError, match=f"the {NAME} codec cannot read strictly"):
        call()


def test_the_same_body_without_strict_is_read_leniently_as_before() -> None:
    request = chatcodec.decode_request(NAME, BODY)
    assert request.provider_options == {NAME: {"max_tokenz": 5}}


def test_serving_with_validate_in_front_of_such_a_codec_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="--validate cannot check ollama requests"):
        ServeConfig(api="ollama", validate=True, upstream="openai-chat", upstream_url="http://127.0.0.1:1")


def test_a_codec_that_reads_strictly_still_refuses_the_typo() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokenz": 5}
    with pytest.raises(chatcodec.ValidationError, match="max_tokenz"):
        chatcodec.decode_request("openai-chat", body, strict=True)
