"""The Anthropic Messages codec object the registry loads (``"anthropic"``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from chatcodec.losses import LossRecorder
from chatcodec.messages import AnyMessage
from chatcodec.providers.anthropic.request import decode_message_list
from chatcodec.providers.anthropic.request import decode_request as _decode_request
from chatcodec.providers.anthropic.request import encode_request as _encode_request
from chatcodec.providers.anthropic.response import decode_response as _decode_response
from chatcodec.providers.anthropic.response import encode_response as _encode_response
from chatcodec.providers.anthropic.stream import StreamDecoder
from chatcodec.providers.anthropic.stream import decode_stream as _decode_stream
from chatcodec.providers.anthropic.stream import encode_stream as _encode_stream
from chatcodec.providers.anthropic.stream_accumulate import accumulate_stream as _accumulate_stream
from chatcodec.request import ChatRequest
from chatcodec.response import ChatResponse
from chatcodec.stream_events import AnyStreamEvent


class AnthropicCodec:
    """Anthropic Messages API (``POST /v1/messages``): requests, responses and streams."""

    name = "anthropic"

    def decode_request(self, payload: dict[str, Any]) -> ChatRequest:
        return _decode_request(payload)

    def encode_request(self, request: ChatRequest, losses: LossRecorder) -> dict[str, Any]:
        return _encode_request(request, losses)

    def decode_response(self, payload: dict[str, Any]) -> ChatResponse:
        return _decode_response(payload)

    def encode_response(self, response: ChatResponse, losses: LossRecorder) -> dict[str, Any]:
        return _encode_response(response, losses)

    def decode_stream(self, events: Iterable[dict[str, Any]]) -> Iterator[AnyStreamEvent]:
        return _decode_stream(events)

    def encode_stream(self, events: Iterable[AnyStreamEvent], losses: LossRecorder) -> Iterator[dict[str, Any]]:
        return _encode_stream(events, losses)

    def stream_decoder(self) -> StreamDecoder:
        return StreamDecoder()

    def accumulate_stream(self, payloads: Iterable[dict[str, Any]]) -> ChatResponse:
        return _accumulate_stream(payloads)

    def decode_messages(self, messages: list[dict[str, Any]]) -> list[AnyMessage]:
        return decode_message_list(messages)


CODEC = AnthropicCodec()
"""The codec instance ``chatcodec.registry`` imports for ``"anthropic"``."""
