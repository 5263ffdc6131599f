"""What the target accepts, as a table with its sources (``RULES``): API versions, model
families, required fields. ``_providers/contract/target_rules.py`` applies it last to every request
this codec writes (``EncodeContext.rules``), so a rule that changes with the provider's
API is data with a date and a link, never a branch in a writer."""

from __future__ import annotations

from chatcodec.contract import ProviderRules, RequiredField

VERSION = "v1"
"""The one API version the toy wire has."""

_SOURCE = "https://example.com/template-chat/api"
"""Where a real provider's rule is documented: every rule names its source."""

RULES = ProviderRules(
    provider="template",
    api_versions=(VERSION,),
    default_version=VERSION,
    version_source=_SOURCE,
    required=(RequiredField("model", _SOURCE),),
)
"""The template's table: one version, a model required."""
