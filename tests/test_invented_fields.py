"""A response encoder writes what a target's SDK requires even when the source never had
it (an ``id``, a ``created`` time, token counts of 0); read back, such a value is data the
answer never held, so each one is reported. The requirements come from the SDK
types: anthropic's ``Message`` (``id``, ``model``, ``usage``), botocore's ``ConverseResponse``
(``stopReason``, ``usage``). (Bedrock's required ``metrics`` are written as ``latencyMs: 0``
unreported: they read back into no canonical field.)"""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec

RESPONSE_FORMATS = ("anthropic", "gemini", "bedrock-converse", "ollama")
"""The formats whose response encoders report every value they invent. OpenAI Chat's and
Responses' placeholders (``id``/``model`` ``""``, ``created`` now, counts of 0) are written
unreported still (their module docstrings say so): not in this list until they are."""
_USAGE = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens")
MINIMAL = [
    pytest.param({"choices": [{"message": {"role": "assistant", "content": "hi"}}]}, id="bare"),
    pytest.param(
        {
            "choices": [{"message": {"role": "assistant", "content": "hi"}, "finish_reason": {"unified": "stop"}}],
            "usage": {"output_tokens": 2},
        },
        id="output-count-only",
    ),
]


def _gained(source: dict[str, Any], back: dict[str, Any]) -> dict[str, str]:
    """The canonical values ``back`` holds that ``source`` did not, each with the loss path
    that must name it."""
    gained = {key: f"$.{key}" for key in ("id", "model", "created") if source.get(key) is None and back.get(key)}
    usage, usage_back = source.get("usage") or {}, back.get("usage") or {}
    gained.update(
        {f"usage.{key}": "$.usage" for key in _USAGE if usage.get(key) is None and usage_back.get(key) is not None}
    )
    if source["choices"][0].get("finish_reason") is None and back["choices"][0].get("finish_reason") is not None:
        gained["finish_reason"] = "$.choices[0].finish_reason"
    return gained


@pytest.mark.parametrize("target", RESPONSE_FORMATS)
@pytest.mark.parametrize("data", MINIMAL)
def test_every_value_a_response_encoder_invents_is_reported(target: str, data: dict[str, Any]) -> None:
    response = chatcodec.ChatResponse.model_validate(data)
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.encode_response(target, response, on_loss="ignore", losses=losses)
    source = response.model_dump(mode="json")
    back = chatcodec.decode_response(target, wire).model_dump(mode="json")
    reported = {loss.path for loss in losses}
    assert {key: path for key, path in _gained(source, back).items() if path not in reported} == {}
