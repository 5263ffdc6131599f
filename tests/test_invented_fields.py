"""A response or stream writer writes what a target's SDK requires even when the source never
had it (an ``id``, a ``created`` time, token counts of 0, a latency of 0); read back, such a
value is data the answer never held, so each one is reported: one ``default`` loss per field,
at the path it would have come from, named ``invented <wire field>``
(``chatcodec._providers.kit.invented``); a required usage the answer lacks whole is one
report, ``$.usage``.

The requirements come from the SDK types: openai's ``ChatCompletion`` and
``ChatCompletionChunk`` (``id``, ``created``, ``model``; ``CompletionUsage``'s
``prompt_tokens``, ``completion_tokens``), its ``Response`` (``id``, ``created_at``,
``model``; ``ResponseUsage``'s counts and details), anthropic's ``Message`` (``id``,
``model``, ``usage``), botocore's ``ConverseResponse`` (``stopReason``, ``usage``,
``metrics.latencyMs``) and ``ConverseStreamMetadataEvent``. Gemini's and Ollama's answers
require none of these, so nothing is invented for them, and the oracle below finds nothing
gained."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec.streams._replay import events_from_response, whole

FIXTURES = Path(__file__).parent / "fixtures"
RESPONSE_FORMATS = (
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "bedrock-converse",
    "bedrock-nova",
    "ollama",
)
"""Every format with a response writer: each reports every value it invents."""
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
    pytest.param(
        {
            "id": "r1",
            "model": "m",
            "created": 1_700_000_000,
            "choices": [{"message": {"role": "assistant", "content": "hi"}, "finish_reason": {"unified": "stop"}}],
            "usage": {"input_tokens": 3, "output_tokens": 2},
        },
        id="named-and-counted",
    ),
]
INVENTED = "invented "


def _gained(source: dict[str, Any], back: dict[str, Any]) -> set[str]:
    """The paths of the canonical values ``back`` holds that ``source`` did not."""
    gained = {f"$.{key}" for key in ("id", "model", "created") if source.get(key) is None and back.get(key)}
    usage, usage_back = source.get("usage") or {}, back.get("usage") or {}
    gained.update(f"$.usage.{key}" for key in _USAGE if usage.get(key) is None and usage_back.get(key) is not None)
    if source["choices"][0].get("finish_reason") is None and back["choices"][0].get("finish_reason") is not None:
        gained.add("$.choices[0].finish_reason")
    return gained


def _invented(losses: list[chatcodec.Loss]) -> list[chatcodec.Loss]:
    return [loss for loss in losses if loss.what.startswith(INVENTED)]


@pytest.mark.parametrize("target", RESPONSE_FORMATS)
@pytest.mark.parametrize("data", MINIMAL)
def test_every_value_a_response_writer_invents_is_reported_once(target: str, data: dict[str, Any]) -> None:
    response = chatcodec.ChatResponse.model_validate(data)
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.encode_response(target, response, on_loss="ignore", losses=losses)
    source = response.model_dump(mode="json")
    back = chatcodec.decode_response(target, wire).model_dump(mode="json")
    reported = {loss.path for loss in losses}
    assert {path for path in _gained(source, back) if not _covered(path, reported)} == set()
    invented = _invented(losses)
    assert all(loss.kind == "default" for loss in invented)
    assert [path for path, count in Counter(loss.path for loss in invented).items() if count > 1] == []
    # nothing is reported as invented that the answer had, and only values it lacks are
    made_up = {"$.id", "$.model", "$.created", *_usage_paths(source), _METRICS}
    assert {loss.path for loss in invented} <= made_up | ({"$.usage"} if not source.get("usage") else set())


_METRICS = "$.provider_metadata['bedrock-converse'].metrics"


def _covered(path: str, reported: set[str]) -> bool:
    """Whether a gained value's path is reported: itself, or (a usage wholly made up, one
    report for the object) its usage."""
    return path in reported or (path.startswith("$.usage.") and "$.usage" in reported)


def _usage_paths(source: dict[str, Any]) -> set[str]:
    usage = source.get("usage") or {}
    return {f"$.usage.{key}" for key in _USAGE if usage.get(key) is None}


@pytest.mark.parametrize("target", RESPONSE_FORMATS)
@pytest.mark.parametrize("data", MINIMAL)
def test_a_stream_reports_each_invented_value_once_whatever_its_length(target: str, data: dict[str, Any]) -> None:
    """A stream writes its placeholders on every chunk; each is reported once, where the
    stream's head is built, however many deltas follow."""
    response = chatcodec.ChatResponse.model_validate(data)
    source = response.model_dump(mode="json")
    reports: list[list[tuple[str, str]]] = []
    for split in (whole, list):  # one delta, then one per character
        losses: list[chatcodec.Loss] = []
        events = events_from_response(response, split)
        wire = list(chatcodec.encode_stream(target, events, on_loss="ignore", losses=losses))
        back = chatcodec.accumulate_stream(target, wire, partial=True).model_dump(mode="json")
        reported = {_field(loss.path) for loss in losses}
        assert {path for path in _gained(source, back) if not _covered(path, reported)} == set()
        reports.append([(_field(loss.path), loss.what) for loss in _invented(losses)])
    assert reports[0] == reports[1]
    assert len(reports[0]) == len(set(reports[0]))


def _field(path: str) -> str:
    """An OpenAI Chat stream reports at the event the field came from (``$[0].id``, the
    start; ``$[5].usage.input_tokens``, the usage): the same field, said of the event."""
    return "$" + path[path.index("]") + 1 :] if path.startswith("$[") else path


RECORDED = [
    pytest.param("openai-chat", "openai-chat/response/cached_tokens_usage.json", id="openai-chat"),
    pytest.param("anthropic", "anthropic/response/cache_read_and_creation_usage.json", id="anthropic"),
    pytest.param("bedrock-converse", "bedrock-converse/response/cache_read_usage_cache_details.json", id="bedrock"),
    pytest.param("bedrock-nova", "bedrock-nova/response/text_end_turn.json", id="bedrock-nova"),
    pytest.param("gemini", "gemini/response/text_stop.json", id="gemini"),
    pytest.param("openai-responses", "openai-responses/response/function_call_no_reasoning.json", id="responses"),
]


@pytest.mark.parametrize(("provider", "name"), RECORDED)
def test_a_recorded_answer_written_back_invents_nothing(provider: str, name: str) -> None:
    """A recorded body has every field its own SDK requires: written back to its format it
    invents nothing, and nothing is reported."""
    body = json.loads((FIXTURES / name).read_text())
    losses: list[chatcodec.Loss] = []
    assert chatcodec.convert_response(body, source=provider, target=provider, losses=losses) == body
    assert _invented(losses) == []


@pytest.mark.parametrize("target", RESPONSE_FORMATS)
def test_an_answer_with_every_field_invents_nothing(target: str) -> None:
    """What a source gives is never reported as invented: an answer with its id, model,
    creation time and every count."""
    counts = dict.fromkeys(_USAGE, 1)
    full = {
        "id": "r1",
        "model": "m",
        "created": 1_700_000_000,
        "choices": [{"message": {"role": "assistant", "content": "hi"}, "finish_reason": {"unified": "stop"}}],
        "usage": {**counts, "input_tokens": 5, "output_tokens": 4},
    }
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_response(target, full, on_loss="ignore", losses=losses)
    assert [loss.path for loss in _invented(losses)] == ([_METRICS] if target == "bedrock-converse" else [])
