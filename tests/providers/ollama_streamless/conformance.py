"""What the conformance laws need to know about ``ollama-streamless``, the session's streamless
codec (``tests/session_codecs.py``): the ``ollama`` folder registered a second time, without its
stream decoder and encoder. Its wire, its recordings and its facts are Ollama's, so its
entry is Ollama's under its own name: every law over every provider runs for it as for a
codec without streams, and the stream laws, which read ``decodes_streams``/``encodes_streams``,
leave it out."""

from __future__ import annotations

from dataclasses import replace

from providers.ollama.conformance import ENTRY as TWIN_OF_ENTRY
from session_codecs import STREAMLESS_TWIN, STREAMLESS_TWIN_OF

assert TWIN_OF_ENTRY.name == STREAMLESS_TWIN_OF

ENTRY = replace(TWIN_OF_ENTRY, name=STREAMLESS_TWIN, fixtures=TWIN_OF_ENTRY.fixtures)
