"""chatcodec's own JSON as a wire format, so ``canonical`` works wherever a provider does.

Decoding validates; encoding dumps. Nothing is ever lost, so no loss is recorded. Whatever
the canonical model holds is written, a value nested just under pydantic-core's depth limit
too (:mod:`chatcodec._model.deep_dump`); a value deeper than that is refused where it is read,
as every path refuses one (a :class:`~chatcodec.PayloadError` with rule
``recursion_depth_exceeded``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import pydantic_core
from pydantic import BaseModel

from chatcodec._errors import as_chatcodec_error
from chatcodec._losses import LossRecorder
from chatcodec._model.messages import AnyMessage
from chatcodec._model.request import ChatRequest
from chatcodec._model.response import ChatResponse
from chatcodec._model.stream_events import STREAM_EVENT_ADAPTER, AnyStreamEvent
from chatcodec._model.stream_records import AnyStreamRecord
from chatcodec._option_table import NO_OPTIONS, OptionTable
from chatcodec._payloads import load_object
from chatcodec._providers.kit.stream_boundary import models_of
from chatcodec._validation import validate_messages, validate_model
from chatcodec.streams._builder import StreamBuilder


def dumped(model: BaseModel) -> dict[str, Any]:
    """``model`` as canonical JSON data; a value nested just under the validator's depth
    limit is written too (:mod:`chatcodec._model.deep_dump`)."""
    return model.model_dump(mode="json")


class CanonicalCodec:
    """Identity codec over canonical JSON."""

    name = "canonical"
    options: OptionTable = NO_OPTIONS
    """It takes no option (``options=`` refuses every name)."""

    def read_request(self, payload: dict[str, Any]) -> dict[str, Any]:
        return dumped(self.decode_request(payload))

    def read_request_json(self, text: str | bytes | bytearray) -> dict[str, Any]:
        return self.read_request(load_object(text, "canonical request"))

    def write_request(
        self, request: Mapping[str, Any], losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        return self.encode_request(validate_model(ChatRequest, request), losses)

    def decode_request(self, payload: dict[str, Any]) -> ChatRequest:
        return validate_model(ChatRequest, payload)

    def encode_request(
        self, request: ChatRequest, losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        return dumped(request)

    def read_response(self, payload: dict[str, Any]) -> dict[str, Any]:
        return dumped(self.decode_response(payload))

    def write_response(
        self, response: Mapping[str, Any], losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        return self.encode_response(validate_model(ChatResponse, response), losses)

    def decode_response(self, payload: dict[str, Any]) -> ChatResponse:
        return validate_model(ChatResponse, payload)

    def encode_response(
        self, response: ChatResponse, losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        return dumped(response)

    def decode_stream(self, events: Iterable[dict[str, Any]]) -> Iterator[AnyStreamEvent]:
        decoder = self.stream_decoder()  # $[n] in errors is the n-th event of the stream
        for event in events:
            yield from models_of(decoder.feed(event))
        yield from models_of(decoder.close())

    def encode_stream(
        self, events: Iterable[AnyStreamEvent], losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> Iterator[dict[str, Any]]:
        del options  # canonical events carry everything; there is nothing to choose
        for event in events:
            yield dumped(event)

    def stream_encoder(
        self, losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> CanonicalStreamEncoder:
        del options
        return CanonicalStreamEncoder()

    def decode_messages(self, messages: list[dict[str, Any]]) -> list[AnyMessage]:
        return validate_messages(messages)

    def stream_decoder(self, builder: StreamBuilder | None = None) -> CanonicalStreamDecoder:
        """A decoder of canonical stream events, driving ``builder`` (a new one when omitted)."""
        return CanonicalStreamDecoder(builder)


class CanonicalStreamEncoder:
    """Push-style twin of :meth:`CanonicalCodec.encode_stream`."""

    def feed(self, event: AnyStreamEvent) -> list[dict[str, Any]]:
        return [dumped(event)]

    def close(self) -> list[dict[str, Any]]:
        return []


class CanonicalStreamDecoder:
    """Push-style twin of :meth:`CanonicalCodec.decode_stream`: each event validated and
    handed to the builder as it is."""

    def __init__(self, builder: StreamBuilder | None = None) -> None:
        self.builder: StreamBuilder = builder if builder is not None else StreamBuilder(emit=True)
        self._models = builder is None  # the public call gets models; a conversion, its builder's records
        self._count = 0

    def feed(self, event: dict[str, Any]) -> Sequence[AnyStreamRecord | AnyStreamEvent]:
        self.read((event,))
        return self._given()

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        for event in events:
            index, self._count = self._count, self._count + 1
            try:
                self.builder.add(STREAM_EVENT_ADAPTER.validate_python(event))
            except pydantic_core.ValidationError as error:
                raise as_chatcodec_error(error, "StreamEvent", event, prefix=(index,)) from None

    def close(self) -> Sequence[AnyStreamRecord | AnyStreamEvent]:
        return self._given()

    def _given(self) -> Sequence[AnyStreamRecord | AnyStreamEvent]:
        records = self.builder.take_events()
        return models_of(records) if self._models else records


CODEC = CanonicalCodec()
