"""The short fuzz run: every public entry point, a few examples each, in the normal suite.

Hypothesis drives the mutation engine (:mod:`fuzz.mutate`), so a failure shrinks to a
small input and is replayed from the database; the long run is ``run.py`` (see
``README.md`` in this folder).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.targets import KNOWN_BROKEN_TARGETS, Target, all_targets, check

TARGETS = [target for target in all_targets() if target.name not in KNOWN_BROKEN_TARGETS]


class DrawnChooser:
    """Choices drawn from Hypothesis (shrinking goes towards the first option)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def below(self, count: int) -> int:
        return self.data.draw(st.integers(0, count - 1)) if count > 1 else 0


@pytest.mark.parametrize("target", TARGETS, ids=[target.name for target in TARGETS])
@settings(max_examples=15, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_entry_point_raises_only_chatcodec_errors_with_real_paths(target: Target, data: st.DataObject) -> None:
    value = target.make(DrawnChooser(data))
    outcome = check(target, value)
    assert outcome == "ok" or outcome.endswith("Error"), outcome


def test_every_public_entry_point_has_a_target() -> None:
    names = {target.name.partition("[")[0] for target in TARGETS}
    assert names >= {
        "decode_request",
        "decode_request_text",
        "decode_response",
        "decode_response_text",
        "decode_stream",
        "accumulate_stream",
        "accumulate_stream_sse",
        "sse_reader",
        "convert_request",
        "convert_response",
        "stream_then_encode",
        "encode_request",
        "encode_response",
        "parsed_arguments",
        "validate_messages",
        "validate_messages_text",
        "conversation",
        "conversation_messages",
        "cli_convert",
        "cli_validate",
        "parse_completion",
    }
