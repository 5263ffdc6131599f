"""What a client accepts: ``maxTokens`` is required (``CreateMessageRequestParams``); the
settings writer sends a request without one :data:`DEFAULT_MAX_TOKENS`, reported as a
``default`` loss, and this table reports it missing after a rule removed it."""

from __future__ import annotations

from chatcodec._frameworks.mcp_sampling import SPEC_VERSION
from chatcodec._frameworks.mcp_sampling.markers import PROVIDER
from chatcodec.contract import ProviderRules, RequiredField

_SOURCE = "https://modelcontextprotocol.io/specification/2025-11-25/schema#createmessagerequestparams"

DEFAULT_MAX_TOKENS = 1024
"""What a request without ``max_tokens`` is sent (the spec gives no default)."""

RULES = ProviderRules(
    provider=PROVIDER,
    api_versions=(SPEC_VERSION,),
    default_version=SPEC_VERSION,
    version_source=_SOURCE,
    required=(RequiredField("maxTokens", _SOURCE, default=DEFAULT_MAX_TOKENS),),
)
