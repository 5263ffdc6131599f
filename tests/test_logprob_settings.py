"""The log-probability settings, one canonical pair carried between the formats that have them.

From each API's own reference: OpenAI Chat ``logprobs`` (boolean) and ``top_logprobs``
("an integer between 0 and 20", ``CompletionCreateParams``); Ollama ``/api/chat``
``logprobs`` and ``top_logprobs`` (ollama ``docs/api.md``); Responses ``top_logprobs`` and
the ``include`` entry ``message.output_text.logprobs`` (``ResponseCreateParams``); Gemini
``generationConfig.responseLogprobs`` and ``logprobs`` ("only valid if
responseLogprobs=True", ``GenerationConfig``). Anthropic and Bedrock Converse have none.
"""

from __future__ import annotations

from typing import Any

import pytest
from google.genai import types as genai_types
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

import chatcodec
from sdk_oracle import assert_matches

ASKED = {"logprobs": True, "top_logprobs": 3}
WRITTEN: dict[str, dict[str, Any]] = {
    "openai-chat": {"logprobs": True, "top_logprobs": 3},
    "ollama": {"logprobs": True, "top_logprobs": 3},
    "openai-responses": {"top_logprobs": 3, "include": ["message.output_text.logprobs"]},
    "gemini": {"generationConfig": {"responseLogprobs": True, "logprobs": 3}},
}
BODIES: dict[str, dict[str, Any]] = {
    "openai-chat": {"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}], **WRITTEN["openai-chat"]},
    "ollama": {"model": "llama3.2", "messages": [{"role": "user", "content": "hi"}], **WRITTEN["ollama"]},
    "openai-responses": {"model": "gpt-4.1", "input": "hi", **WRITTEN["openai-responses"]},
    "gemini": {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], **WRITTEN["gemini"]},
}


def _convert(body: dict[str, Any], source: str, target: str) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    return chatcodec.convert_request(body, source=source, target=target, on_loss="ignore", losses=losses), losses


@pytest.mark.parametrize("source", sorted(BODIES))
def test_each_format_reads_the_settings_as_the_canonical_pair(source: str) -> None:
    request = chatcodec.decode_request(source, BODIES[source])
    assert (request.logprobs, request.top_logprobs) == (True, 3)
    assert chatcodec.encode_request(source, request, on_loss="error") == BODIES[source]


@pytest.mark.parametrize("target", sorted(WRITTEN))
@pytest.mark.parametrize("source", sorted(BODIES))
def test_the_settings_reach_every_format_that_has_them(source: str, target: str) -> None:
    body, losses = _convert(BODIES[source], source, target)
    for key, value in WRITTEN[target].items():
        assert body[key] == value
    assert [loss.path for loss in losses if "logprobs" in loss.path] == []


def test_the_written_bodies_are_the_sdks_requests() -> None:
    assert_matches(_convert(BODIES["ollama"], "ollama", "openai-chat")[0], CompletionCreateParamsNonStreaming)
    assert_matches(_convert(BODIES["ollama"], "ollama", "openai-responses")[0], ResponseCreateParamsNonStreaming)
    config = _convert(BODIES["ollama"], "ollama", "gemini")[0]["generationConfig"]
    assert genai_types.GenerationConfig.model_validate(config).response_logprobs is True


@pytest.mark.parametrize("target", ["anthropic", "bedrock-converse"])
def test_a_format_with_no_log_probabilities_reports_a_request_for_them(target: str) -> None:
    _, losses = _convert(BODIES["openai-chat"], "openai-chat", target)
    assert [(loss.path, loss.kind) for loss in losses if "logprobs" in loss.path] == [
        ("$.logprobs", "setting"),
        ("$.top_logprobs", "setting"),
    ]
    nothing = {**BODIES["openai-chat"], "logprobs": False, "top_logprobs": 0}
    _, quiet = _convert(nothing, "openai-chat", target)
    assert [loss.path for loss in quiet if "logprobs" in loss.path] == []  # asks for nothing: no loss


# --- the mechanism: the codec reports, from its capabilities, whatever its writers do ------------


def _codecs() -> list[Any]:
    from chatcodec._providers.contract.provider_codec import ProviderCodec
    from chatcodec._registry import get_codec, registered_providers

    return [
        ProviderCodec.from_package("chatcodec._providers._template"),
        *(get_codec(name) for name in registered_providers()),
    ]


def _request(**settings: Any) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}], **settings}


@pytest.mark.parametrize("codec", _codecs(), ids=lambda codec: codec.name)
def test_every_codec_without_the_settings_reports_them_once(codec: Any) -> None:
    from chatcodec._losses import LossRecorder

    recorder = LossRecorder()
    codec.write_request(_request(**ASKED), recorder)
    reported = [(loss.path, loss.kind) for loss in recorder.losses if "logprobs" in loss.path]
    if codec.capabilities.logprob_settings:
        assert reported == []
    else:  # the template's and every writer's code never mentions them: ProviderCodec reports
        assert reported == [("$.logprobs", "setting"), ("$.top_logprobs", "setting")]
    quiet = LossRecorder()
    codec.write_request(_request(logprobs=False, top_logprobs=0), quiet)
    assert [loss.path for loss in quiet.losses if "logprobs" in loss.path] == []


_FINISHED = [
    {"type": "response_start", "id": "r", "model": "m"},
    {"type": "text_start", "index": 0},
    {"type": "text_delta", "index": 0, "delta": "Hi"},
    {"type": "text_end", "index": 0},
    {
        "type": "finish",
        "finish_reason": {"unified": "stop", "raw": "stop"},
        "logprobs": [{"token": "Hi", "logprob": -0.25}],
    },
]


@pytest.mark.parametrize("codec", [codec for codec in _codecs() if codec.encodes_streams], ids=lambda codec: codec.name)
def test_every_stream_writer_without_logprobs_reports_a_finishs_once(codec: Any) -> None:
    from pydantic import TypeAdapter

    from chatcodec._losses import LossRecorder
    from chatcodec._model.stream_events import AnyStreamEvent

    events = TypeAdapter(list[AnyStreamEvent]).validate_python(_FINISHED)
    recorder = LossRecorder()
    list(codec.encode_stream(events, recorder))
    reported = [loss.path for loss in recorder.losses if "logprobs" in loss.path]
    assert reported == ([] if codec.capabilities.logprobs else ["$.events[4].logprobs"])
