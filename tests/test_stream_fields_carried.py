"""What an accumulated stream keeps of its events: every value of every recorded event of every
stream format is in the response ``accumulate_stream`` gives (as a value, or a fragment of one
a later value joins), or its place is one this table names, with why the response does not
hold it. A value a decoder drops that the table does not name fails here: a stream's field is
never dropped silently (the recorded streams of ``tests/fixtures/<format>/stream/``, each with
its provenance there)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec.streams._input import iter_event_payloads

FIXTURES = Path(__file__).parent / "fixtures"
_FOLDERS = {
    "openai-chat": "openai-chat",
    "anthropic": "anthropic",
    "gemini": "gemini",
    "openai-responses": "openai-responses",
    "bedrock-converse": "bedrock-converse",
    "bedrock-nova": "bedrock-nova",
    "ollama": "ollama",
    "gemini-interactions": "gemini-interactions",
    "a2a": "a2a",
    "ag_ui": "ag-ui",
}
_STRUCTURE = "the event's kind or a part's position: the response's shape holds it"
_PADDING = "random padding the API adds to hide a delta's size: it says nothing"
_RUNNING = "a state the stream passes through (in progress): the response holds the last"
_CUMULATIVE = "a running count a later event replaces: the response holds the last"
_TOTAL = "the sum of the input and output counts the response holds"
NOT_CARRIED: dict[str, dict[str, str]] = {
    "openai-chat": {
        "object": _STRUCTURE,
        "choices.[].delta.tool_calls.[].type": _STRUCTURE,
        "obfuscation": _PADDING,
        "usage.total_tokens": _TOTAL,
        "choices.[].delta.channel": "Groq's channel of a reasoning delta: read as the reasoning it marks",
    },
    "anthropic": {
        "type": _STRUCTURE,
        "delta.type": _STRUCTURE,
        "message.usage.input_tokens": _CUMULATIVE,
        "message.usage.output_tokens": _CUMULATIVE,
    },
    "gemini": {
        "usageMetadata.promptTokenCount": _CUMULATIVE,
        "usageMetadata.candidatesTokenCount": _CUMULATIVE,
        "usageMetadata.thoughtsTokenCount": _CUMULATIVE,
        "usageMetadata.totalTokenCount": _TOTAL,
        "usageMetadata.promptTokensDetails.[].tokenCount": _CUMULATIVE,
        "candidates.[].content.parts.[].functionCall.partialArgs.[].jsonPath": "where a partial argument goes: "
        "the call's arguments are assembled from them",
    },
    "openai-responses": {
        "type": _STRUCTURE,
        "part.type": _STRUCTURE,
        "item.type": _STRUCTURE,
        "item.content.[].type": _STRUCTURE,
        "response.output.[].type": _STRUCTURE,
        "response.output.[].content.[].type": _STRUCTURE,
        "sequence_number": "the event's number, which the accumulation checks",
        "response.status": _RUNNING,
        "item.status": _RUNNING,
        "obfuscation": _PADDING,
        "response.usage.total_tokens": _TOTAL,
    },
    "bedrock-converse": {
        "messageStart.p": _PADDING,
        "contentBlockDelta.p": _PADDING,
        "contentBlockStop.p": _PADDING,
        "messageStop.p": _PADDING,
        "metadata.p": _PADDING,
        "contentBlockDelta.contentBlockIndex": _STRUCTURE,
        "contentBlockStop.contentBlockIndex": _STRUCTURE,
        "metadata.usage.totalTokens": _TOTAL,
    },
    "ollama": {"created_at": "each chunk's time: the response holds the last chunk's"},
    "gemini-interactions": {
        "event_type": _STRUCTURE,
        "step.type": _STRUCTURE,
        "delta.type": _STRUCTURE,
        "interaction.status": _RUNNING,
        "status": _RUNNING,
        "interaction.usage.total_output_tokens": _CUMULATIVE,
    },
    "a2a": {"task.status.state": _RUNNING, "result.task.status.state": _RUNNING},
    "ag-ui": {
        "type": _STRUCTURE,
        "timestamp": "RUN_STARTED's time: a response has no place for when the run began (the run's "
        "messages keep their events' fields)",
    },
}
"""By format, the places (an event's keys joined by ``.``, ``[]`` for a list's items) whose
values an accumulated response does not hold, each with why."""

STREAMS = sorted(
    (fmt, path)
    for folder, fmt in _FOLDERS.items()
    for path in (FIXTURES / folder / "stream").glob("*")
    if path.is_file()
)


def _leaves(value: Any, path: tuple[str, ...] = ()) -> Any:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, (*path, "[]"))
    else:
        yield path, value


def _held(value: Any, found: list[str]) -> list[str]:
    """Every text the response holds: its strings and numbers, and each object as JSON (an
    argument object a stream sent as fragments of its text)."""
    if isinstance(value, dict):
        found += (json.dumps(value), json.dumps(value, separators=(",", ":")))
        for item in value.values():
            _held(item, found)
    elif isinstance(value, list):
        for item in value:
            _held(item, found)
    else:
        found.append(value if isinstance(value, str) else json.dumps(value))
    return found


def _not_carried(fmt: str, path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    response = chatcodec.accumulate_stream(fmt, text, partial=True)
    held = "\x00".join(_held(response.model_dump(), []))
    missing: dict[str, str] = {}
    for event in iter_event_payloads(text):
        for place, value in _leaves(event):
            if value is None or value == "" or isinstance(value, bool):
                continue  # a null or an empty text says nothing; a flag's meaning is its event's
            spelled = value if isinstance(value, str) else json.dumps(value)
            if spelled not in held:
                missing.setdefault(".".join(place), spelled[:40])
    return missing


def test_every_format_with_recorded_streams_is_read() -> None:
    assert {fmt for fmt, _ in STREAMS} == set(_FOLDERS.values())


@pytest.mark.parametrize(("fmt", "path"), STREAMS, ids=[f"{fmt}/{path.name}" for fmt, path in STREAMS])
def test_a_recorded_streams_values_are_carried_or_named(fmt: str, path: Path) -> None:
    missing = _not_carried(fmt, path)
    unnamed = {place: value for place, value in missing.items() if place not in NOT_CARRIED.get(fmt, {})}
    assert unnamed == {}, f"{fmt} drops these silently: {unnamed}"


def test_a_value_not_carried_is_found_and_a_new_field_is_carried(tmp_path: Path) -> None:
    """The check itself: the padding OpenAI adds to each chunk, which no response holds, is
    found; a field a chunk gains (one no decoder knows) is kept with the response."""
    fmt, path = "openai-chat", FIXTURES / "openai-chat" / "stream" / "text_with_usage_obfuscation.sse"
    assert "obfuscation" in _not_carried(fmt, path)
    lines = path.read_text(encoding="utf-8").splitlines()
    first = next(index for index, line in enumerate(lines) if line.startswith("data: {"))
    event = json.loads(lines[first].removeprefix("data: "))
    event["x_trace"] = "trace-1234567"
    lines[first] = "data: " + json.dumps(event)
    changed = tmp_path / "changed.sse"
    changed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert "x_trace" not in _not_carried(fmt, changed)
