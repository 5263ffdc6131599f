"""The ``openai-chat`` codec object the registry loads: OpenAI Chat Completions and the
servers compatible with it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._providers.openai_chat import (
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
from chatcodec._providers.openai_chat.markers import OPTIONS, PROVIDER

if TYPE_CHECKING:
    from chatcodec._providers.contract.context import DecodeContext, EncodeContext
    from chatcodec._registry import StreamDecoder, StreamEncoder
    from chatcodec.streams._builder import StreamBuilder


def _stream_decoder(builder: StreamBuilder | None, context: DecodeContext) -> StreamDecoder:
    """The stream decoder, imported on the first stream (it builds canonical events: the
    request path loads no model)."""
    from chatcodec._providers.openai_chat.stream_decode import StreamDecoder

    return StreamDecoder(builder, context)


def _stream_encoder(context: EncodeContext) -> StreamEncoder:
    """The stream encoder, imported on the first stream (as :func:`_stream_decoder`)."""
    from chatcodec._providers.openai_chat.stream_encode import StreamEncoder

    return StreamEncoder(context)


CODEC = ProviderCodec(
    PROVIDER,
    options=OPTIONS,
    edge="chatcodec._providers.openai_chat.edge",  # imported when first read: a conversion reads no HTTP fact
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
    structure="chatcodec._providers.openai_chat.structure",  # imported when strict mode reads it
    capabilities=capabilities,
    rules=rules,
    dialect=dialect,
)
"""The codec instance registered as ``openai-chat``."""
