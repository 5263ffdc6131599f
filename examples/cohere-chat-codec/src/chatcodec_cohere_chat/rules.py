"""What the API accepts: ``model`` is required (the reference's request body); a request
without one is reported missing, as every codec's writer reports it (``--storage`` skips it)."""

from __future__ import annotations

from chatcodec.contract import ProviderRules, RequiredField
from chatcodec_cohere_chat import API_VERSION
from chatcodec_cohere_chat.markers import PROVIDER

_SOURCE = "https://docs.cohere.com/reference/chat"

RULES = ProviderRules(
    provider=PROVIDER,
    api_versions=(API_VERSION,),
    default_version=API_VERSION,
    version_source=_SOURCE,
    required=(RequiredField("model", _SOURCE),),
)
