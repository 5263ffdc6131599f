"""The ``ai-sdk-model`` codec: the folder's role modules (and the roles both AI SDK formats
share, :mod:`..ai_sdk`) handed to ``ProviderCodec`` (no edge, no streams: a stored history
is no HTTP API)."""

from __future__ import annotations

from chatcodec._frameworks.ai_sdk import finish_reason, settings, tools, usage
from chatcodec._frameworks.ai_sdk_model import capabilities, messages, parts, request, response
from chatcodec._frameworks.ai_sdk_model.markers import OPTIONS, PROVIDER
from chatcodec.contract import ProviderCodec

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
)
"""The codec ``_registry.FRAMEWORK_FORMATS`` names."""
