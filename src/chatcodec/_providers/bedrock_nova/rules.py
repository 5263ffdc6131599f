"""What Nova accepts, by model (``RULES``), each rule with its source: the one API version,
and the model rules the writer applies last (``_providers/contract/target_rules.py``)."""

from __future__ import annotations

from chatcodec._providers.contract.target_rules import ProviderRules

VERSION = "messages-v1"
"""The body's one schema version (``schemaVersion``)."""

_SOURCE = "https://docs.aws.amazon.com/nova/latest/nova2-userguide/request-response-schema.html"

RULES = ProviderRules(
    provider="bedrock-nova",
    api_versions=(VERSION,),
    default_version=VERSION,
    version_source=_SOURCE,
)
"""Nova's table."""
