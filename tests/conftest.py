"""Shared test settings: one Hypothesis profile for every property test.

On CI (``CI`` set) the examples are derandomized, so a run is reproducible and a rare
counterexample found locally does not turn an unrelated submission red at random;
locally every run explores new examples.

Tests that name their own ``max_examples`` keep it; the conformance laws
(``tests/conformance``) take the profile's, so the default run stays short and
``--hypothesis-profile=chatcodec-long`` (or ``CHATCODEC_HYPOTHESIS_PROFILE=chatcodec-long``)
runs them at length.
"""

import os

from hypothesis import settings

settings.register_profile("chatcodec", deadline=None, print_blob=True, max_examples=25)
settings.register_profile("chatcodec-ci", parent=settings.get_profile("chatcodec"), derandomize=True)
settings.register_profile("chatcodec-long", parent=settings.get_profile("chatcodec"), max_examples=2000)
_DEFAULT = "chatcodec-ci" if os.environ.get("CI") else "chatcodec"
settings.load_profile(os.environ.get("CHATCODEC_HYPOTHESIS_PROFILE", _DEFAULT))
