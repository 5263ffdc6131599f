"""The ``anthropic`` codec object the registry loads: the Anthropic Messages API
(``POST /v1/messages``), requests, responses and streams.

The request and response roles read and write canonical data; the stream classes, which
build canonical event models, are imported on a stream's first use, so loading the codec
(and a request conversion) loads no canonical model and no pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatcodec._providers.anthropic import (
    capabilities,
    dialect,
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
from chatcodec._providers.anthropic.markers import OPTIONS, PROVIDER
from chatcodec._providers.contract.provider_codec import ProviderCodec

if TYPE_CHECKING:
    from chatcodec._providers.contract.context import DecodeContext, EncodeContext
    from chatcodec._registry import StreamDecoder, StreamEncoder
    from chatcodec.streams._builder import StreamBuilder


def _stream_decoder(builder: StreamBuilder | None, context: DecodeContext) -> StreamDecoder:
    from chatcodec._providers.anthropic.stream_decode import StreamDecoder

    return StreamDecoder(builder, context)


def _stream_encoder(context: EncodeContext) -> StreamEncoder:
    from chatcodec._providers.anthropic.stream_encode import StreamEncoder

    return StreamEncoder(context)


CODEC = ProviderCodec(
    PROVIDER,
    options=OPTIONS,
    edge="chatcodec._providers.anthropic.edge",  # imported when first read: a conversion reads no HTTP fact
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
    structure="chatcodec._providers.anthropic.structure",  # imported when strict mode reads it
    capabilities=capabilities,
    rules=rules,
    dialect=dialect,
)
"""The codec instance registered as ``anthropic``."""
