"""A thinking budget of 0 is thinking off: OpenAI Chat writes effort ``none`` without a
report, and the single-hop loss law's normal form reads it so."""

from __future__ import annotations

import chatcodec
from providers.openai_chat.conformance import ENTRY


def test_a_thinking_budget_of_0_passes_the_single_hop_law() -> None:
    single_hop = ENTRY.single_hop
    request = chatcodec.ChatRequest.model_validate({"messages": [], "reasoning": {"budget_tokens": 0}})
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("openai-chat", request, on_loss="ignore", losses=losses)
    assert body["reasoning_effort"] == "none"
    assert [loss for loss in losses if loss.kind != "required"] == []
    assert single_hop.decoded(chatcodec.decode_request("openai-chat", body)) == single_hop.original(request)
