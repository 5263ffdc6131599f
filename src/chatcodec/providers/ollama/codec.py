"""The ``ollama`` codec object the registry loads: Ollama's native ``/api/chat``, requests,
responses and JSON-lines streams."""

from __future__ import annotations

from typing import Any

from chatcodec.canonical_validation import validate_canonical, validate_with
from chatcodec.messages import MESSAGES_ADAPTER, AnyMessage
from chatcodec.providers.kit.context import DecodeContext, EncodeContext
from chatcodec.providers.ollama import (
    finish_reason,
    messages,
    parts,
    request,
    response,
    settings,
    stream_decode,
    stream_encode,
    tools,
    usage,
)
from chatcodec.providers.ollama.markers import OPTIONS, PROVIDER
from chatcodec.providers.provider_codec import ProviderCodec
from chatcodec.request import ChatRequest
from chatcodec.response import ChatResponse


class _Requests:  # TEMPORARY: until ProviderCodec takes dict-based modules (core v4)
    @staticmethod
    def decode_request(payload: dict[str, Any], context: DecodeContext) -> ChatRequest:
        return validate_canonical(ChatRequest, request.decode_request(payload, context))

    @staticmethod
    def encode_request(canonical: ChatRequest, context: EncodeContext) -> dict[str, Any]:
        return request.encode_request(canonical.model_dump(exclude_none=True), context)

    @staticmethod
    def decode_message_list(wire: list[dict[str, Any]], context: DecodeContext) -> list[AnyMessage]:
        return validate_with(MESSAGES_ADAPTER, request.decode_message_list(wire, context), "Messages")


class _Responses:  # TEMPORARY
    @staticmethod
    def decode_response(payload: dict[str, Any], context: DecodeContext) -> ChatResponse:
        return validate_canonical(ChatResponse, response.decode_response(payload, context))

    @staticmethod
    def encode_response(canonical: ChatResponse, context: EncodeContext) -> dict[str, Any]:
        return response.encode_response(canonical.model_dump(exclude_none=True), context)


CODEC = ProviderCodec(
    PROVIDER,
    options=OPTIONS,
    requests=_Requests(),
    responses=_Responses(),
    finish_reasons=finish_reason,  # type: ignore[arg-type]
    usage=usage,  # type: ignore[arg-type]
    messages=messages,  # type: ignore[arg-type]
    parts=parts,  # type: ignore[arg-type]
    tools=tools,  # type: ignore[arg-type]
    settings=settings,  # type: ignore[arg-type]
    stream_decoder=stream_decode.StreamDecoder,
    stream_encoder=stream_encode.StreamEncoder,  # type: ignore[arg-type]
)
"""The codec instance registered as ``ollama``."""
