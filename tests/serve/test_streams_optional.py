"""A stream asked of ``chatcodec serve`` through a codec without stream modules (streams
are optional in a provider folder) is refused before the upstream is called: a 400 in the
front's error shape naming the codec and what it lacks; a whole answer still passes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openai
import pytest

import chatcodec
from chatcodec._providers.contract.provider_codec import ProviderCodec
from serve.harness import FakeUpstream, proxy
from test_optional_streams import streamless_codec

NAME = "ollama-without-streams"
HELLO: list[Any] = [{"role": "user", "content": "Hello"}]

pytestmark = pytest.mark.usefixtures("fresh_fake")


def _without_streams() -> ProviderCodec:
    """Ollama's roles without its streams: a real upstream format the fake can answer."""
    return streamless_codec(NAME, "ollama")


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    chatcodec.register_codec(NAME, _without_streams)
    try:
        yield
    finally:
        chatcodec.unregister_codec(NAME)


def test_a_stream_from_an_upstream_without_streams_is_refused_before_it_is_called(fake: FakeUpstream) -> None:
    with (
        proxy("openai-chat", NAME, fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
        pytest.raises(openai.BadRequestError) as info,
    ):
        client.chat.completions.create(model="m", messages=HELLO, stream=True)
    assert f"the {NAME} codec has no stream decoder" in str(info.value)
    assert fake.received == []


def test_a_whole_answer_from_an_upstream_without_streams_still_passes(fake: FakeUpstream) -> None:
    answer = {"model": "m", "created_at": "2026-01-01T00:00:00Z", "message": {"role": "assistant", "content": "Hi"}}
    fake.reply({**answer, "done": True, "done_reason": "stop"})
    with (
        proxy("openai-chat", NAME, fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        completion = client.chat.completions.create(model="m", messages=HELLO)
    assert completion.choices[0].message.content == "Hi"
