"""A failed Responses answer stays a failure in other formats: a ``Response`` with
``status: "failed"`` and ``error`` (the openai SDK's ``Response.error``, a ``ResponseError``
of ``code`` and ``message``) is that error, not an answer that stopped; and in a converted
stream nothing follows the error (Responses streams end with ``response.failed``, its
``error`` event before it or not: platform.openai.com/docs/api-reference/responses-streaming)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from openai.types.responses import Response, ResponseStreamEvent
from pydantic import TypeAdapter

import chatcodec
from chatcodec import Loss, ProviderAPIError

ERROR = {"code": "server_error", "message": "The model failed to generate a response."}
IN_PROGRESS: dict[str, Any] = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1741476542,
    "status": "in_progress",
    "model": "gpt-4.1",
    "output": [],
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
    "error": None,
    "incomplete_details": None,
}
FAILED = {**IN_PROGRESS, "status": "failed", "error": ERROR}
OTHERS = ["openai-chat", "anthropic", "gemini", "bedrock-converse", "bedrock-nova", "ollama"]


def test_the_failed_answer_is_the_sdks_response() -> None:
    assert Response.model_validate(FAILED).error is not None


@pytest.mark.parametrize("target", OTHERS)
def test_a_failed_answer_converts_as_its_error(target: str) -> None:
    with pytest.raises(ProviderAPIError) as raised:
        chatcodec.convert_response(FAILED, source="openai-responses", target=target)
    assert (raised.value.message, raised.value.error_type, raised.value.status_code, raised.value.provider) == (
        ERROR["message"],
        "server_error",
        500,
        "openai-responses",  # the codec whose answer failed: its type is read in its namespace
    )


def test_a_failed_answer_stays_itself_in_its_own_format() -> None:
    assert chatcodec.convert_response(FAILED, source="openai-responses", target="openai-responses") == FAILED
    assert chatcodec.decode_response("openai-responses", FAILED).choices[0].finish_reason.unified == "error"


def test_an_error_finish_without_an_error_object_is_still_an_answer() -> None:
    """Gemini's ``MALFORMED_FUNCTION_CALL`` ends an answer (finish ``error``) with no error
    object: it converts as the answer it is."""
    gemini = {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "x"}]}, "finishReason": "MALFORMED_FUNCTION_CALL"}
        ]
    }
    body = chatcodec.convert_response(gemini, source="gemini", target="openai-chat", on_loss="ignore")
    assert body["choices"][0]["message"]["content"] == "x"


def _sse(events: list[dict[str, Any]]) -> bytes:
    adapter: TypeAdapter[Any] = TypeAdapter(ResponseStreamEvent)
    for event in events:
        adapter.validate_python(event)  # each event is the SDK's
    return "".join(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n" for event in events).encode()


ERROR_EVENT = {
    "type": "error",
    "sequence_number": 1,
    "code": "server_error",
    "message": ERROR["message"],
    "param": None,
}
CREATED = {"type": "response.created", "sequence_number": 0, "response": IN_PROGRESS}


def _terminal(number: int) -> dict[str, Any]:
    return {"type": "response.failed", "sequence_number": number, "response": FAILED}


def _converted(events: list[dict[str, Any]], target: str) -> tuple[list[str], list[Loss]]:
    """The converted stream's payloads (SSE ``data:`` lines, or JSON lines), and its losses."""
    losses: list[Loss] = []
    chunks = chatcodec.convert_stream(
        _sse(events), source="openai-responses", target=target, losses=losses, on_loss="ignore"
    )
    lines = b"".join(chunks).decode().splitlines()
    return [line.removeprefix("data: ") for line in lines if line and not line.startswith("event: ")], losses


OPENAI_ERROR = {"error": {"message": ERROR["message"], "type": "server_error", "param": None, "code": None}}


@pytest.mark.parametrize(
    "events", [[CREATED, ERROR_EVENT, _terminal(2)], [CREATED, _terminal(1)]], ids=["error", "failed"]
)
def test_a_failed_stream_ends_with_the_error_in_openai_chat(events: list[dict[str, Any]]) -> None:
    lines, losses = _converted(events, "openai-chat")
    assert lines == [json.dumps(OPENAI_ERROR, separators=(",", ":")), "[DONE]"]
    assert [loss.what for loss in losses] == ["events after the error"]


@pytest.mark.parametrize("target", ["anthropic", "gemini", "ollama"])
def test_nothing_follows_the_error_in_other_formats(target: str) -> None:
    lines, losses = _converted([CREATED, ERROR_EVENT, _terminal(2)], target)
    assert len(lines) == 1
    assert ERROR["message"] in lines[0]
    assert [loss.what for loss in losses if loss.path == "$.events"] == ["events after the error"]


@pytest.mark.parametrize("target", ["bedrock-converse", "bedrock-nova"])
def test_nothing_follows_the_exception_event_on_bedrock(target: str) -> None:
    events = chatcodec.decode_stream("openai-responses", [CREATED, ERROR_EVENT, _terminal(2)])
    written = list(chatcodec.encode_stream(target, events, on_loss="ignore"))
    assert written == [{"internalServerException": {"message": ERROR["message"]}}]


def test_a_failed_stream_without_an_error_event_gets_none_added_in_its_own_format() -> None:
    """The error a ``response.failed`` carries is read as the stream's error (so other formats
    end with it), and this format writes it back in that terminal only: no ``error`` event added."""
    events = [CREATED, _terminal(1)]
    decoded = chatcodec.decode_stream("openai-responses", events)
    assert [event.type for event in decoded if event.type == "error"] == ["error"]
    lines, _ = _converted(events, "openai-responses")
    assert [json.loads(line)["type"] for line in lines] == [
        "response.created",
        "response.in_progress",
        "response.failed",
    ]
