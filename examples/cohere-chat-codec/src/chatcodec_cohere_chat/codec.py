"""The codec object the ``chatcodec.codecs`` entry point names: the role modules handed to
:class:`chatcodec.contract.ProviderCodec`. This codec reads and writes no streams: no stream roles."""

from __future__ import annotations

from chatcodec.contract import ProviderCodec
from chatcodec_cohere_chat import (
    capabilities,
    finish_reason,
    messages,
    parts,
    request,
    response,
    rules,
    settings,
    tools,
    usage,
)
from chatcodec_cohere_chat.markers import OPTIONS, PROVIDER

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
    capabilities=capabilities,
    rules=rules,
    edge="chatcodec_cohere_chat.edge",
)
