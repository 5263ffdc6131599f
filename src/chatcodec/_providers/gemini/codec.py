"""The ``gemini`` codec object the registry loads: Google Gemini ``generateContent`` /
``streamGenerateContent`` (Gemini API and Vertex AI), requests, responses and streams.

Requests and responses are read and written as canonical data (one reader and one writer
per direction); the stream classes, which build canonical event models, are imported on
the first stream, so loading the codec loads no canonical model (first use)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._providers.gemini import (
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
from chatcodec._providers.gemini.markers import OPTIONS, PROVIDER

if TYPE_CHECKING:
    from chatcodec._providers.contract.context import DecodeContext, EncodeContext
    from chatcodec._registry import StreamDecoder, StreamEncoder
    from chatcodec.streams._builder import StreamBuilder


def _stream_decoder(builder: StreamBuilder | None, context: DecodeContext) -> StreamDecoder:
    from chatcodec._providers.gemini.stream_decode import StreamDecoder

    return StreamDecoder(builder, context)


def _stream_encoder(context: EncodeContext) -> StreamEncoder:
    from chatcodec._providers.gemini.stream_encode import StreamEncoder

    return StreamEncoder(context)


CODEC = ProviderCodec(
    PROVIDER,
    options=OPTIONS,
    edge="chatcodec._providers.gemini.edge",  # imported when first read: a conversion reads no HTTP fact
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
    structure="chatcodec._providers.gemini.structure",  # imported when strict mode reads it
    capabilities=capabilities,
    rules=rules,
)
"""The codec instance registered as ``gemini``."""
