"""Streams are optional in a provider folder: a codec without stream modules registers
and reads and writes requests and responses, and every stream entry point on it raises a
:class:`~chatcodec.CodecNotAvailableError` naming the codec and what it lacks, at the
call, before an event is read."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import pytest

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec.streams._convert import stream_codecs

NAME = "streamless"

BODY = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 5}
ANSWER = {"model": "m", "message": {"role": "assistant", "content": "hello"}, "stop_reason": "end"}
EVENTS: list[dict[str, Any]] = [{"delta": "hello"}, {"stop_reason": "end"}]


def streamless_codec(name: str = NAME, folder: str = "_template") -> ProviderCodec:
    """A provider folder's roles (the template's unless ``folder`` names another), given no
    stream decoder or encoder (a folder without ``stream_decode.py`` and ``stream_encode.py``)."""
    package = f"chatcodec._providers.{folder}"
    role = {module: importlib.import_module(f"{package}.{module}") for module in _ROLE_MODULES}
    return ProviderCodec(
        name,
        options=importlib.import_module(f"{package}.markers").OPTIONS,
        requests=role["request"],
        responses=role["response"],
        finish_reasons=role["finish_reason"],
        usage=role["usage"],
        messages=role["messages"],
        parts=role["parts"],
        tools=role["tools"],
        settings=role["settings"],
        capabilities=role["capabilities"],
        rules=role["rules"],
        edge=role["edge"],
    )


_ROLE_MODULES = (
    "request",
    "response",
    "finish_reason",
    "usage",
    "messages",
    "parts",
    "tools",
    "settings",
    "capabilities",
    "rules",
    "edge",
)


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    chatcodec.register_codec(NAME, streamless_codec)
    try:
        yield
    finally:
        chatcodec.unregister_codec(NAME)


def _refused(call: Any, piece: str) -> None:
    with pytest.raises(chatcodec.CodecNotAvailableError) as info:
        call()
    message = str(info.value)
    assert f"the {NAME} codec has no stream {piece}" in message
    assert f"stream_{piece}=" in message


def test_a_codec_without_stream_modules_still_converts_requests_and_responses() -> None:
    assert chatcodec.convert_request(BODY, source=NAME, target=NAME, on_loss="error") == BODY
    assert chatcodec.convert_response(ANSWER, source=NAME, target=NAME, on_loss="error") == ANSWER
    codec = chatcodec.get_codec(NAME)
    assert isinstance(codec, ProviderCodec)
    assert not codec.decodes_streams
    assert not codec.encodes_streams


def test_decode_stream_on_a_codec_without_streams_names_the_missing_decoder() -> None:
    _refused(lambda: chatcodec.decode_stream(NAME, EVENTS), "decoder")


def test_accumulate_stream_on_a_codec_without_streams_names_the_missing_decoder() -> None:
    _refused(lambda: chatcodec.accumulate_stream(NAME, EVENTS), "decoder")


def test_the_codecs_own_stream_methods_refuse_at_the_call() -> None:
    codec = chatcodec.get_codec(NAME)
    assert isinstance(codec, ProviderCodec)
    _refused(lambda: codec.decode_stream(EVENTS), "decoder")
    _refused(lambda: codec.encode_stream([], LossRecorder()), "encoder")


def test_encode_stream_on_a_codec_without_streams_names_the_missing_encoder() -> None:
    events = list(chatcodec.decode_stream("openai-chat", [_chunk("hi")]))
    _refused(lambda: chatcodec.encode_stream(NAME, events), "encoder")


def test_a_stream_converter_from_or_to_a_codec_without_streams_is_refused_when_built() -> None:
    _refused(lambda: chatcodec.StreamConverter(NAME, "openai-chat"), "decoder")
    _refused(lambda: chatcodec.StreamConverter("openai-chat", NAME), "encoder")
    _refused(lambda: stream_codecs("openai-chat", NAME), "encoder")


def test_a_conversation_fed_chunks_of_a_codec_without_streams_names_the_missing_decoder() -> None:
    conversation = chatcodec.Conversation()
    _refused(lambda: conversation.append_chunk(NAME, {"delta": "hi"}), "decoder")


def test_the_built_in_codecs_still_have_their_streams() -> None:
    for name in chatcodec.PROVIDER_NAMES:
        codec = chatcodec.get_codec(name)
        assert isinstance(codec, ProviderCodec), name
        assert codec.decodes_streams, name
        assert codec.encodes_streams, name


def _chunk(text: str) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
    }
