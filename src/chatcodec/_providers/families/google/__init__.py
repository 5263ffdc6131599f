"""Google's ``Schema`` object (the OpenAPI subset Gemini takes), read by every other target's writers
(see :mod:`chatcodec._providers.families`), and Gemini's thought signature as a call's
``gemini`` bag holds it, carried by the formats that have a place for it
(:mod:`.thought_signatures`)."""
