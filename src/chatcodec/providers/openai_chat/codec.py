"""The ``openai-chat`` codec object the registry loads: OpenAI Chat Completions and the
servers compatible with it."""

from __future__ import annotations

from chatcodec.providers.openai_chat import request, response, stream, stream_accumulate
from chatcodec.providers.openai_chat.markers import PROVIDER
from chatcodec.providers.provider_codec import ProviderCodec

CODEC = ProviderCodec(
    PROVIDER,
    requests=request,
    responses=response,
    stream_decoder=stream.StreamDecoder,
    stream_encoder=stream,
    accumulate=stream_accumulate.accumulate_stream,
)
"""The codec instance registered as ``openai-chat``."""
