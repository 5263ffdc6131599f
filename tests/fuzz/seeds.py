"""The recorded fixtures every fuzz target starts from, loaded once.

Seeds come from ``tests/fixtures/<provider>/`` (``request/``, ``response/``, ``stream/``),
so a codec whose fixtures are added there is fuzzed without a change here; canonical
seeds are the decoded fixtures, dumped as JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import chatcodec
from chatcodec.streams.sse import iter_jsonl, iter_sse_json

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@dataclass(frozen=True)
class ProviderSeeds:
    """One provider's recorded payloads."""

    name: str
    requests: tuple[dict[str, Any], ...]
    responses: tuple[dict[str, Any], ...]
    streams: tuple[tuple[dict[str, Any], ...], ...]
    stream_texts: tuple[bytes, ...]


def _stream(path: Path) -> tuple[dict[str, Any], ...]:
    text = path.read_text(encoding="utf-8")
    return tuple(iter_jsonl(text) if path.suffix == ".jsonl" else iter_sse_json(text))


def _decodes(provider: str, kind: str, payload: dict[str, Any]) -> bool:
    try:
        if kind == "request":
            chatcodec.decode_request(provider, payload)
        else:
            chatcodec.decode_response(provider, payload)
    except chatcodec.ChatcodecError:
        return False  # a recorded error body or an invalid request: still a seed, not a canonical one
    return True


def _load(folder: Path) -> tuple[dict[str, Any], ...]:
    return tuple(json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.json")))


@cache
def providers() -> tuple[ProviderSeeds, ...]:
    """Every provider with fixtures and a registered codec."""
    found: list[ProviderSeeds] = []
    for folder in sorted(path for path in FIXTURES.iterdir() if path.is_dir()):
        if folder.name not in chatcodec.PROVIDER_NAMES:
            continue
        try:
            chatcodec.get_codec(folder.name)
        except chatcodec.ProviderLookupError:
            continue
        streams = sorted((folder / "stream").glob("*.*"))
        found.append(
            ProviderSeeds(
                folder.name,
                _load(folder / "request"),
                _load(folder / "response"),
                tuple(_stream(path) for path in streams),
                tuple(path.read_bytes() for path in streams if path.suffix == ".sse"),
            )
        )
    return tuple(found)


def provider_names() -> list[str]:
    return [provider.name for provider in providers()]


def seeds(provider: str) -> ProviderSeeds:
    return next(seed for seed in providers() if seed.name == provider)


@cache
def canonical_requests() -> tuple[dict[str, Any], ...]:
    """Every recorded request that decodes, as canonical JSON."""
    return tuple(
        chatcodec.decode_request(seed.name, payload).model_dump(mode="json", exclude_none=True)
        for seed in providers()
        for payload in seed.requests
        if _decodes(seed.name, "request", payload)
    )


@cache
def canonical_responses() -> tuple[dict[str, Any], ...]:
    """Every recorded response that decodes, as canonical JSON."""
    return tuple(
        chatcodec.decode_response(seed.name, payload).model_dump(mode="json", exclude_none=True)
        for seed in providers()
        for payload in seed.responses
        if _decodes(seed.name, "response", payload)
    )


@cache
def tool_arguments() -> tuple[str, ...]:
    """The argument text of every tool call in the canonical seeds."""
    found: list[str] = []
    for request in canonical_requests():
        for message in request["messages"]:
            content = message.get("content")
            for part in content if isinstance(content, list) else ():
                if part.get("type") == "tool_use":
                    found.append(part["arguments"])
    return tuple(found) or ('{"a": 1}',)
