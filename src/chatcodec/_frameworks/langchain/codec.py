"""The ``langchain`` codec: the folder's role modules handed to ``ProviderCodec`` (no edge,
no streams: a stored history is no HTTP API)."""

from __future__ import annotations

from chatcodec._frameworks.langchain import (
    blocks,
    capabilities,
    finish_reason,
    messages,
    request,
    response,
    settings,
    tools,
    usage,
)
from chatcodec._frameworks.langchain.markers import OPTIONS, PROVIDER
from chatcodec.contract import ProviderCodec

CODEC = ProviderCodec(
    PROVIDER,
    options=OPTIONS,
    requests=request,
    responses=response,
    finish_reasons=finish_reason,
    usage=usage,
    messages=messages,
    parts=blocks,
    tools=tools,
    settings=settings,
    capabilities=capabilities,
)
"""The codec ``_registry.FRAMEWORK_FORMATS`` names."""
