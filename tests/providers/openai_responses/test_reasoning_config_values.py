"""Responses readings: a reasoning setting of the wrong JSON type is refused at its path."""

from __future__ import annotations

import pytest

import chatcodec

FORMAT = "openai-responses"


@pytest.mark.parametrize("key", ["effort", "summary"])
@pytest.mark.parametrize("value", [["low"], {"level": "low"}])
def test_list_or_object_in_reasoning_effort_or_summary_is_a_validation_error_at_its_path(
    key: str, value: object
) -> None:
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.decode_request(FORMAT, {"model": "m", "input": "hi", "reasoning": {key: value}})
    assert caught.value.paths == [f"$.reasoning.{key}"]
