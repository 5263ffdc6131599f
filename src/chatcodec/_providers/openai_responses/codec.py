"""The ``openai-responses`` codec object the registry loads: the OpenAI Responses API
(``POST /v1/responses``), requests, responses and streams.

Its modules load no canonical model and no pydantic (first use): the stream decoder and
encoder, which build canonical events, are imported on their first stream.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatcodec._providers.contract.context import DecodeContext, EncodeContext
from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._providers.openai_responses import (
    capabilities,
    finish_reason,
    messages,
    parts,
    request,
    response,
    rules,
    settings,
    tools,
    usage,
)
from chatcodec._providers.openai_responses.markers import OPTIONS, PROVIDER

if TYPE_CHECKING:
    from chatcodec._registry import StreamDecoder, StreamEncoder
    from chatcodec.streams._builder import StreamBuilder


def _stream_decoder(builder: StreamBuilder | None, context: DecodeContext) -> StreamDecoder:
    from chatcodec._providers.openai_responses.stream_decode import StreamDecoder

    return StreamDecoder(builder, context)


def _stream_encoder(context: EncodeContext) -> StreamEncoder:
    from chatcodec._providers.openai_responses.stream_encode import StreamEncoder

    return StreamEncoder(context)


CODEC = ProviderCodec(
    PROVIDER,
    options=OPTIONS,
    edge="chatcodec._providers.openai_responses.edge",  # imported when first read: a conversion reads no HTTP fact
    requests=request,
    responses=response,
    finish_reasons=finish_reason,
    usage=usage,
    messages=messages,
    parts=parts,
    tools=tools,
    settings=settings,
    stream_decoder=_stream_decoder,
    stream_encoder=_stream_encoder,
    structure="chatcodec._providers.openai_responses.structure",  # imported when strict mode reads it
    capabilities=capabilities,
    rules=rules,
)
"""The codec instance registered as ``openai-responses``."""
