"""Shared helpers for the openai-responses tests: fixtures, loss-collecting encoders, SDK oracles.

The request oracle is ``tests/sdk_oracle.py`` on the SDK's ``ResponseCreateParams``
TypedDicts (inside every ``Iterable`` list, no undeclared key); responses validate as the
SDK's ``Response`` model and stream events as its ``ResponseStreamEvent`` union, both with
unknown keys refused (the SDK models allow them; an encoder must not invent any).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from openai.types.responses import Response, ResponseStreamEvent
from openai.types.responses.response_create_params import (
    ResponseCreateParamsNonStreaming,
    ResponseCreateParamsStreaming,
)
from pydantic import BaseModel, TypeAdapter

import chatcodec
from chatcodec import ChatRequest, ChatResponse, Loss
from sdk_oracle import assert_matches

FORMAT = "openai-responses"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / FORMAT

_EVENTS: TypeAdapter[Any] = TypeAdapter(ResponseStreamEvent)


def load_json(kind: str, name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / kind / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


def encode_request(request: ChatRequest | dict[str, Any]) -> tuple[dict[str, Any], list[Loss]]:
    """The body and its losses, but the ``required`` one a request without a model gets
    (``tests/providers/test_target_rules.py`` tests it): most of these
    cases leave the model out to stay short."""
    losses: list[Loss] = []
    body = chatcodec.encode_request(FORMAT, request, on_loss="ignore", losses=losses)
    return body, [loss for loss in losses if loss.kind != "required"]


def encode_response(response: ChatResponse | dict[str, Any]) -> tuple[dict[str, Any], list[Loss]]:
    losses: list[Loss] = []
    return chatcodec.encode_response(FORMAT, response, on_loss="ignore", losses=losses), losses


def assert_request_matches_sdk(payload: dict[str, Any]) -> None:
    expected = ResponseCreateParamsStreaming if payload.get("stream") else ResponseCreateParamsNonStreaming
    assert_matches(payload, expected)


def with_cache_write_count(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` (a Response, or an event holding one) with the newer required
    ``usage.input_tokens_details.cache_write_tokens`` added where an older recording lacks
    it (the SDK, 2.x, now requires it; every recording here predates it)."""
    patched = copy.deepcopy(body)
    for holder in (patched, patched.get("response") or {}):
        details = (holder.get("usage") or {}).get("input_tokens_details") if isinstance(holder, dict) else None
        if isinstance(details, dict):
            details.setdefault("cache_write_tokens", 0)
    return patched


def assert_response_matches_sdk(payload: dict[str, Any], *, no_extra_keys: bool = False) -> None:
    """``payload`` validates as the SDK's ``Response``; with ``no_extra_keys``, it also has
    no key the SDK does not declare (for bodies encoded from canonical data: recordings
    carry fields newer than the SDK, which a round trip keeps)."""
    validated = Response.model_validate(payload)
    if no_extra_keys:
        _assert_no_extra(validated, "$")


def assert_stream_matches_sdk(events: list[dict[str, Any]], *, no_extra_keys: bool = False) -> None:
    for position, event in enumerate(events):
        validated = _EVENTS.validate_python(event)
        if no_extra_keys:
            _assert_no_extra(validated, f"$[{position}]")


def _assert_no_extra(model: object, at: str) -> None:
    if isinstance(model, BaseModel):
        extra = model.model_extra or {}
        assert not extra, f"{at}: keys the SDK does not declare: {sorted(extra)}"
        for name in type(model).model_fields:
            _assert_no_extra(getattr(model, name), f"{at}.{name}")
    elif isinstance(model, list):
        for index, item in enumerate(model):
            _assert_no_extra(item, f"{at}[{index}]")
