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
    from chatcodec._providers.contract.roles import EdgeTable, StructureTable
    from chatcodec._registry import StreamDecoder, StreamEncoder
    from chatcodec.streams._builder import StreamBuilder


def _stream_decoder(builder: StreamBuilder | None, context: DecodeContext) -> StreamDecoder:
    from chatcodec._providers.openai_responses.stream_decode import StreamDecoder

    return StreamDecoder(builder, context)


def _stream_encoder(context: EncodeContext) -> StreamEncoder:
    from chatcodec._providers.openai_responses.stream_encode import StreamEncoder

    return StreamEncoder(context)


def _edge() -> EdgeTable:
    """The edge role, imported when first read: a conversion reads no HTTP fact (first use)."""
    from chatcodec._providers.openai_responses import edge

    return edge


def _structure() -> StructureTable:
    """The structure role, imported when first read: strict mode reads it, a conversion does not."""
    from chatcodec._providers.openai_responses import structure

    return structure


CODEC = ProviderCodec(
    PROVIDER,
    options=OPTIONS,
    edge=_edge,
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
    structure=_structure,
    capabilities=capabilities,
    rules=rules,
)
"""The codec instance registered as ``openai-responses``."""
