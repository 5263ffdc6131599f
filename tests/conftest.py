"""Shared test settings: one Hypothesis profile for every property test.

``make test`` (what CI runs) picks ``chatcodec-ci`` by ``CHATCODEC_HYPOTHESIS_PROFILE``: the
examples are derandomized and no example database is read, so a fresh clone's run is the
same every time and a rare counterexample does not turn an unrelated submission red at
random (as ``CI`` set in the environment does). A bare ``pytest`` explores new examples
every run, and ``make pytest-random`` runs the random profile at length.

Tests that name their own ``max_examples`` keep it; the conformance laws
(``tests/conformance``) take the profile's, so the default run stays short and
``--hypothesis-profile=chatcodec-long`` (or ``CHATCODEC_HYPOTHESIS_PROFILE=chatcodec-long``)
runs them at length.
"""

import os

from hypothesis import settings

settings.register_profile("chatcodec", deadline=None, print_blob=True, max_examples=25)
settings.register_profile("chatcodec-ci", parent=settings.get_profile("chatcodec"), derandomize=True, database=None)
settings.register_profile("chatcodec-long", parent=settings.get_profile("chatcodec"), max_examples=2000)
_DEFAULT = "chatcodec-ci" if os.environ.get("CI") else "chatcodec"
settings.load_profile(os.environ.get("CHATCODEC_HYPOTHESIS_PROFILE", _DEFAULT))


LAWS_WITHOUT_STREAMS = "CHATCODEC_LAWS_WITHOUT_STREAMS"
"""An environment variable naming registered providers (comma-separated, or ``all``) whose
codecs the run registers again without their stream decoder and encoder, as a folder
without ``stream_decode.py``/``stream_encode.py`` would be: every stream entry point on
them refuses at the call. Streams are optional in the folder contract, so the laws must hold
for such a codec: the laws over every provider must call no stream entry point, the stream
laws must read each codec's ``decodes_streams``/``encodes_streams``, and the fuzz harness
must aim no stream target at it (``make test-streamless`` runs them so)."""


def register_streamless() -> None:
    """Register the codecs :data:`LAWS_WITHOUT_STREAMS` names streamless, for the whole run
    (when this file is imported: before any test module reads which codecs stream)."""
    wanted = os.environ.get(LAWS_WITHOUT_STREAMS, "").strip()
    if not wanted:
        return
    import chatcodec

    names = chatcodec.registered_providers() if wanted == "all" else [name.strip() for name in wanted.split(",")]
    for name in names:
        streamless = _without_streams(chatcodec.get_codec(name))
        chatcodec.register_codec(name, lambda codec=streamless: codec)


def _without_streams(codec: object) -> object:
    """A copy of a folder's codec given no stream decoder or encoder."""
    from chatcodec.providers.contract.provider_codec import ProviderCodec

    assert isinstance(codec, ProviderCodec), f"{codec!r} is no provider folder's codec"
    copy = object.__new__(ProviderCodec)
    for slot in ProviderCodec.__slots__:
        if hasattr(codec, slot):
            object.__setattr__(copy, slot, getattr(codec, slot))
    object.__setattr__(copy, "_new_stream_decoder", None)
    object.__setattr__(copy, "_new_stream_encoder", None)
    assert not copy.decodes_streams
    assert not copy.encodes_streams
    return copy


register_streamless()
