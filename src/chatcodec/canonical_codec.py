"""chatcodec's own JSON as a wire format, so ``canonical`` works wherever a provider does.

Decoding validates; encoding dumps. Nothing is ever lost, so no loss is recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import pydantic_core

from chatcodec.errors import as_chatcodec_error
from chatcodec.losses import LossRecorder
from chatcodec.request import ChatRequest
from chatcodec.response import ChatResponse
from chatcodec.stream_events import STREAM_EVENT_ADAPTER, AnyStreamEvent
from chatcodec.validation import validate_model


class CanonicalCodec:
    """Identity codec over canonical JSON."""

    name = "canonical"

    def decode_request(self, payload: dict[str, Any]) -> ChatRequest:
        return validate_model(ChatRequest, payload)

    def encode_request(self, request: ChatRequest, losses: LossRecorder) -> dict[str, Any]:
        return request.model_dump(mode="json")

    def decode_response(self, payload: dict[str, Any]) -> ChatResponse:
        return validate_model(ChatResponse, payload)

    def encode_response(self, response: ChatResponse, losses: LossRecorder) -> dict[str, Any]:
        return response.model_dump(mode="json")

    def decode_stream(self, events: Iterable[dict[str, Any]]) -> Iterator[AnyStreamEvent]:
        for index, event in enumerate(events):
            try:
                yield STREAM_EVENT_ADAPTER.validate_python(event)
            except pydantic_core.ValidationError as error:
                # $[n] is the n-th event of the stream
                raise as_chatcodec_error(error, "StreamEvent", event, prefix=(index,)) from None

    def encode_stream(self, events: Iterable[AnyStreamEvent], losses: LossRecorder) -> Iterator[dict[str, Any]]:
        for event in events:
            yield event.model_dump(mode="json")


CODEC = CanonicalCodec()
