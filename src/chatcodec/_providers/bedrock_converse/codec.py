"""The ``bedrock-converse`` codec object the registry loads: AWS Bedrock ``Converse`` and
``ConverseStream`` as JSON (requests, responses and streams).

The request and response roles read and write canonical data and load no canonical
model (first use); the stream classes drive canonical event models, so they are imported
when the first stream is read or written."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatcodec._providers.bedrock_converse import (
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
from chatcodec._providers.bedrock_converse.markers import OPTIONS, PROVIDER
from chatcodec._providers.contract.context import DecodeContext, EncodeContext
from chatcodec._providers.contract.provider_codec import ProviderCodec

if TYPE_CHECKING:
    from chatcodec._registry import StreamDecoder, StreamEncoder
    from chatcodec.streams._builder import StreamBuilder


def _stream_decoder(builder: StreamBuilder | None, context: DecodeContext) -> StreamDecoder:
    from chatcodec._providers.bedrock_converse.stream_decode import StreamDecoder

    return StreamDecoder(builder, context)


def _stream_encoder(context: EncodeContext) -> StreamEncoder:
    from chatcodec._providers.bedrock_converse.stream_encode import StreamEncoder

    return StreamEncoder(context)


CODEC = ProviderCodec(
    PROVIDER,
    options=OPTIONS,
    edge="chatcodec._providers.bedrock_converse.edge",  # imported when first read: a conversion reads no HTTP fact
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
    structure="chatcodec._providers.families.aws.structure",  # imported when strict mode reads it
    capabilities=capabilities,
    rules=rules,
)
"""The codec instance registered as ``bedrock-converse``."""
