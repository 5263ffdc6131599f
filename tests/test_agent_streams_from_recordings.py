"""Every provider's recorded stream written as an AG-UI run and as an A2A task's stream (issue
110): every event read by the protocol's own definition (``ag_ui.core``'s ``Event`` union,
``a2a.proto``'s ``StreamResponse`` with unknown fields refused), and read back to the answer's text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from a2a.types import a2a_pb2
from google.protobuf import json_format

import chatcodec

FIXTURES = Path(__file__).parent / "fixtures"


def _recordings() -> list[tuple[str, Path]]:
    found = [
        (name, path)
        for name in chatcodec.PROVIDER_NAMES
        for path in sorted((FIXTURES / name / "stream").glob("*"))
        if path.is_file()
    ]
    return found


def _stream(name: str, path: Path) -> Any:
    """A recording as its codec reads it: SSE or JSON-lines bytes, or a JSON list of events."""
    return json.loads(path.read_text(encoding="utf-8")) if path.suffix == ".json" else path.read_bytes()


def _valid(target: str, written: list[dict[str, Any]]) -> None:
    if target == "ag-ui":
        core = pytest.importorskip("ag_ui.core")
        from pydantic import TypeAdapter

        TypeAdapter(list[core.Event]).validate_python(written)
        return
    for event in written:
        json_format.ParseDict(event, a2a_pb2.StreamResponse(), ignore_unknown_fields=False)


def _texts(response: chatcodec.ChatResponse) -> str:
    """The first choice's words: its texts and refusals (which these protocols write as text)."""
    if not response.choices:
        return ""
    parts = response.choices[0].message.parts
    return "".join(part.text for part in parts if isinstance(part, chatcodec.TextPart | chatcodec.RefusalPart))


def test_the_recordings_are_found() -> None:
    assert len({name for name, _ in _recordings()}) == len(chatcodec.PROVIDER_NAMES)


@pytest.mark.parametrize("target", ["ag-ui", "a2a"])
@pytest.mark.parametrize(("name", "path"), _recordings(), ids=lambda value: getattr(value, "name", value))
def test_a_recorded_stream_writes_valid_events_that_read_back_to_its_text(name: str, path: Path, target: str) -> None:
    events = list(chatcodec.decode_stream(name, _stream(name, path)))
    written = list(chatcodec.encode_stream(target, events, on_loss="ignore"))
    _valid(target, written)
    original = chatcodec.StreamAccumulator()
    original.extend(events)
    answer = original.response(allow_errors=True)
    again = chatcodec.accumulate_stream(target, written, partial=True)
    assert _texts(again) == _texts(answer)  # a refusal written as text, reported
