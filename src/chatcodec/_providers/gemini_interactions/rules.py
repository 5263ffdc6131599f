"""What the Interactions API accepts, with its sources (``RULES``): the model is required
(``CreateModelInteraction.model``, google-genai 3.6.1), the API is ``v1beta`` and the steps
schema the one answered since it became the default (2026-05-20; the outputs schema was
removed 2026-06-06: https://ai.google.dev/gemini-api/docs/changelog)."""

from __future__ import annotations

from chatcodec.contract import ProviderRules, RequiredField

VERSION = "v1beta"
"""The API version of ``POST /v1beta/interactions``."""

_SOURCE = "https://ai.google.dev/api/interactions-api"

RULES = ProviderRules(
    provider="gemini-interactions",
    api_versions=(VERSION,),
    default_version=VERSION,
    version_source=_SOURCE,
    required=(RequiredField("model", _SOURCE),),
)
"""One version, a model required."""
