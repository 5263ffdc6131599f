"""A codec written against contract version 1 streams unchanged beside records (issue 60, lever 5).

Inside a conversion, stream events travel as records (``chatcodec.contract``'s ``...Record``
classes); the built-in encoders say so with ``stream_contract = 2``. A version 1 codec's
stream decoder may hand back the public event models, and its stream encoder, with no
``stream_contract``, ``match``es the public models: the boundary
(:mod:`chatcodec._providers.kit.stream_boundary`) converts both ways. Here a version 1
codec is the Anthropic folder with its stream classes behind version 1 faces (a decoder
that gives models, an encoder that refuses anything but a model), and every stream entry
point gives byte for byte what the built-in Anthropic codec gives.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pydantic
import pytest

import chatcodec
from chatcodec._model.stream_records import event_of, is_record, record_of
from chatcodec.contract import DecodeContext, EncodeContext, ProviderCodec, StreamBuilder

FIXTURES = Path(__file__).parent / "fixtures"
V1 = "v1-anthropic"


class _ModelsDecoder:
    """A version 1 decoder: the events it gives back are the public models."""

    def __init__(self, decoder: Any) -> None:
        self._decoder = decoder

    def feed(self, event: dict[str, Any]) -> list[chatcodec.AnyStreamEvent]:
        return [event_of(record) for record in self._decoder.feed(event)]

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        self._decoder.read(events)

    def close(self) -> list[chatcodec.AnyStreamEvent]:
        return [event_of(record) for record in self._decoder.close()]


class _ModelsEncoder:
    """A version 1 encoder (no ``stream_contract``): it takes the public models only."""

    seen: list[str] = []  # noqa: RUF012  # what every instance was given, for the test

    def __init__(self, encoder: Any) -> None:
        self._encoder = encoder

    def feed(self, event: chatcodec.AnyStreamEvent) -> Iterable[dict[str, Any]]:
        assert isinstance(event, pydantic.BaseModel), f"a version 1 encoder was given {type(event).__name__}"
        _ModelsEncoder.seen.append(event.type)
        written: Iterable[dict[str, Any]] = self._encoder.feed(record_of(event))
        return written

    def close(self) -> Iterable[dict[str, Any]]:
        closing: Iterable[dict[str, Any]] = self._encoder.close()
        return closing


class _V1Codec(ProviderCodec):
    """The Anthropic folder, its stream decoder and encoder given version 1 faces."""

    def __init__(self, name: str, **roles: Any) -> None:
        decoder, encoder = roles.pop("stream_decoder"), roles.pop("stream_encoder")

        def decode(builder: StreamBuilder | None, context: DecodeContext) -> _ModelsDecoder:
            return _ModelsDecoder(decoder(builder, context))

        def encode(context: EncodeContext) -> _ModelsEncoder:
            return _ModelsEncoder(encoder(context))

        super().__init__(name, stream_decoder=decode, stream_encoder=encode, **roles)


@pytest.fixture(autouse=True)
def _v1_codec() -> Iterator[None]:
    chatcodec.register_codec(V1, lambda: _V1Codec.from_package("chatcodec._providers.anthropic", name=V1))
    _ModelsEncoder.seen.clear()
    yield
    chatcodec.unregister_codec(V1)


def _body(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def _converted(body: bytes, source: str, target: str) -> bytes:
    return b"".join(chatcodec.convert_stream(body, source=source, target=target, on_loss="ignore"))


@pytest.mark.parametrize(
    "fixture", ["anthropic/stream/server_and_client_tool_use.sse", "anthropic/stream/thinking_signature_delta.sse"]
)
def test_a_v1_decoder_converts_as_the_built_in(fixture: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the Responses stream stamps a time Anthropic's events do not give: two runs a second apart differ there
    monkeypatch.setattr(time, "time", lambda: 1_795_000_000.0)
    body = _body(fixture)
    assert _converted(body, V1, "openai-responses") == _converted(body, "anthropic", "openai-responses")
    assert [event.model_dump() for event in chatcodec.decode_stream(V1, body)] == [
        event.model_dump() for event in chatcodec.decode_stream("anthropic", body)
    ]


def test_a_v1_encoder_is_given_models_and_writes_as_the_built_in() -> None:
    body = _body("openai-chat/stream/parallel_tool_calls.sse")
    converted = _converted(body, "openai-chat", V1)
    assert converted == _converted(body, "openai-chat", "anthropic")
    assert "tool_call_start" in _ModelsEncoder.seen  # it was fed, each event a model (asserted as fed)
    events = list(chatcodec.decode_stream("openai-chat", body))
    written = list(chatcodec.encode_stream(V1, events, on_loss="ignore"))
    assert written == list(chatcodec.encode_stream("anthropic", events, on_loss="ignore"))


def test_records_leave_through_the_public_faces_as_models() -> None:
    codec = chatcodec.get_codec(V1)
    assert isinstance(codec, chatcodec.SupportsStreamDecoder)
    decoder = codec.stream_decoder()
    wire: Sequence[dict[str, Any]] = [{"type": "message_start", "message": _start()}]
    given = [event for chunk in wire for event in decoder.feed(chunk)]
    assert given
    assert not any(is_record(event) for event in given)
    built_in = chatcodec.get_codec("anthropic")
    assert isinstance(built_in, chatcodec.SupportsStreamDecoder)
    records = list(built_in.stream_decoder(StreamBuilder(emit=True)).feed(wire[0]))
    assert records
    assert all(is_record(event) for event in records)  # given a builder: the records it emits


def _start() -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 3, "output_tokens": 1},
    }
