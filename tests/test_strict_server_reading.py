"""``decode_request(..., strict=True, options={"server": ...})``: strict reading for one
compatible server accepts the fields that server documents, and no other server's."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec

THINKING_BODY: dict[str, Any] = {
    "model": "deepseek-reasoner",
    "messages": [{"role": "user", "content": "Hi"}],
    "thinking": {"type": "enabled"},
}
"""An OpenAI Chat body with DeepSeek's ``thinking`` extension."""


def test_strict_reading_for_a_named_server_accepts_the_fields_it_documents() -> None:
    request = chatcodec.decode_request("openai-chat", THINKING_BODY, strict=True, options={"server": "deepseek"})
    assert request.model == "deepseek-reasoner"


def test_strict_reading_for_a_named_server_refuses_another_servers_fields() -> None:
    with pytest.raises(chatcodec.ValidationError, match="thinking"):
        chatcodec.decode_request("openai-chat", THINKING_BODY, strict=True, options={"server": "groq"})


def test_strict_reading_for_an_anthropic_compatible_server_is_reachable() -> None:
    body = {"model": "deepseek-v4-pro", "max_tokens": 10, "messages": [{"role": "user", "content": "Hi"}]}
    assert chatcodec.decode_request("anthropic", body, strict=True, options={"server": "deepseek"}).max_tokens == 10
    with pytest.raises(chatcodec.ProviderLookupError, match="minimax"):
        chatcodec.decode_request("anthropic", body, strict=True, options={"server": "groq"})


def test_an_option_reading_does_not_take_is_refused() -> None:
    with pytest.raises(chatcodec.PayloadError, match="server"):
        chatcodec.decode_request("openai-chat", THINKING_BODY, options={"sever": "deepseek"})
