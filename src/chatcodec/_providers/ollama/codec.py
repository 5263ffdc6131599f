"""The ``ollama`` codec object the registry loads: Ollama's native ``/api/chat``, requests,
responses and JSON-lines streams, read and written over canonical data.

The stream classes, which build canonical event models, are imported on the first stream,
so loading the codec loads no canonical model (first use)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._providers.ollama import (
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
from chatcodec._providers.ollama.markers import OPTIONS, PROVIDER

if TYPE_CHECKING:
    from chatcodec._providers.contract.context import DecodeContext, EncodeContext
    from chatcodec._registry import StreamDecoder, StreamEncoder
    from chatcodec.streams._builder import StreamBuilder


def _stream_decoder(builder: StreamBuilder | None, context: DecodeContext) -> StreamDecoder:
    from chatcodec._providers.ollama.stream_decode import StreamDecoder

    return StreamDecoder(builder, context)


def _stream_encoder(context: EncodeContext) -> StreamEncoder:
    from chatcodec._providers.ollama.stream_encode import StreamEncoder

    return StreamEncoder(context)


CODEC = ProviderCodec(
    PROVIDER,
    options=OPTIONS,
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
    capabilities=capabilities,
    edge="chatcodec._providers.ollama.edge",  # imported when first read: a conversion reads no HTTP fact
    rules=rules,
)
"""The codec instance registered as ``ollama``."""
