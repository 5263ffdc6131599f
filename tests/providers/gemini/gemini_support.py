"""Shared helpers for the Gemini codec tests: fixture loading and the google-genai SDK oracle.

The oracle is the google-genai SDK's own pydantic types, whose ``model_config`` forbids
extra fields (checked below, so an SDK upgrade that relaxes it fails loudly) and accepts
both spellings of every key, as the API does. A request body is split the way the SDK
builds one: ``contents`` is a list of ``types.Content``; ``systemInstruction``,
``tools``, ``toolConfig``, ``safetySettings``, ``cachedContent``, ``labels`` and the
fields of ``generationConfig`` are one ``types.GenerateContentConfig``. A response body,
or a stream chunk, is a ``types.GenerateContentResponse``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from google.genai import types

import chatcodec
from chatcodec.streams._input import iter_event_payloads

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gemini"

REQUEST_FIXTURES = sorted(path.name for path in (FIXTURES / "request").glob("*.json"))
RESPONSE_FIXTURES = sorted(path.name for path in (FIXTURES / "response").glob("*.json") if "error" not in path.name)
ERROR_FIXTURES = sorted(path.name for path in (FIXTURES / "response").glob("error_*.json"))
STREAM_FIXTURES = sorted(path.name for path in (FIXTURES / "stream").iterdir())

_CONFIG_KEYS = {
    "systemInstruction": "system_instruction",
    "tools": "tools",
    "toolConfig": "tool_config",
    "safetySettings": "safety_settings",
    "cachedContent": "cached_content",
    "labels": "labels",
}
_SNAKE = {value: key for key, value in _CONFIG_KEYS.items()} | {"generation_config": "generationConfig"}

NEWER_THAN_SDK = ("serviceTier",)
"""``usageMetadata`` fields the API sends that google-genai 3.4.0 does not know yet."""

for _model in (types.Content, types.Part, types.GenerateContentConfig, types.GenerateContentResponse, types.Tool):
    assert _model.model_config.get("extra") == "forbid", f"{_model.__name__} no longer forbids unknown fields"


def load_json(kind: str, name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / kind / name).read_text(encoding="utf-8"))
    return loaded


def load_stream_text(name: str) -> str:
    return (FIXTURES / "stream" / name).read_text(encoding="utf-8")


def stream_events(name: str) -> list[dict[str, Any]]:
    return list(iter_event_payloads(load_stream_text(name)))


def assert_valid_request(body: dict[str, Any]) -> None:
    """The SDK's types accept ``body`` split as the SDK builds a request (no unknown keys)."""
    rest = dict(body)
    model = rest.pop("model", None)
    assert model is None or isinstance(model, str), "model must be a string"
    contents = rest.pop("contents")
    assert isinstance(contents, list), "contents must be a list"
    for content in contents:
        types.Content.model_validate(content)
    config: dict[str, Any] = {}
    for key in list(rest):
        canonical_key = _SNAKE.get(key, key)
        if canonical_key in _CONFIG_KEYS:
            config[_CONFIG_KEYS[canonical_key]] = rest.pop(key)
        elif canonical_key == "generationConfig":
            generation = rest.pop(key)
            assert isinstance(generation, dict), "generationConfig must be an object"
            config.update(generation)
    assert not rest, f"not a request field: {sorted(rest)}"
    types.GenerateContentConfig.model_validate(config)


def for_sdk(body: dict[str, Any]) -> dict[str, Any]:
    """A copy of a response body without the usage fields newer than the SDK."""
    usage = body.get("usageMetadata")
    if not isinstance(usage, dict) or not any(key in usage for key in NEWER_THAN_SDK):
        return body
    copied = copy.deepcopy(body)
    for key in NEWER_THAN_SDK:
        copied["usageMetadata"].pop(key, None)
    return copied


def assert_valid_response(body: dict[str, Any]) -> None:
    """``types.GenerateContentResponse`` accepts ``body`` (no unknown keys)."""
    types.GenerateContentResponse.model_validate(for_sdk(body))


def assert_valid_stream(events: Iterable[dict[str, Any]]) -> None:
    """Every chunk is a ``GenerateContentResponse``, or an error body."""
    for event in events:
        if "error" in event and "candidates" not in event:
            assert set(event) == {"error"}
            assert isinstance(event["error"], dict)
            assert set(event["error"]) <= {"code", "message", "status", "details"}
            continue
        assert_valid_response(event)


def encode_request(
    request: chatcodec.ChatRequest | dict[str, Any], **options: Any
) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    return chatcodec.encode_request("gemini", request, on_loss="ignore", losses=losses, **options), losses


def encode_response(response: chatcodec.ChatResponse | dict[str, Any]) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    return chatcodec.encode_response("gemini", response, on_loss="ignore", losses=losses), losses


def encode_events(events: Iterable[chatcodec.AnyStreamEvent]) -> tuple[list[dict[str, Any]], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    wire = list(chatcodec.encode_stream("gemini", events, on_loss="ignore", losses=losses))
    return wire, losses
