"""The ``openai-responses`` codec object the registry loads: the OpenAI Responses API
(``POST /v1/responses``), requests, responses and streams."""

from __future__ import annotations

from chatcodec.providers.openai_responses import request, response, stream_decode, stream_encode
from chatcodec.providers.openai_responses.markers import PROVIDER
from chatcodec.providers.provider_codec import ProviderCodec

CODEC = ProviderCodec(
    PROVIDER,
    requests=request,
    responses=response,
    stream_decoder=stream_decode.StreamDecoder,
    stream_encoder=stream_encode,
)
"""The codec instance registered as ``openai-responses``."""
