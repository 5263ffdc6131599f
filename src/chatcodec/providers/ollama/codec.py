"""The ``ollama`` codec object the registry loads: Ollama's native ``/api/chat``, requests,
responses and JSON-lines streams, read and written over canonical data."""

from __future__ import annotations

from chatcodec.providers.contract.provider_codec import ProviderCodec
from chatcodec.providers.ollama import (
    capabilities,
    edge,
    finish_reason,
    messages,
    parts,
    request,
    response,
    rules,
    settings,
    stream_decode,
    stream_encode,
    tools,
    usage,
)
from chatcodec.providers.ollama.markers import OPTIONS, PROVIDER

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
    stream_decoder=stream_decode.StreamDecoder,
    stream_encoder=stream_encode.StreamEncoder,
    capabilities=capabilities,
    edge=edge,
    rules=rules,
)
"""The codec instance registered as ``ollama``."""
