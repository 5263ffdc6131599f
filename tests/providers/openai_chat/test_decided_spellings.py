"""What docs/converting.md ("Decided, not losses") says is no loss, held: OpenAI's
reference deprecates ``max_tokens`` "in favor of ``max_completion_tokens``" (one setting,
two spellings), and the SDK's Responses ``Response.created_at`` is required, so an answer
with no time gets the clock's, reported as invented (issue 61)."""

from __future__ import annotations

import chatcodec
from chatcodec import Loss

REQUEST = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 100}


def test_max_tokens_after_a_trip_elsewhere_is_the_same_setting_under_its_current_name() -> None:
    there = chatcodec.convert_request(dict(REQUEST), source="openai-chat", target="gemini", on_loss="ignore")
    losses: list[Loss] = []
    back = chatcodec.convert_request(there, source="gemini", target="openai-chat", losses=losses, on_loss="ignore")
    assert back["max_completion_tokens"] == 100
    assert "max_tokens" not in back
    assert [loss for loss in losses if "max" in loss.path] == []
    home = chatcodec.encode_request("openai-chat", chatcodec.decode_request("openai-chat", dict(REQUEST)))
    assert home == REQUEST  # the same format keeps the spelling


def _answer(created: int | None) -> chatcodec.ChatResponse:
    message = chatcodec.AssistantMessage(content="hi")
    choice = chatcodec.ResponseChoice(index=0, message=message, finish_reason=chatcodec.FinishReason(unified="stop"))
    return chatcodec.ChatResponse(id="resp_1", model="gpt-4.1", created=created, choices=[choice])


def test_a_responses_answer_with_no_time_gets_the_clocks_reported_and_one_with_a_time_keeps_it() -> None:
    losses: list[Loss] = []
    chatcodec.encode_response("openai-responses", _answer(None), losses=losses, on_loss="ignore")
    assert [(loss.path, loss.kind) for loss in losses] == [("$.created", "default")]
    timed = [chatcodec.encode_response("openai-responses", _answer(1700000000)) for _ in range(2)]
    assert timed[0] == timed[1]
    assert timed[0]["created_at"] == 1700000000
