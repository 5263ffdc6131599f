"""The ``gemini`` codec object the registry loads: Google Gemini ``generateContent`` /
``streamGenerateContent`` (Gemini API and Vertex AI), requests, responses and streams."""

from __future__ import annotations

from chatcodec.providers.gemini import request, response, stream_decode, stream_encode
from chatcodec.providers.gemini.markers import PROVIDER
from chatcodec.providers.provider_codec import ProviderCodec

CODEC = ProviderCodec(
    PROVIDER,
    requests=request,
    responses=response,
    stream_decoder=stream_decode.StreamDecoder,
    stream_encoder=stream_encode,
)
"""The codec instance registered as ``gemini``."""
