"""Records that grow linearly: a turn's line holds what is new since the session's line it
extends, and every reader rebuilds the full turn (issue 106).

The sessions here are tool loops through the gateway in front of a mock vLLM whose prompts
extend the previous turn's prompt and completion, as a prefix-stable template renders them;
a gateway whose writer extends nothing (a full-line writer, as before) records the same
session beside it, so the rebuilt turns are checked against what it wrote.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import pydantic_core
import pytest

import chatcodec
from chatcodec._training.record_deltas import Rebuilder
from chatcodec._training.records import record_line
from chatcodec.serve._turn_chains import TurnChains
from serve.harness import FakeUpstream, proxy, serving_fake
from serve.test_turn_records import CALL_TEXT, QUESTION, SESSION, TOOLS, _ids, _prompt, vllm_answer

TURNS = 50
RESULT = "sunny, 21 degrees, a light wind from the west, no rain expected before the evening. "


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


def _tool_session(
    fake: FakeUpstream, recorded: Path, turns: int, *, rewrite_at: int | None = None, **more: Any
) -> list[list[int]]:
    """A ``turns``-turn tool session recorded in ``recorded``; the prompt ids each turn was
    given. At ``rewrite_at``, the caller rewrites its first message (a break)."""
    fake.replies.clear()
    settings: dict[str, Any] = {"options": {"server": "vllm"}, "record": str(recorded), "allow_anonymous": True}
    settings.update(more)
    prompts: list[list[int]] = []
    with (
        proxy("anthropic", "openai-chat", f"{fake.base}/v1", **settings) as origin,
        anthropic.Anthropic(base_url=origin, api_key="sk-x", max_retries=0, default_headers=SESSION) as sdk,
    ):
        history: list[Any] = list(QUESTION)
        prompt = _prompt(QUESTION)
        for turn in range(turns):
            if turn == rewrite_at:
                history[0] = {"role": "user", "content": "What is the weather in Rome?"}
                prompt = _prompt(history)  # re-rendered: it no longer extends the last turn's ids
            completion = _ids(CALL_TEXT)
            call = {
                "id": f"chatcmpl-tool-{turn}",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            }
            fake.reply(vllm_answer(prompt, completion, {"tool_calls": [call]}, "tool_calls"))
            answer = sdk.messages.create(model="qwen3", max_tokens=100, messages=history, tools=TOOLS)
            prompts.append(prompt)
            result = f"Report {turn}: {RESULT * 3}"
            history += [
                {"role": "assistant", "content": [block.model_dump() for block in answer.content]},
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": answer.content[-1].id, "content": result}],
                },
            ]
            response = (
                f"<|im_start|>user\n<tool_response>\n{result}\n</tool_response><|im_end|>\n<|im_start|>assistant\n"
            )
            prompt = [*prompt, *completion, *_ids(response)]
    return prompts


def _whole(recorded: Path) -> list[dict[str, Any]]:
    rebuilder = Rebuilder()
    return [
        rebuilder.rebuilt(json.loads(line), f"line {number}")
        for number, line in enumerate(recorded.read_bytes().splitlines(), start=1)
    ]


def _as_written_whole(line: dict[str, Any]) -> dict[str, Any]:
    """A line's fields that do not depend on the call that made it or on the line it extends."""
    return {key: value for key, value in line.items() if key not in {"request_id", "extends"}}


