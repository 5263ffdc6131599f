"""The ``otel-genai`` format's token counts (issue 87): the conventions' cache and reasoning
counts are canonical usage, both ways; the per-modality counts (``gen_ai.usage.text.input_tokens``
...) and an emitter's own ``gen_ai.usage.*`` attributes have no canonical field, so they are kept
and written back here, and reported by any other format, never dropped."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic_ai.usage import RequestUsage

import chatcodec

OUTPUT = "gen_ai.output.messages"
ANSWER = [{"role": "assistant", "parts": [{"type": "text", "content": "Hi"}], "finish_reason": "stop"}]


def _span(usage: dict[str, Any]) -> dict[str, Any]:
    return {OUTPUT: ANSWER, "gen_ai.response.finish_reasons": ["stop"], **usage}


MODALITIES = {  # the conventions' registry's per-modality counts
    "gen_ai.usage.text.input_tokens": 80,
    "gen_ai.usage.image.input_tokens": 30,
    "gen_ai.usage.audio.input_tokens": 10,
    "gen_ai.usage.text.output_tokens": 25,
    "gen_ai.usage.audio.output_tokens": 5,
}


def test_the_conventions_counts_are_canonical_usage_and_the_modalities_are_kept() -> None:
    span = _span(
        {
            "gen_ai.usage.input_tokens": 120,
            "gen_ai.usage.output_tokens": 30,
            "gen_ai.usage.cache_read.input_tokens": 100,
            "gen_ai.usage.cache_creation.input_tokens": 10,
            "gen_ai.usage.reasoning.output_tokens": 12,
            **MODALITIES,
        }
    )
    response = chatcodec.decode_response("otel-genai", span)
    assert response.usage is not None
    counts = response.usage.model_dump(exclude={"provider_metadata"})
    assert counts == {
        "input_tokens": 120,
        "output_tokens": 30,
        "cache_read_tokens": 100,
        "cache_write_tokens": 10,
        "reasoning_tokens": 12,
    }
    assert response.usage.provider_metadata == {"otel-genai": MODALITIES}
    assert chatcodec.encode_response("otel-genai", response) == span
    for target in ("openai-chat", "anthropic", "gemini", "bedrock-converse"):
        losses: list[chatcodec.Loss] = []
        chatcodec.convert_response(span, source="otel-genai", target=target, on_loss="ignore", losses=losses)
        reported = [loss for loss in losses if loss.path.startswith("$.usage")]
        assert any(all(key in loss.what for key in MODALITIES) for loss in reported), (target, reported)


def test_anthropic_cache_counts_reach_the_conventions_attributes() -> None:
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "Hi"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 10,
            "output_tokens": 30,
            "cache_read_input_tokens": 100,
            "cache_creation_input_tokens": 10,
        },
    }
    span = chatcodec.convert_response(message, source="anthropic", target="otel-genai", on_loss="ignore")
    assert span["gen_ai.usage.input_tokens"] == 120  # the conventions' total holds the cached tokens
    assert span["gen_ai.usage.cache_read.input_tokens"] == 100
    assert span["gen_ai.usage.cache_creation.input_tokens"] == 10
    back = chatcodec.convert_response(span, source="otel-genai", target="anthropic", on_loss="ignore")
    assert back["usage"]["input_tokens"] == 10
    assert back["usage"]["cache_read_input_tokens"] == 100


def test_the_cache_write_spelling_reads_and_is_written_back_as_it_came() -> None:
    span = _span({"gen_ai.usage.input_tokens": 50, "gen_ai.usage.cache_write.input_tokens": 20})
    response = chatcodec.decode_response("otel-genai", span)
    assert response.usage is not None
    assert response.usage.cache_write_tokens == 20
    assert chatcodec.encode_response("otel-genai", response) == span
    chat = chatcodec.convert_response(span, source="otel-genai", target="openai-chat", on_loss="ignore")
    assert chat["usage"]["prompt_tokens_details"]["cache_write_tokens"] == 20  # the marker is only spelling
    both = _span({"gen_ai.usage.cache_creation.input_tokens": 20, "gen_ai.usage.cache_write.input_tokens": 20})
    assert chatcodec.encode_response("otel-genai", chatcodec.decode_response("otel-genai", both)) == both


def test_pydantic_ai_usage_attributes_read_with_its_details_kept() -> None:
    usage = RequestUsage(
        input_tokens=120,
        output_tokens=30,
        cache_read_tokens=100,
        cache_write_tokens=10,
        input_audio_tokens=7,
        details={"reasoning_tokens": 12},
    )
    attributes = usage.opentelemetry_attributes()  # what pydantic-ai puts on its chat spans
    assert "gen_ai.usage.details.input_audio_tokens" in attributes
    span = _span(attributes)
    response = chatcodec.decode_response("otel-genai", span)
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.cache_read_tokens, response.usage.cache_write_tokens) == (
        120,
        100,
        10,
    )
    kept = response.usage.model_dump()["provider_metadata"]["otel-genai"]
    assert kept["gen_ai.usage.details.input_audio_tokens"] == 7
    assert kept["gen_ai.usage.details.reasoning_tokens"] == 12
    assert chatcodec.encode_response("otel-genai", response) == span


@pytest.mark.parametrize("key", ["gen_ai.usage.image.input_tokens", "gen_ai.usage.cache_write.input_tokens"])
def test_a_count_that_is_not_a_count_is_refused_at_its_attribute(key: str) -> None:
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_response("otel-genai", _span({key: -1}))
    assert raised.value.errors()[0]["loc"] == (key,)
