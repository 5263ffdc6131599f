"""What a client accepts: the spec revision this codec writes. ``maxTokens`` is required
(``CreateMessageRequestParams``), and the settings writer always writes it: a request without
``max_tokens`` is sent :data:`DEFAULT_MAX_TOKENS`, reported as a ``default`` loss. No target
rule removes it, so the table states no required field (the rules engine looks for one at the
body's top, where a JSON-RPC request holds ``params``, not ``maxTokens``)."""

from __future__ import annotations

from chatcodec._frameworks.mcp_sampling import SPEC_VERSION
from chatcodec._frameworks.mcp_sampling.markers import PROVIDER
from chatcodec.contract import ProviderRules

_SOURCE = "https://modelcontextprotocol.io/specification/2025-11-25/schema#createmessagerequestparams"

DEFAULT_MAX_TOKENS = 1024
"""What a request without ``max_tokens`` is sent (the spec gives no default)."""

RULES = ProviderRules(
    provider=PROVIDER,
    api_versions=(SPEC_VERSION,),
    default_version=SPEC_VERSION,
    version_source=_SOURCE,
)
