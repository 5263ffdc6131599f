"""The ``bedrock-converse`` codec object the registry loads: AWS Bedrock ``Converse`` and
``ConverseStream`` as JSON (requests, responses and streams)."""

from __future__ import annotations

from chatcodec.providers.bedrock_converse import request, response, stream_decode, stream_encode
from chatcodec.providers.bedrock_converse.markers import PROVIDER
from chatcodec.providers.provider_codec import ProviderCodec

CODEC = ProviderCodec(
    PROVIDER,
    requests=request,
    responses=response,
    stream_decoder=stream_decode.StreamDecoder,
    stream_encoder=stream_encode,
)
"""The codec instance registered as ``bedrock-converse``."""
