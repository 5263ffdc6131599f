"""The ``openai-chat`` codec object the registry loads."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from chatcodec.losses import LossRecorder
from chatcodec.messages import AnyMessage
from chatcodec.providers.openai_chat import request as requests
from chatcodec.providers.openai_chat import response as responses
from chatcodec.providers.openai_chat import stream as streams
from chatcodec.providers.openai_chat import stream_accumulate
from chatcodec.providers.openai_chat.markers import PROVIDER
from chatcodec.request import ChatRequest
from chatcodec.response import ChatResponse
from chatcodec.stream_events import AnyStreamEvent


class OpenAIChatCodec:
    """OpenAI Chat Completions and the servers compatible with it."""

    name = PROVIDER

    def decode_request(self, payload: dict[str, Any]) -> ChatRequest:
        return requests.decode_request(payload)

    def encode_request(self, request: ChatRequest, losses: LossRecorder) -> dict[str, Any]:
        return requests.encode_request(request, losses)

    def decode_response(self, payload: dict[str, Any]) -> ChatResponse:
        return responses.decode_response(payload)

    def encode_response(self, response: ChatResponse, losses: LossRecorder) -> dict[str, Any]:
        return responses.encode_response(response, losses)

    def decode_stream(self, events: Iterable[dict[str, Any]]) -> Iterator[AnyStreamEvent]:
        return streams.decode_stream(events)

    def encode_stream(self, events: Iterable[AnyStreamEvent], losses: LossRecorder) -> Iterator[dict[str, Any]]:
        return streams.encode_stream(events, losses)

    def stream_decoder(self) -> streams.StreamDecoder:
        return streams.StreamDecoder()

    def accumulate_stream(self, payloads: Iterable[dict[str, Any]]) -> ChatResponse:
        return stream_accumulate.accumulate_stream(payloads)

    def decode_messages(self, messages: list[dict[str, Any]]) -> list[AnyMessage]:
        return requests.decode_message_list(messages)


CODEC = OpenAIChatCodec()
"""The codec instance registered as ``openai-chat``."""
