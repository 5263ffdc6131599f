"""Detection tells an Interactions body from an OpenAI Responses body (both have ``model``,
``input``, ``tools``, ``store``, ``background``): by the keys only Interactions has and by
the entries of ``input`` (Interactions' steps and contents, Responses' items). The bodies
are the recorded shapes (recorded_shapes.py names each source) and OpenAI's own examples."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from chatcodec import _detect as detect
from providers.gemini_interactions.recorded_shapes import AGENT_TURN, CONTENT_LIST_INPUT, INTERACTION

NAME = "gemini-interactions"


@pytest.mark.parametrize(
    "body", [AGENT_TURN, CONTENT_LIST_INPUT, INTERACTION], ids=["steps", "contents", "interaction"]
)
def test_an_interactions_body_is_detected_as_interactions(body: dict[str, Any]) -> None:
    assert detect.detect(copy.deepcopy(body)) == NAME
    assert detect.mismatch(NAME, body) is None
    assert detect.mismatch("openai-responses", body) is not None


@pytest.mark.parametrize(
    ("body", "found"),
    [
        ({"model": "gemini-3-flash-preview", "input": [{"type": "user_input"}]}, "'user_input'"),
        ({"model": "gemini-3-flash-preview", "input": "Hi", "system_instruction": "Be brief."}, "system_instruction"),
        (
            {"model": "gemini-3-flash-preview", "input": "Hi", "previous_interaction_id": "v1_abc"},
            "previous_interaction",
        ),
        ({"model": "gemini-3-flash-preview", "input": "Hi", "generation_config": {"temperature": 1}}, "generation_con"),
        ({"id": "v1_abc", "status": "requires_action", "steps": []}, "steps"),
    ],
)
def test_what_only_interactions_holds_tells_it_from_responses(body: dict[str, Any], found: str) -> None:
    assert detect.detect(body) == NAME
    refusal = detect.mismatch("openai-responses", body)
    assert refusal is not None
    assert found in refusal
    assert NAME in refusal


def test_a_responses_body_is_not_taken_for_interactions() -> None:
    """OpenAI's own request (https://platform.openai.com/docs/api-reference/responses/create):
    an untyped message item and ``input_text`` content, a ``function_call_output`` item."""
    body = {
        "model": "gpt-5",
        "instructions": "Be brief.",
        "input": [
            {"role": "user", "content": [{"type": "input_text", "text": "Weather in Paris?"}]},
            {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "call_1", "output": "18C"},
        ],
        "store": False,
    }
    assert detect.detect(body) == "openai-responses"
    assert detect.mismatch(NAME, body) is not None
