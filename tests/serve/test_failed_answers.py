"""An upstream answer that failed as a whole (a Responses ``Response`` with ``status:
"failed"`` and ``error``, HTTP 200) reaches a client of another API as the error it is, in
that API's shape, read by its official client: not as an answer that stopped."""

from __future__ import annotations

import openai
import pytest

from serve.harness import FakeUpstream, proxy

pytestmark = pytest.mark.usefixtures("fresh_fake")

FAILED = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1741476542,
    "status": "failed",
    "model": "gpt-4.1",
    "output": [],
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
    "error": {"code": "server_error", "message": "The model failed to generate a response."},
    "incomplete_details": None,
}


def test_a_failed_responses_answer_is_an_error_for_an_openai_chat_client(fake: FakeUpstream) -> None:
    with (
        proxy("openai-chat", "openai-responses", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        fake.reply(FAILED)
        with pytest.raises(openai.InternalServerError) as raised:
            client.chat.completions.create(model="gpt-4.1", messages=[{"role": "user", "content": "Hello"}])
    assert raised.value.status_code == 500
    assert "The model failed to generate a response." in str(raised.value)