def test_a_fifty_turn_tool_session_grows_linearly_and_reads_back_whole(
    fake: FakeUpstream, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    linear = tmp_path / "linear.jsonl"
    prompts = _tool_session(fake, linear, TURNS)
    with monkeypatch.context() as patched:
        patched.setattr(TurnChains, "base", lambda *_: None)  # a writer that extends nothing
        full = tmp_path / "full.jsonl"
        assert _tool_session(fake, full, TURNS) == prompts

    raw = [json.loads(line) for line in linear.read_bytes().splitlines()]
    assert "extends" not in raw[0]
    assert all(line["extends"] == before["request_id"] for before, line in itertools.pairwise(raw))
    assert all(
        line["prompt_kept"] == len(before["completion_ids"]) + len(prompts[turn])
        for turn, (before, line) in enumerate(itertools.pairwise(raw))
    )
    # every turn rebuilt is the line a full-line writer wrote for it
    assert [_as_written_whole(line) for line in _whole(linear)] == [_as_written_whole(line) for line in _whole(full)]
    episodes = chatcodec.read_records(linear)
    assert [turn.prompt_ids for turn in episodes["episode-1"]] == prompts
    assert episodes == chatcodec.read_records(full)

    last = _whole(linear)[-1]
    last_full = len(pydantic_core.to_json(last["prompt_ids"])) + len(pydantic_core.to_json(last["messages"]))
    size, before = linear.stat().st_size, full.stat().st_size
    assert size <= 3 * last_full
    assert before > 10 * size  # the square of the length, gone


def test_a_line_whose_base_is_corrupt_is_a_loss_naming_it_and_the_rest_is_read(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    recorded = tmp_path / "turns.jsonl"
    prompts = _tool_session(fake, recorded, 4)
    lines = recorded.read_bytes().splitlines(keepends=True)
    other = chatcodec.read_records(recorded)["episode-1"][0]
    lines[1] = b'{"record": 1, "session": "episode-1", "tur\n'  # a disk that corrupted the second turn's line
    recorded.write_bytes(b"".join(lines) + _line_of(other, "episode-2"))
    losses: list[chatcodec.Loss] = []
    found = chatcodec.read_records(recorded, on_loss="ignore", losses=losses)
    assert [turn.prompt_ids for turn in found["episode-1"]] == prompts[:1]  # never a turn rebuilt on another
    assert [turn.prompt_ids for turn in found["episode-2"]] == prompts[:1]
    assert [loss.path for loss in losses] == ["line 2", "line 3.extends", "line 4.extends"]
    assert "did not read before it" in losses[1].what + losses[1].why


def _line_of(turn: chatcodec.SampledTurn, session: str) -> bytes:
    return record_line(
        session=session,
        turn=0,
        request_id="other-0",
        model="qwen3",
        upstream="openai-chat",
        status="complete",
        messages=QUESTION,
        tools=[],
        prompt_ids=turn.prompt_ids,
        completion_ids=turn.completion_ids,
        logprobs=turn.logprobs,
        finish_reason="stop",
    )


def test_a_rewritten_history_names_the_line_it_starts_from_and_reads_back_whole(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    recorded = tmp_path / "turns.jsonl"
    prompts = _tool_session(fake, recorded, 4, rewrite_at=2)
    raw = [json.loads(line) for line in recorded.read_bytes().splitlines()]
    broken = raw[2]
    assert broken["extends"] == raw[1]["request_id"]
    assert broken["messages_kept"] == 0  # the first message rewritten: every message is new
    assert 0 < broken["prompt_kept"] < len(prompts[1]) + len(raw[1]["completion_ids"])  # the system prompt kept
    assert [turn.prompt_ids for turn in chatcodec.read_records(recorded)["episode-1"]] == prompts
    whole = _whole(recorded)
    assert "Rome" in json.dumps(whole[2]["messages"][0])
    assert "Paris" in json.dumps(whole[1]["messages"][0])
    assert whole[2]["messages"][1:] == whole[1]["messages"][1:] + broken["messages_added"][3:]


def test_the_read_back_answers_each_turn_whole(fake: FakeUpstream, tmp_path: Path) -> None:
    recorded = tmp_path / "turns.jsonl"
    prompts = _tool_session(fake, recorded, 3)
    settings: dict[str, Any] = {"options": {"server": "vllm"}, "record": str(recorded), "allow_anonymous": True}
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1", **settings) as origin:
        turns = httpx.get(f"{origin}/v1/sessions/episode-1").json()["turns"]
    assert [turn["prompt_ids"] for turn in turns] == prompts
    assert [len(turn["messages"]) for turn in turns] == [1, 3, 5]
    assert [turn.get("extends") for turn in turns] == [None, turns[0]["request_id"], turns[1]["request_id"]]
    assert all("prompt_added" not in turn and turn["tools"] for turn in turns)


def test_each_shard_reads_whole_on_its_own(fake: FakeUpstream, tmp_path: Path) -> None:
    """A line that would extend a line of the shard before is written whole as the next shard's first."""
    prompts = _tool_session(fake, tmp_path, 8, record_max_bytes=5_000)
    shards = sorted(tmp_path.glob("*.jsonl"))
    assert len(shards) > 2
    read: list[list[int]] = []
    for shard in shards:
        losses: list[chatcodec.Loss] = []
        found = chatcodec.read_records(shard, on_loss="ignore", losses=losses)
        assert losses == []
        assert "extends" not in json.loads(shard.read_bytes().splitlines()[0])
        read += [turn.prompt_ids for turn in found["episode-1"]]
    assert read == prompts
    assert [turn.prompt_ids for turn in chatcodec.read_records(tmp_path)["episode-1"]] == prompts
    assert any("extends" in json.loads(line) for shard in shards for line in shard.read_bytes().splitlines())
