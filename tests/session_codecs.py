"""The codecs every test session registers beside the built-in ones (``tests/conftest.py``
calls :func:`register_session_codecs` when pytest loads it, before any test module reads the
registered providers; a law that looks a codec up in a fresh process calls it there too).

Today one: :data:`STREAMLESS_TWIN`, a real folder's codec registered a second time under a
name of its own, without its streams."""

from __future__ import annotations

from dataclasses import replace

import chatcodec
from chatcodec._providers.contract.provider_codec import ProviderCodec

STREAMLESS_TWIN = "ollama-streamless"
"""A codec registered for the whole test session: the ``ollama`` folder's codec under a name of
its own, given no stream decoder or encoder, as a folder without ``stream_decode.py`` and
``stream_encode.py`` would be (every stream entry point on it refuses at the call). Streams
are optional in the folder contract, so every run holds the laws to a streamless codec beside
the streaming ones: every law and test parametrized over the registered providers includes
it (its conformance entry: ``tests/providers/ollama_streamless/conformance.py``), a law over
every provider must call no stream entry point (``test_laws_read_capabilities.py``), the
stream laws read each codec's ``decodes_streams``/``encodes_streams``, and the fuzz harness
aims no stream target at it. Ollama's is the twin: the plainest of the six wires (one answer
per response, text content with images beside it), and the codec the laws were first held
streamless with (``make test-streamless``'s, which this replaces)."""

STREAMLESS_TWIN_OF = "ollama"
"""The registered provider whose folder :data:`STREAMLESS_TWIN` reuses."""

FIXTURE_FOLDERS = {STREAMLESS_TWIN: STREAMLESS_TWIN_OF}
"""Each session codec's recordings, by the folder under ``tests/fixtures`` that holds them
(its folder's: a twin reads the same wire), for the harnesses that find seeds by folder."""


def register_session_codecs() -> None:
    """Register :data:`STREAMLESS_TWIN` (for the whole run)."""
    chatcodec.register_codec(STREAMLESS_TWIN, lambda: _without_streams(chatcodec.get_codec(STREAMLESS_TWIN_OF)))


def _without_streams(codec: object) -> ProviderCodec:
    """A copy of a folder's codec under :data:`STREAMLESS_TWIN` (its edge too: an edge names
    its codec), given no stream decoder or encoder."""
    assert isinstance(codec, ProviderCodec), f"{codec!r} is no provider folder's codec"
    copy = object.__new__(ProviderCodec)
    for slot in ProviderCodec.__slots__:
        if hasattr(codec, slot):
            object.__setattr__(copy, slot, getattr(codec, slot))
    object.__setattr__(copy, "name", STREAMLESS_TWIN)
    object.__setattr__(copy, "edge", replace(codec.edge, provider=STREAMLESS_TWIN) if codec.edge else None)
    object.__setattr__(copy, "_new_stream_decoder", None)
    object.__setattr__(copy, "_new_stream_encoder", None)
    assert not copy.decodes_streams
    assert not copy.encodes_streams
    return copy
