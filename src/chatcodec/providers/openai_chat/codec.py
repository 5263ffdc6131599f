"""The ``openai-chat`` codec object the registry loads: OpenAI Chat Completions and the
servers compatible with it."""

from __future__ import annotations

from chatcodec.providers.openai_chat import assistant, parts, request, response, stream_decode, stream_encode, tools
from chatcodec.providers.openai_chat.markers import PROVIDER
from chatcodec.providers.provider_codec import DialectDecoders, ProviderCodec

CODEC = ProviderCodec(
    PROVIDER,
    requests=request,
    responses=response,
    stream_decoder=stream_decode.StreamDecoder,
    stream_encoder=stream_encode,
    dialect=DialectDecoders(part=parts.decode_part, assistant=assistant.decode_assistant, tools=tools.decode_tools),
)
"""The codec instance registered as ``openai-chat``."""
