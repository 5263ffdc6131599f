"""Shared helpers for the Anthropic codec tests: fixture loading, SDK oracles, comparisons."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from anthropic.types import Message, RawMessageStreamEvent
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming, MessageCreateParamsStreaming
from pydantic import TypeAdapter

import chatcodec
from chatcodec.streams._input import iter_event_payloads
from chatcodec.testing._laws.normal_forms import with_compact_arguments
from sdk_oracle import assert_matches

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "anthropic"

REQUEST_FIXTURES = sorted(path.name for path in (FIXTURES / "request").glob("*.json"))
RESPONSE_FIXTURES = sorted(path.name for path in (FIXTURES / "response").glob("*.json") if "error" not in path.name)
ERROR_FIXTURES = sorted(path.name for path in (FIXTURES / "response").glob("error_*.json"))
STREAM_FIXTURES = sorted(path.name for path in (FIXTURES / "stream").iterdir())

STREAM_EVENT = TypeAdapter[Any](RawMessageStreamEvent)


def load_json(kind: str, name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / kind / name).read_text(encoding="utf-8"))
    return loaded


def load_stream_text(name: str) -> str:
    return (FIXTURES / "stream" / name).read_text(encoding="utf-8")


def stream_events(name: str) -> list[dict[str, Any]]:
    """The fixture's events as parsed dicts (SSE padding stripped)."""
    return list(iter_event_payloads(load_stream_text(name)))


def encode_request(request: chatcodec.ChatRequest | dict[str, Any]) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    return chatcodec.encode_request("anthropic", request, on_loss="ignore", losses=losses), losses


def encode_response(response: chatcodec.ChatResponse | dict[str, Any]) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    return chatcodec.encode_response("anthropic", response, on_loss="ignore", losses=losses), losses


def encode_events(events: Iterable[chatcodec.AnyStreamEvent]) -> tuple[list[dict[str, Any]], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    wire = list(chatcodec.encode_stream("anthropic", events, on_loss="ignore", losses=losses))
    return wire, losses


def assert_valid_request(body: dict[str, Any]) -> None:
    """The SDK's request TypedDict accepts ``body`` (no extra keys, lists looked inside)."""
    expected = MessageCreateParamsStreaming if body.get("stream") is True else MessageCreateParamsNonStreaming
    assert_matches(body, expected)


PREDATES_SDK = {"pause_turn_web_search.json"}
"""Fixtures recorded before ``usage.server_tool_use.web_fetch_requests`` existed, which the
SDK (2.12) now requires; the oracle checks them with that one count filled in."""


def with_web_fetch_count(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` (a Message, or a message_start/message_delta event) with the newer required
    ``web_fetch_requests`` count added where an older recording lacks it."""
    patched = copy.deepcopy(body)
    for holder in (patched, patched.get("message") or {}):
        server_tool_use = (holder.get("usage") or {}).get("server_tool_use")
        if isinstance(server_tool_use, dict):
            server_tool_use.setdefault("web_fetch_requests", 0)
    return patched


def assert_valid_response(body: dict[str, Any]) -> None:
    Message.model_validate(body)


def assert_valid_stream(events: Iterable[dict[str, Any]]) -> None:
    """Every event is a ``RawMessageStreamEvent`` (``ping`` and ``error`` are SSE-level
    events the SDK handles before that union, so they are checked by shape only)."""
    for event in events:
        if event["type"] == "ping":
            assert set(event) == {"type"}
        elif event["type"] == "error":
            assert isinstance(event["error"]["message"], str)
        else:
            STREAM_EVENT.validate_python(event)


normalized_arguments = with_compact_arguments
"""Tool arguments rewritten as compact JSON: a stream gives the text as the model wrote it, a
non-streamed Anthropic response only the parsed ``input`` (the laws' normal form)."""


def without_null_markers(response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    """``response`` with its null/absent spelling markers dropped (null and absent alike)."""
    metadata = dict((response.provider_metadata or {}).get("anthropic") or {})
    metadata.pop("_nulls", None)
    metadata.pop("_absent", None)
    return response.model_copy(update={"provider_metadata": {"anthropic": metadata} if metadata else None})
