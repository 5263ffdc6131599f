"""The ``pydantic-ai`` codec: the folder's role modules handed to ``ProviderCodec`` (no edge,
no streams: a stored history is no HTTP API)."""

from __future__ import annotations

from chatcodec._frameworks.pydantic_ai import (
    capabilities,
    finish_reason,
    messages,
    request,
    response,
    settings,
    tools,
    usage,
)
from chatcodec._frameworks.pydantic_ai.markers import OPTIONS, PROVIDER
from chatcodec.contract import ProviderCodec

CODEC = ProviderCodec(
    PROVIDER,
    options=OPTIONS,
    requests=request,
    responses=response,
    finish_reasons=finish_reason,
    usage=usage,
    messages=messages,
    parts=messages,
    tools=tools,
    settings=settings,
    capabilities=capabilities,
)
"""The codec ``_registry.FRAMEWORK_FORMATS`` names."""
