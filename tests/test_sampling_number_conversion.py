"""A sampling number past 2**53 that a double holds (``2**60``) is a float in canonical
(``request.SamplingNumber``); the readers once kept it an ``int``, so a target wrote
``1152921504606846976`` where a decoded model writes ``1.152921504606847e+18``. Every
reader applies the one rule, ``_narrow.as_sampling_number``."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatcodec
from chatcodec._narrow import as_sampling_number
from chatcodec._registry import registered_providers

NUMBERS = [2**60, -(2**60), 2**53 + 1, 2**53 + 2, 10**400, 3, 0.5]

SOURCES: dict[str, Any] = {
    "openai-chat": lambda value: {"model": "m", "messages": [{"role": "user", "content": "q"}], "top_p": value},
    "bedrock-converse": lambda value: {
        "modelId": "m",
        "messages": [{"role": "user", "content": [{"text": "q"}]}],
        "inferenceConfig": {"topP": value},
    },
}


@pytest.mark.parametrize("value", NUMBERS, ids=str)
def test_the_rule_is_the_canonical_models_rule(value: float) -> None:
    held = chatcodec.ChatRequest(messages=[], top_p=value).top_p
    assert as_sampling_number(value) == held
    assert type(as_sampling_number(value)) is type(held)


@pytest.mark.parametrize("source", list(SOURCES))
@pytest.mark.parametrize("value", [2**60, -(2**60), 2**53 + 1, 2**53 + 2], ids=str)
def test_a_conversion_writes_a_large_sampling_number_as_the_model_holds_it(source: str, value: int) -> None:
    payload = SOURCES[source](value)
    for target in registered_providers():
        converted = chatcodec.convert_request(payload, source=source, target=target, on_loss="ignore")
        general = chatcodec.encode_request(target, chatcodec.decode_request(source, payload), on_loss="ignore")
        assert json.dumps(converted) == json.dumps(general), target
