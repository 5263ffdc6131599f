"""The provider laws, as they ship in ``chatcodec.testing``, over every registered provider's
entry (``providers.py``): this repository is the first user of the shipped laws, run as a
codec author runs them (one test case per law case, ``case.run()``)."""

from __future__ import annotations

import pytest

from chatcodec.testing import LawCase, law_cases
from conformance.providers import PROVIDERS

CASES = law_cases(PROVIDERS)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_law(case: LawCase) -> None:
    case.run()
