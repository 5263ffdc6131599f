"""The recorded fixtures every fuzz target starts from, loaded once.

Seeds come from ``tests/fixtures/<provider>/`` (``request/``, ``response/``, ``stream/``),
so a codec whose fixtures are added there is fuzzed without a change here, plus the few
shapes no recording holds yet (:data:`CONSTRUCTED`); canonical seeds are the decoded
seeds, dumped as JSON. A framework history format's seeds (:func:`frameworks`) are the
histories its folder holds (:data:`FRAMEWORK_FOLDERS`) and those its writer writes from the
canonical seeds; its responses are their answers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import chatcodec
from chatcodec._registry import FRAMEWORK_FORMATS
from chatcodec.streams._sse import iter_jsonl, iter_sse_json
from session_codecs import FIXTURE_FOLDERS

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


_CHAT_CUSTOM_CALL = {"id": "call_1", "type": "custom", "custom": {"name": "code_exec", "input": "print(1)"}}
_CHUNK = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-5"}
_CHAT_CUSTOM_STREAM = tuple(
    {**_CHUNK, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    for delta, finish in (
        ({"role": "assistant", "content": None}, None),
        (
            {"tool_calls": [{"index": 0, "id": "call_1", "type": "custom", "custom": {"name": "sh", "input": "ls"}}]},
            None,
        ),
        ({"tool_calls": [{"index": 0, "custom": {"input": " -l"}}]}, None),
        ({}, "tool_calls"),
    )
)
CONSTRUCTED: dict[str, dict[str, tuple[Any, ...]]] = {
    "openai-chat": {
        "request": (
            {
                "model": "gpt-5",
                "messages": [
                    {"role": "user", "content": "run it"},
                    {"role": "assistant", "content": None, "tool_calls": [_CHAT_CUSTOM_CALL]},
                    {"role": "tool", "tool_call_id": "call_1", "content": "1"},
                ],
                "tools": [{"type": "custom", "custom": {"name": "code_exec", "description": "runs code"}}],
            },
        ),
        "response": (
            {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "created": 1,
                "model": "gpt-5",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": None, "tool_calls": [_CHAT_CUSTOM_CALL]},
                        "finish_reason": "tool_calls",
                    }
                ],
            },
        ),
        "stream": (_CHAT_CUSTOM_STREAM,),
    },
    "openai-responses": {
        "request": (
            {
                "model": "gpt-5",
                "input": [
                    {"role": "user", "content": "run it"},
                    {"type": "custom_tool_call", "call_id": "call_1", "name": "code_exec", "input": "print(1)"},
                    {"type": "custom_tool_call_output", "call_id": "call_1", "output": "1"},
                ],
                "tools": [{"type": "custom", "name": "code_exec", "description": "runs code"}],
            },
        ),
        "response": (
            {
                "id": "resp_1",
                "object": "response",
                "created_at": 1,
                "model": "gpt-5",
                "status": "completed",
                "output": [
                    {
                        "type": "custom_tool_call",
                        "id": "ctc_1",
                        "call_id": "call_1",
                        "name": "code_exec",
                        "input": "print(1)",
                        "status": "completed",
                    }
                ],
                "parallel_tool_calls": True,
                "tool_choice": "auto",
                "tools": [],
            },
        ),
    },
}
"""Shapes no recorded fixture holds yet, built from the openai SDK's types (3.54:
``ChatCompletionMessageCustomToolCallParam``, ``ResponseCustomToolCall``,
``ResponseCustomToolCallOutputParam``): custom (freeform) tool calls. Seeds only, never
fixtures (which are recordings); a Responses custom-call stream is the Chat one written
by the Responses encoder."""


def _constructed(name: str, kind: str) -> tuple[Any, ...]:
    found = CONSTRUCTED.get(name, {}).get(kind, ())
    if name == "openai-responses" and kind == "stream":
        events = chatcodec.decode_stream("openai-chat", _CHAT_CUSTOM_STREAM)
        return (tuple(chatcodec.encode_stream(name, events, on_loss="ignore")),)
    return found


@cache
def providers() -> tuple[ProviderSeeds, ...]:
    """Every provider with fixtures and a registered codec: the built-in ones, then the codecs
    the test session registers (``session_codecs``: the streamless twin of a folder, seeded
    with that folder's recordings; a run outside pytest has none registered)."""
    found: list[ProviderSeeds] = []
    folders = [(path.name, path) for path in sorted(FIXTURES.iterdir()) if path.name in chatcodec.PROVIDER_NAMES]
    folders += [(name, FIXTURES / folder) for name, folder in FIXTURE_FOLDERS.items()]
    for name, folder in folders:
        if not folder.is_dir():
            continue
        try:
            chatcodec.get_codec(name)
        except chatcodec.ProviderLookupError:
            continue
        streams = sorted((folder / "stream").glob("*.*"))
        found.append(
            ProviderSeeds(
                name,
                _load(folder / "request") + _constructed(name, "request"),
                _load(folder / "response") + _constructed(name, "response"),
                tuple(_stream(path) for path in streams) + _constructed(name, "stream"),
                tuple(path.read_bytes() for path in streams if path.suffix == ".sse"),
            )
        )
    return tuple(found)


def _built_in() -> tuple[ProviderSeeds, ...]:
    """The built-in providers' seeds (a session codec's are its folder's again)."""
    return tuple(seed for seed in providers() if seed.name in chatcodec.PROVIDER_NAMES)


def provider_names() -> list[str]:
    return [provider.name for provider in providers()]


def seeds(provider: str) -> ProviderSeeds:
    """A provider's seeds, or a framework history format's (:func:`frameworks`)."""
    return next(seed for seed in (*providers(), *frameworks()) if seed.name == provider)


FRAMEWORK_FOLDERS = {
    "langchain": "langchain",
    "pydantic-ai": "pydantic_ai",
    "ai-sdk-model": "ai_sdk",
    "ai-sdk-ui": "ai_sdk",
    "google-adk": "google_adk",
    "otel-genai": "otel_genai",
    "a2a": "a2a",
    "ag-ui": "ag_ui",
    "mcp-sampling": "mcp-sampling",
}
"""Each framework history format's folder under ``tests/fixtures`` (both AI SDK formats share
one: a history there is a format's seed when that format reads it)."""


def framework_names() -> list[str]:
    return sorted(FRAMEWORK_FORMATS)


def _histories_in(value: Any) -> Iterator[dict[str, Any]]:
    """Every history a fixture file's JSON holds: ``{"messages": [...]}`` (a LangGraph state),
    a model call's span attributes (``otel-genai``),
    a bare message list, a list of them, or an object of them by format (``edge_cases.json``)."""
    if isinstance(value, dict):
        if isinstance(value.get("messages"), list) or "gen_ai.input.messages" in value:  # a span's attributes too
            yield value
            return
        for item in value.values():
            if isinstance(item, list):
                yield from _histories_in(item)
    elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        if all("messages" in item for item in value):
            for item in value:
                yield from _histories_in(item)
        else:
            yield {"messages": value}
    elif isinstance(value, list):
        for item in value:
            yield from _histories_in(item)


def _recorded_histories(folder: Path) -> Iterator[dict[str, Any]]:
    for path in sorted(folder.glob("*.json*")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines() if path.suffix == ".jsonl" else [text]
        for line in lines:
            if line.strip():
                yield from _histories_in(json.loads(line))


def _answers(name: str, history: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The messages of ``history`` that are a response in the ``name`` format, as one
    (a LangChain ``AIMessage`` and a pydantic-ai ``ModelResponse`` as they are, an AI SDK
    assistant message as ``{"messages": [it]}``, a span with output messages as it is)."""
    if "messages" not in history:  # a span's attributes: its output messages are its answer
        if _decodes(name, "response", history):
            yield history
        return
    for message in history["messages"]:
        for candidate in (message, {"messages": [message]}):
            if _decodes(name, "response", candidate):
                yield candidate
                break


def _written(name: str, kind: str, payloads: tuple[dict[str, Any], ...]) -> tuple[dict[str, Any], ...]:
    """The canonical ``payloads`` as the ``name`` format's writer writes them."""
    encode = chatcodec.encode_request if kind == "request" else chatcodec.encode_response
    found: list[dict[str, Any]] = []
    for payload in payloads:
        try:
            found.append(encode(name, payload, on_loss="ignore"))
        except chatcodec.ChatcodecError:
            continue
    return tuple(found)


@cache
def frameworks() -> tuple[ProviderSeeds, ...]:
    """Every framework history format's seeds (a stored history has no streams; a protocol's
    run that streams, AG-UI's, has its recorded streams under ``stream/``)."""
    found: list[ProviderSeeds] = []
    for name in framework_names():
        streams = sorted((FIXTURES / FRAMEWORK_FOLDERS[name] / "stream").glob("*.*"))
        recorded = [
            history
            for history in _recorded_histories(FIXTURES / FRAMEWORK_FOLDERS[name])
            if _decodes(name, "request", history)
        ]
        answers = tuple(answer for history in recorded for answer in _answers(name, history))
        requests = tuple(recorded) + _written(name, "request", canonical_requests())
        responses = answers + _written(name, "response", canonical_responses())
        found.append(
            ProviderSeeds(
                name,
                requests,
                responses,
                tuple(_stream(path) for path in streams),
                tuple(path.read_bytes() for path in streams if path.suffix == ".sse"),
            )
        )
    return tuple(found)


@cache
def framework_message_lists(name: str) -> tuple[list[Any], ...]:
    """The bare message lists of a framework format's histories (what ``validate_messages`` takes;
    a span's input messages, given as a list)."""
    listed = (history.get("messages", history.get("gen_ai.input.messages")) for history in seeds(name).requests)
    return tuple(messages for messages in listed if isinstance(messages, list))


@cache
def canonical_requests() -> tuple[dict[str, Any], ...]:
    """Every recorded request that decodes, as canonical JSON."""
    return tuple(
        chatcodec.decode_request(seed.name, payload).model_dump(mode="json", exclude_none=True)
        for seed in _built_in()
        for payload in seed.requests
        if _decodes(seed.name, "request", payload)
    )


@cache
def canonical_responses() -> tuple[dict[str, Any], ...]:
    """Every recorded response that decodes, as canonical JSON."""
    return tuple(
        chatcodec.decode_response(seed.name, payload).model_dump(mode="json", exclude_none=True)
        for seed in _built_in()
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
