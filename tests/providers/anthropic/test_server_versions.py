"""A body written for an Anthropic-compatible server is held to the server's own table, not
to the Anthropic API's version and Claude-model rules.

DeepSeek's compatibility table (https://api-docs.deepseek.com/guides/anthropic_api,
"Anthropic API Compatibility Details") lists the ``anthropic-version`` header as
"Ignored", ``temperature`` as "Fully Supported (range [0.0 ~ 2.0])" and ``top_p`` as
"Fully Supported"; MiniMax's (https://platform.minimax.io/docs/api-reference/text-anthropic-api,
"Supported Parameters") lists ``temperature`` (0.0, 1.0] and ``top_p`` as fully supported.
Anthropic's own 2026-10-21 version removes both (its migration guide), which is a rule of
Anthropic's API, not theirs. The bodies are checked against the Anthropic SDK's
``MessageCreateParamsNonStreaming`` (anthropic 2.12), the shape the servers take.
"""

from __future__ import annotations

from typing import Any

import pytest
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

import chatcodec
from sdk_oracle import check

OPENAI_CHAT: dict[str, Any] = {
    "model": "claude-opus-4-7",  # DeepSeek maps claude-opus* to deepseek-v4-pro
    "messages": [{"role": "user", "content": "Hi"}],
    "temperature": 1.5,
    "top_p": 0.9,
    "max_tokens": 100,
}


def _to(server: str | None) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    options = {"server": server} if server else None
    body = chatcodec.convert_request(
        OPENAI_CHAT, source="openai-chat", target="anthropic", options=options, losses=losses, on_loss="ignore"
    )
    check(MessageCreateParamsNonStreaming, body)
    return body, losses


def test_deepseek_is_sent_temperature_and_top_p_in_its_own_range() -> None:
    body, losses = _to("deepseek")
    assert (body["temperature"], body["top_p"]) == (1.5, 0.9)
    assert losses == []


def test_deepseek_clamps_to_its_own_temperature_bound() -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        {**OPENAI_CHAT, "temperature": 2.0},
        source="openai-chat",
        target="anthropic",
        options={"server": "deepseek"},
        losses=losses,
    )
    assert body["temperature"] == 2.0
    assert losses == []


def test_minimax_keeps_top_p_and_holds_temperature_to_its_range() -> None:
    body, losses = _to("minimax")
    assert (body["temperature"], body["top_p"]) == (1.0, 0.9)
    assert [loss.what for loss in losses] == ["temperature 1.5"]
    assert "minimax" in losses[0].why


@pytest.mark.parametrize("server", ["kimi", "zai"])
def test_servers_without_a_list_keep_sampling_in_the_api_range(server: str) -> None:
    body, losses = _to(server)
    assert (body["temperature"], body["top_p"]) == (1.0, 0.9)
    assert [loss.what for loss in losses] == ["temperature 1.5"]
    assert "sampling_range" in losses[0].why


def test_anthropic_itself_still_drops_them_under_2026_10_21() -> None:
    body, losses = _to(None)
    assert "temperature" not in body
    assert "top_p" not in body
    assert {loss.what for loss in losses} == {"temperature 1.5", "top_p 0.9"}
    assert all("sampling_removed" in loss.why for loss in losses)
