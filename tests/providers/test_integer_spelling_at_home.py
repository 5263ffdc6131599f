"""A sampling number spelled as a JSON integer (``top_p: 1``) comes back as it was written
on a home round trip, on every format that reads one: JSON has one number type (RFC 8259
section 6), so ``1`` and ``1.0`` mean the same to every server, but a diff, a dedup hash
or a Parquet payload column sees the text (``_providers/kit/integer_spelling.py``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatcodec

_BODIES: dict[str, dict[str, Any]] = {
    "anthropic": {
        "model": "claude-3-5-haiku-latest",
        "max_tokens": 5,
        "messages": [{"role": "user", "content": "x"}],
        "temperature": 0,
        "top_p": 1,
    },
    "gemini": {
        "contents": [{"role": "user", "parts": [{"text": "x"}]}],
        "generationConfig": {"temperature": 0, "topP": 1, "presencePenalty": 1, "frequencyPenalty": 0.5},
    },
    "bedrock-converse": {
        "modelId": "m",
        "messages": [{"role": "user", "content": [{"text": "x"}]}],
        "inferenceConfig": {"temperature": 1, "topP": 1},
    },
    "ollama": {
        "model": "m",
        "messages": [{"role": "user", "content": "x"}],
        "options": {"temperature": 0, "top_p": 1, "presence_penalty": 2},
    },
}


@pytest.mark.parametrize("provider", sorted(_BODIES))
def test_integer_sampling_numbers_come_back_as_integers_at_home(provider: str) -> None:
    body = _BODIES[provider]
    again = chatcodec.encode_request(provider, chatcodec.decode_request(provider, body), on_loss="error")
    assert again == body
    assert json.dumps(again) == json.dumps(body)


@pytest.mark.parametrize("provider", sorted(_BODIES))
def test_a_changed_sampling_number_is_written_as_canonical_holds_it(provider: str) -> None:
    request = chatcodec.decode_request(provider, _BODIES[provider])
    changed = request.model_copy(update={"top_p": 0.5})
    again = chatcodec.encode_request(provider, changed, on_loss="ignore")
    assert 0.5 in [
        value for holder in (again, *again.values()) if isinstance(holder, dict) for value in holder.values()
    ]
