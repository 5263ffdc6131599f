"""Interactions (the response resource) both ways: the recorded shape read and written back
exactly, each documented ``status`` to its unified finish reason (google-genai 3.6.1
``InteractionStatus``), usage in ``total_*_tokens``, the API's error body raised, and an
answer from another format written as an Interaction the SDK parses."""

from __future__ import annotations

import copy

import pytest

import chatcodec
from chatcodec import ProviderAPIError
from providers.gemini_interactions.interactions_support import CODEC, sdk_checked, write_response
from providers.gemini_interactions.recorded_shapes import INTERACTION


def test_an_interaction_round_trips_exactly() -> None:
    written, losses = write_response(CODEC.read_response(copy.deepcopy(INTERACTION)))
    assert written == INTERACTION
    assert losses == []
    sdk_checked("Interaction", written)


def test_an_interaction_reads_as_one_answer() -> None:
    response = CODEC.decode_response(copy.deepcopy(INTERACTION))
    choice = response.choices[0]
    assert choice.finish_reason is not None
    assert (choice.finish_reason.unified, choice.finish_reason.raw) == ("tool_calls", "requires_action")
    kinds = [part.type for part in choice.message.parts]
    assert kinds == ["thinking", "text", "tool_use", "opaque"]  # the search call kept whole
    assert response.usage is not None
    usage = response.usage
    assert (usage.input_tokens, usage.output_tokens, usage.reasoning_tokens, usage.cache_read_tokens) == (
        120,
        42,
        12,
        64,
    )


@pytest.mark.parametrize(
    ("status", "unified"),
    [
        ("completed", "stop"),
        ("requires_action", "tool_calls"),
        ("incomplete", "length"),
        ("budget_exceeded", "length"),
        ("failed", "error"),
        ("cancelled", "other"),
        ("in_progress", "other"),
        ("queued", "other"),
        ("idle", "other"),
        ("requires_continuation", "other"),
    ],
)
def test_every_status_has_its_finish_reason_and_is_written_back(status: str, unified: str) -> None:
    body = {**copy.deepcopy(INTERACTION), "status": status}
    response = CODEC.read_response(body)
    assert response["choices"][0]["finish_reason"] == {"unified": unified, "raw": status}
    assert write_response(response)[0]["status"] == status


def test_an_error_body_is_the_apis_error() -> None:
    body = {"error": {"code": 400, "message": "model is required", "status": "INVALID_ARGUMENT"}}
    with pytest.raises(ProviderAPIError) as caught:
        CODEC.decode_response(body)
    assert caught.value.error_type == "INVALID_ARGUMENT"


def test_an_openai_chat_answer_is_written_as_an_interaction() -> None:
    answer = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": "Calling.",
                    "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a":1}'}}],
                },
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8},
    }
    response = chatcodec.get_codec("openai-chat").decode_response(answer)
    written, losses = write_response(response.model_dump())
    assert written["status"] == "requires_action"
    assert written["steps"] == [
        {"type": "model_output", "content": [{"type": "text", "text": "Calling."}]},
        {"type": "function_call", "id": "c1", "name": "f", "arguments": {"a": 1}},
    ]
    assert written["usage"] == {"total_input_tokens": 5, "total_output_tokens": 3}
    assert all("openai-chat" in loss.what or loss.kind == "metadata" for loss in losses), losses
    sdk_checked("Interaction", written)


def test_more_reasoning_than_output_is_reported_not_clamped_silently() -> None:
    """The Interactions wire counts the answer without its thoughts: a canonical output
    smaller than its reasoning has no count that says it (as Gemini's ``candidatesTokenCount``)."""
    response = chatcodec.ChatResponse(
        choices=[{"index": 0, "message": {"role": "assistant", "content": "a"}}],
        usage={"output_tokens": 0, "reasoning_tokens": 1},
    )
    written, losses = write_response(response.model_dump())
    assert written["usage"]["total_output_tokens"] == 0
    assert [(loss.path, loss.what) for loss in losses if loss.kind == "metadata"] == [
        ("$.usage.output_tokens", "output token count")
    ]
