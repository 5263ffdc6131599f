"""The effort-only formats' normal form (:func:`~conformance.normal_forms.effort_reading`)
says what their writer documents: thinking disabled, or a thinking budget of 0, is
effort ``none``, written without a report."""

from __future__ import annotations

from chatcodec.testing._laws.normal_forms import effort_reading


def test_a_thinking_budget_of_0_reads_as_effort_none() -> None:
    assert effort_reading({"budget_tokens": 0}) == {"effort": "none"}
    assert effort_reading({"enabled": False}) == {"effort": "none"}
    assert effort_reading({"budget_tokens": 0, "enabled": True}) == {"budget_tokens": 0, "enabled": True}
