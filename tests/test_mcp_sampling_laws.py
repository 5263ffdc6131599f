"""Every provider law over the built-in ``mcp-sampling`` codec, with the facts only its spec
and SDK give: its law entry (``chatcodec.testing._laws.built_in.mcp_sampling``, what
``chatcodec check-codec mcp-sampling`` reads) with the spec's examples as recordings
(``tests/fixtures/mcp-sampling``) and the MCP SDK's types as the oracle of every body it
writes (``mcp_sampling_oracle``)."""

from __future__ import annotations

import pytest

from chatcodec.testing import LawCase, codec_law_cases
from chatcodec.testing._laws.built_in.mcp_sampling import entry
from mcp_sampling_oracle import FIXTURES, check_request, check_response

CASES = codec_law_cases(
    "mcp-sampling", entry(fixtures=FIXTURES, check_request=check_request, check_response=check_response)
)


def test_the_laws_cover_the_recordings_and_the_oracle() -> None:
    """More than a hundred cases (the outside example ran 104), one round trip per recording."""
    assert len(CASES) >= 100
    recorded = [case for case in CASES if "recorded_request_round_trips_exactly" in case.id]
    assert len(recorded) == len(list((FIXTURES / "request").glob("*.json")))


@pytest.mark.parametrize("case", CASES, ids=str)
def test_law(case: LawCase) -> None:
    case.run()
