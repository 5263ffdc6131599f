"""Google's ``Schema`` object (the OpenAPI subset Gemini takes), read by every other target's writers
(see :mod:`chatcodec.providers.families`)."""
