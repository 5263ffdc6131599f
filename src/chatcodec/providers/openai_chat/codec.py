"""The ``openai-chat`` codec object the registry loads: OpenAI Chat Completions and the
servers compatible with it."""

from __future__ import annotations

from chatcodec.providers.openai_chat import (
    assistant,
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
from chatcodec.providers.openai_chat.markers import OPTIONS, PROVIDER
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
    dialect=DialectDecoders(part=parts.decode_part, assistant=assistant.decode_assistant, tools=tools.decode_tools),
)
"""The codec instance registered as ``openai-chat``."""
