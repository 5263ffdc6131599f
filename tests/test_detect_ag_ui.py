"""``convert`` without ``--from`` names ``ag-ui`` for a body only AG-UI holds (issue 110): a
``RunAgentInput``, or a message list whose ids and wire spellings only AG-UI writes; never a body
another format also holds, checked on every JSON fixture in the repository."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from chatcodec._frameworks.ag_ui.detection import is_ag_ui
from chatcodec.cli import main
from chatcodec.cli._source_format import document_format

FIXTURES = Path(__file__).parent / "fixtures"
AG_UI = FIXTURES / "ag_ui"


def _documents(path: Path) -> Iterator[object]:
    """The JSON documents of a fixture file (a JSON file, or a JSON-lines file's lines)."""
    text = path.read_text(encoding="utf-8")
    try:
        yield json.loads(text)
    except json.JSONDecodeError:
        for line in text.splitlines():
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                return  # a fixture of another kind (SSE, a broken body on purpose)


def _others() -> list[Path]:
    return sorted(
        path
        for path in FIXTURES.rglob("*")
        if path.is_file() and path.suffix in (".json", ".jsonl") and AG_UI not in path.parents
    )


def test_no_other_formats_fixture_is_taken_for_ag_ui() -> None:
    others = _others()
    assert len(others) > 200  # the repository's fixtures, not an empty walk
    taken = [str(path) for path in others for document in _documents(path) if is_ag_ui(document)]
    assert taken == []


@pytest.mark.parametrize("path", sorted(AG_UI.glob("*.json")), ids=lambda path: path.name)
def test_every_ag_ui_fixture_is_named_ag_ui(path: Path) -> None:
    assert document_format(json.loads(path.read_text(encoding="utf-8"))) == "ag-ui"


@pytest.mark.parametrize(
    "document",
    [
        {"messages": [{"id": "m1", "role": "user", "content": "Hi"}]},  # ids and roles alone: any chat format's
        [{"id": "m1", "role": "user", "content": "Hi"}, {"id": "m2", "role": "assistant", "content": "Hello"}],
        {"messages": [{"role": "reasoning", "content": "x"}]},  # AG-UI requires the id
        {"threadId": "t", "runId": "r", "messages": [], "model": "gpt-5"},  # a key RunAgentInput has not
        {"threadId": "t", "messages": []},
        {"messages": [{"id": "m1", "role": "tool", "content": "4", "tool_call_id": "c1"}]},  # OpenAI's spelling
    ],
)
def test_what_other_formats_hold_too_is_not_named_ag_ui(document: object) -> None:
    assert not is_ag_ui(document)


def test_convert_without_from_reads_a_run_agent_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.json"
    path.write_text((AG_UI / "sdk_run_agent_input.json").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["convert", str(path), "--to", "openai-chat", "--quiet", "--model", "gpt-5"]) == 0
    out, err = capsys.readouterr()
    assert "read as ag-ui" in err
    assert json.loads(out)["messages"][0]["role"] == "system"
