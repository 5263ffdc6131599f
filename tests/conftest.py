"""Shared test settings: one Hypothesis profile for every property test.

On CI (``CI`` set) the examples are derandomized, so a run is reproducible and a rare
counterexample found locally does not turn an unrelated submission red at random;
locally every run explores new examples.
"""

import os

from hypothesis import settings

settings.register_profile("chatcodec", deadline=None, print_blob=True)
settings.register_profile("chatcodec-ci", parent=settings.get_profile("chatcodec"), derandomize=True)
settings.load_profile("chatcodec-ci" if os.environ.get("CI") else "chatcodec")
