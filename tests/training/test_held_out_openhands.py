"""An OpenHands evaluation output OpenHands itself published (``OpenHands/OpenHands``,
``evaluation/benchmarks/multi_swe_bench/examples/output.jsonl``: three real CodeActAgent runs;
``tests/fixtures/harness_sessions/SOURCES.md``), never seen by the reader's author: each row's
history read as the conversation the agent's model was shown (every model response once, in
order, each observation of a call its tool message, an error OpenHands could not run as the
user message its prompt makes), every event not read a named loss, converted to OpenAI Chat,
Anthropic and ATIF, and rendered turn by turn (issue 110)."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from chatcodec import Loss, render_turns
from chatcodec._row_dialects.openhands import read_openhands
from chatcodec.batch._convert import convert_payload
from chatcodec.batch._row_formats import row_options
from training.qwen3_tokenizer import qwen3_encoding

OUTPUT = (
    Path(__file__).parents[1]
    / "fixtures"
    / "harness_sessions"
    / "held_out"
    / "openhands-multi-swe-bench-output.jsonl.gz"
)
PUBLISHED = "cdf86aa152e66a54840cbe9948a10df35ec41ce49e346e5cf1569cdf22ead2de"


def _bytes() -> bytes:
    return gzip.decompress(OUTPUT.read_bytes())


def _rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in _bytes().decode("utf-8").splitlines() if line.strip()]


def test_the_file_is_the_bytes_openhands_published() -> None:
    assert hashlib.sha256(_bytes()).hexdigest() == PUBLISHED


@pytest.mark.parametrize("index", [0, 1, 2])
def test_each_model_response_is_one_answer_in_order_and_each_observation_its_calls_result(index: int) -> None:
    history = _rows()[index]["history"]
    notes: list[Loss] = []
    messages = read_openhands(_rows()[index], notes)["messages"]
    responses: list[str] = []
    for event in history:
        response = (event.get("tool_call_metadata") or {}).get("model_response") or {}
        if "action" in event and event["source"] == "agent" and response and response["id"] not in responses:
            responses.append(response["id"])
    answers = [message for message in messages if message["role"] == "assistant"]
    assert len(answers) == len(responses) > 20
    calls = [call["id"] for answer in answers for call in answer.get("tool_calls") or []]
    results = [message["tool_call_id"] for message in messages if message["role"] == "tool"]
    observed = [
        event["tool_call_metadata"]["tool_call_id"]
        for event in history
        if "observation" in event and event.get("tool_call_metadata")
    ]
    assert results == observed
    assert results == [call for call in calls if call in set(results)]  # each call's result, in the calls' order
    errors = [event["content"] for event in history if event.get("observation") == "error"]
    prompts = [message["content"] for message in messages if message["role"] == "user"][1:]  # after the task
    assert prompts == [f"{error}\n[Error occurred in processing last action]" for error in errors]
    content = {(loss.path, loss.what) for loss in notes if loss.kind == "content"}
    assert content == {
        ("$.history[2]", "recall action"),
        ("$.history[3]", "recall observation"),
        ("$.history", "observation text"),
    }


def test_an_error_openhands_could_not_run_is_the_users_message_said_so() -> None:
    history = _rows()[1]["history"]
    (at,) = [index for index, event in enumerate(history) if event.get("observation") == "error"]
    notes: list[Loss] = []
    read_openhands(_rows()[1], notes)
    assert (f"$.history[{at}]", "error observation", "spelling") in {
        (loss.path, loss.what, loss.kind) for loss in notes
    }


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "atif"])
def test_each_row_converts(target: str) -> None:
    for row in _rows():
        outcome = convert_payload(json.dumps(row), row_options("openhands", target))
        assert outcome.converted is not None, outcome.error
        written = outcome.converted["steps" if target == "atif" else "messages"]
        assert len(written) > 20
        paths = {loss.path for loss in outcome.losses if loss.kind == "metadata"}
        assert {"$.instance_id", "$.test_result", "$.metadata", "$.metrics", "$.instance"} <= paths


def test_each_row_renders_a_turn_per_answer() -> None:
    for row in _rows():
        answers = sum(message["role"] == "assistant" for message in read_openhands(row, [])["messages"])
        turns = render_turns(row, source="openhands", template="qwen3", tokenizer=qwen3_encoding(), on_loss="ignore")
        assert len(turns) == answers
        assert all(turn.completion_ids for turn in turns)
