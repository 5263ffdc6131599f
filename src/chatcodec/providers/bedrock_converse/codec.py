"""The ``bedrock-converse`` codec object the registry loads: AWS Bedrock ``Converse`` and
``ConverseStream`` as JSON (requests, responses and streams)."""

from __future__ import annotations

from chatcodec.providers.bedrock_converse import (
    capabilities,
    edge,
    finish_reason,
    messages,
    one_pass,
    parts,
    request,
    response,
    rules,
    settings,
    stream_decode,
    stream_encode,
    structure,
    tools,
    usage,
)
from chatcodec.providers.bedrock_converse.markers import OPTIONS, PROVIDER
from chatcodec.providers.provider_codec import ProviderCodec

CODEC = ProviderCodec(
    PROVIDER,
    options=OPTIONS,
    edge=edge,
    legacy_requests=request,
    legacy_responses=response,
    finish_reasons=finish_reason,
    usage=usage,
    messages=messages,
    parts=parts,
    tools=tools,
    settings=settings,
    stream_decoder=stream_decode.StreamDecoder,
    stream_encoder=stream_encode.StreamEncoder,
    structure=structure,
    capabilities=capabilities,
    rules=rules,
    one_pass=one_pass,
)
"""The codec instance registered as ``bedrock-converse``."""
