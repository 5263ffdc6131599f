"""What Ollama's ``/api/chat`` accepts today: one unversioned API that refuses a request
without a model ("model is required", ``server/routes.go``), and no model-family rule."""

from __future__ import annotations

from chatcodec.contract import ProviderRules, RequiredField

VERSION = "api"
"""Ollama's API has no version: its routes are ``/api/...``."""

_SOURCE = "https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion"

RULES = ProviderRules(
    provider="ollama",
    api_versions=(VERSION,),
    default_version=VERSION,
    version_source=_SOURCE,
    required=(RequiredField("model", _SOURCE),),
)
"""The Ollama table."""
