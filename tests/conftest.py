"""Shared test settings: one Hypothesis profile for every property test, and the codecs every
session registers beside the built-in ones (``session_codecs``: a streamless codec, so every
law over the registered providers holds for a codec without streams in every run).

``make test`` (what CI runs) picks ``chatcodec-ci`` by ``CHATCODEC_HYPOTHESIS_PROFILE``: the
examples are derandomized and no example database is read, so a fresh clone's run is the
same every time and a rare counterexample does not turn an unrelated submission red at
random (as ``CI`` set in the environment does). A bare ``pytest`` explores new examples
every run, and ``make pytest-random`` runs the random profile at length.

Tests that name their own ``max_examples`` keep it; the conformance laws
(``tests/conformance``) take the profile's, so the default run stays short and
``--hypothesis-profile=chatcodec-long`` (or ``CHATCODEC_HYPOTHESIS_PROFILE=chatcodec-long``)
runs them at length.

Every test is held to reading nothing beside the checkout (``outside_reads``): a fresh clone
has nothing there.
"""

import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import settings

from outside_reads import WATCH
from session_codecs import register_session_codecs

settings.register_profile("chatcodec", deadline=None, print_blob=True, max_examples=25)
settings.register_profile("chatcodec-ci", parent=settings.get_profile("chatcodec"), derandomize=True, database=None)
settings.register_profile("chatcodec-long", parent=settings.get_profile("chatcodec"), max_examples=2000)
_DEFAULT = "chatcodec-ci" if os.environ.get("CI") else "chatcodec"
settings.load_profile(os.environ.get("CHATCODEC_HYPOTHESIS_PROFILE", _DEFAULT))


register_session_codecs()

sys.addaudithook(WATCH.hook)


@pytest.fixture(scope="session", autouse=True)
def _temp_folders_allowed(tmp_path_factory: pytest.TempPathFactory) -> None:
    WATCH.allow(tmp_path_factory.getbasetemp())


@pytest.fixture(scope="session", autouse=True)
def _templates_compiled_into_the_run(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Compiled templates go to the run's temp folder (and its child processes'), never the
    user's cache: ``CHATCODEC_TEMPLATE_CACHE``, unless the caller set it."""
    os.environ.setdefault("CHATCODEC_TEMPLATE_CACHE", str(tmp_path_factory.mktemp("compiled-templates")))


@pytest.fixture(autouse=True)
def _nothing_read_beside_the_checkout() -> Iterator[None]:
    yield
    if found := WATCH.take():
        pytest.fail(f"read beside the checkout {WATCH.root} (in this test or at collection): {found}", pytrace=False)
