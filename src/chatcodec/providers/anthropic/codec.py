"""The ``anthropic`` codec object the registry loads: the Anthropic Messages API
(``POST /v1/messages``), requests, responses and streams."""

from __future__ import annotations

from chatcodec.providers.anthropic import request, response, stream_decode, stream_encode
from chatcodec.providers.anthropic.markers import PROVIDER
from chatcodec.providers.provider_codec import ProviderCodec

CODEC = ProviderCodec(
    PROVIDER,
    requests=request,
    responses=response,
    stream_decoder=stream_decode.StreamDecoder,
    stream_encoder=stream_encode,
)
"""The codec instance registered as ``anthropic``."""
