"""The codec object the registry loads: the folder's role modules handed to
:class:`~chatcodec._providers.contract.provider_codec.ProviderCodec`, with the AWS family's
structure (turn alternation, tool uses paired with results) as its strict-mode rules.

As every built-in folder's: the edge and structure roles are imported when first read (a
conversion reads neither: first use), the stream classes when the first stream is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatcodec._providers.bedrock_nova import (
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
from chatcodec._providers.bedrock_nova.markers import OPTIONS, PROVIDER
from chatcodec._providers.contract.provider_codec import ProviderCodec

if TYPE_CHECKING:
    from chatcodec._providers.contract.context import DecodeContext, EncodeContext
    from chatcodec._registry import StreamDecoder, StreamEncoder
    from chatcodec.streams._builder import StreamBuilder


def _stream_decoder(builder: StreamBuilder | None, context: DecodeContext) -> StreamDecoder:
    from chatcodec._providers.bedrock_nova.stream_decode import StreamDecoder

    return StreamDecoder(builder, context)


def _stream_encoder(context: EncodeContext) -> StreamEncoder:
    from chatcodec._providers.bedrock_nova.stream_encode import StreamEncoder

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
    capabilities=capabilities,
    rules=rules,
    edge="chatcodec._providers.bedrock_nova.edge",  # imported when first read: a conversion reads no HTTP fact
    structure="chatcodec._providers.families.aws.structure",  # imported when strict mode reads it
    stream_decoder=_stream_decoder,
    stream_encoder=_stream_encoder,
)
"""The ``bedrock-nova`` codec."""
