"""Anthropic usage with compaction iterations counts the compaction step's tokens: the
top-level counts exclude it ("sum across all entries in the usage.iterations array",
Anthropic "Compaction"), so canonical usage is the sum of the iterations, and the body
comes back to Anthropic exactly."""

from __future__ import annotations

from typing import Any

import chatcodec

FORMAT = "anthropic"


def _response(usage: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-opus-4-6",
        "content": [{"type": "text", "text": "done"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": usage,
    }


COMPACTED = {
    "input_tokens": 23000,
    "output_tokens": 1000,
    "iterations": [
        {"type": "compaction", "input_tokens": 180000, "output_tokens": 3500},
        {"type": "message", "input_tokens": 23000, "output_tokens": 1000},
    ],
}


def test_usage_with_compaction_iterations_counts_the_compaction_step() -> None:
    usage = chatcodec.decode_response(FORMAT, _response(COMPACTED)).usage
    assert usage is not None
    assert (usage.input_tokens, usage.output_tokens) == (203000, 4500)


def test_usage_with_compaction_iterations_round_trips() -> None:
    body = _response(COMPACTED)
    assert chatcodec.convert_response(body, source=FORMAT, target=FORMAT, on_loss="error") == body


def test_a_turn_a_fallback_model_served_keeps_the_top_level_counts() -> None:
    usage = {
        "input_tokens": 100,
        "output_tokens": 50,
        "iterations": [
            {"type": "message", "input_tokens": 100, "output_tokens": 0},
            {"type": "fallback_message", "input_tokens": 100, "output_tokens": 50},
        ],
    }
    decoded = chatcodec.decode_response(FORMAT, _response(usage)).usage
    assert decoded is not None
    assert (decoded.input_tokens, decoded.output_tokens) == (100, 50)


CACHED = {
    "input_tokens": 20,
    "output_tokens": 1000,
    "cache_read_input_tokens": 23000,
    "cache_creation_input_tokens": 0,
    "iterations": [
        {
            "type": "compaction",
            "input_tokens": 10,
            "output_tokens": 3500,
            "cache_read_input_tokens": 170000,
            "cache_creation_input_tokens": 5000,
        },
        {
            "type": "message",
            "input_tokens": 20,
            "output_tokens": 1000,
            "cache_read_input_tokens": 23000,
            "cache_creation_input_tokens": 0,
        },
    ],
}
"""Issue 61: each iteration carries its own cache counts (anthropic SDK
``BetaCompactionIterationUsage`` / ``BetaMessageIterationUsage``: ``input_tokens``,
``output_tokens``, ``cache_read_input_tokens``, ``cache_creation_input_tokens``), excluded
from the top level like its input and output."""


def test_usage_with_compaction_iterations_counts_their_cache_tokens() -> None:
    usage = chatcodec.decode_response(FORMAT, _response(CACHED)).usage
    assert usage is not None
    assert (usage.cache_read_tokens, usage.cache_write_tokens) == (193000, 5000)
    assert usage.input_tokens == 10 + 170000 + 5000 + 20 + 23000
    assert usage.output_tokens == 4500


def test_usage_with_cached_compaction_iterations_round_trips() -> None:
    body = _response(CACHED)
    assert chatcodec.convert_response(body, source=FORMAT, target=FORMAT, on_loss="error") == body


def test_cache_counts_only_the_iterations_have_come_back_only_there() -> None:
    usage = {
        "input_tokens": 5,
        "output_tokens": 7,
        "iterations": [
            {"type": "compaction", "input_tokens": 3, "output_tokens": 2, "cache_read_input_tokens": 40},
            {"type": "message", "input_tokens": 5, "output_tokens": 7},
        ],
    }
    body = _response(usage)
    decoded = chatcodec.decode_response(FORMAT, body).usage
    assert decoded is not None
    assert (decoded.input_tokens, decoded.output_tokens, decoded.cache_read_tokens) == (48, 9, 40)
    assert chatcodec.convert_response(body, source=FORMAT, target=FORMAT, on_loss="error") == body
