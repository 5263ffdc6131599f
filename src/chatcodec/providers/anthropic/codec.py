"""The ``anthropic`` codec object the registry loads: the Anthropic Messages API
(``POST /v1/messages``), requests, responses and streams."""

from __future__ import annotations

from functools import partial

from chatcodec.providers.anthropic import (
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
from chatcodec.providers.anthropic.markers import OPTIONS, PROVIDER
from chatcodec.providers.provider_codec import DialectDecoders, ProviderCodec

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
    # a block read outside its message may be of any kind a user or assistant turn holds
    dialect=DialectDecoders(
        part=partial(parts.decode_part, allowed=parts.ASSISTANT_KINDS | parts.USER_KINDS), tools=tools.decode_tools
    ),
)
"""The codec instance registered as ``anthropic``."""
