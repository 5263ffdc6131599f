"""Record stores that survive operations (issue 106): one file locked for one gateway,
opened again when it is removed or rotated under a running gateway (or each turn after
reported as unrecorded), bounded by ``--record-max-bytes``; a directory of one-writer shards.
In process, over the stand-in vLLM of :mod:`serve.test_sessions`."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import httpx
import pytest

import chatcodec
from chatcodec.serve import ServeConfig, create_app
from chatcodec.serve._turn_records import TurnFile
from chatcodec.serve._turn_shards import TurnShards
from serve.harness import vllm_recording
from serve.test_sessions import BODY, gateway

STORE_ERROR = "chatcodec-store-error"


def _calls(record: Path, sessions: list[str], between: object = None, **settings: object) -> list[httpx.Response]:
    """One call a session, in order; ``between`` (a function) run after the first."""

    async def run() -> list[httpx.Response]:
        answers = []
        async with gateway(record, **settings) as client:
            for number, session in enumerate(sessions):
                answers.append(await client.post(f"/sessions/{session}/v1/messages", json=BODY))
                if number == 0 and callable(between):
                    between()
        return answers

    return asyncio.run(run())


def test_a_second_gateway_on_a_recording_file_is_refused_and_the_first_goes_on(tmp_path: Path) -> None:
    record = tmp_path / "turns.jsonl"
    config = vllm_recording(str(record), allow_anonymous=True)

    def second() -> None:
        with pytest.raises(ValueError, match="another gateway records into it"):
            create_app(config)

    answers = _calls(record, ["a", "b"], second)
    assert all(answer.status_code == 200 and STORE_ERROR not in answer.headers for answer in answers)
    assert sorted(chatcodec.read_records(record, on_loss="error")) == ["a", "b"]
    TurnFile(str(record)).close()  # the lock goes with its gateway


@pytest.mark.parametrize("operation", ["removed", "rotated"])
def test_a_file_removed_or_rotated_while_serving_is_opened_again(tmp_path: Path, operation: str) -> None:
    record = tmp_path / "turns.jsonl"
    rotated = tmp_path / "turns.jsonl.1"

    def operate() -> None:
        if operation == "removed":
            record.unlink()
        else:
            record.rename(rotated)

    answers = _calls(record, ["a", "b", "c"], operate)
    assert all(STORE_ERROR not in answer.headers for answer in answers)
    assert sorted(chatcodec.read_records(record, on_loss="error")) == ["b", "c"]
    if operation == "rotated":
        assert list(chatcodec.read_records(rotated, on_loss="error")) == ["a"]


def test_a_file_that_cannot_be_opened_again_reports_each_later_turn_as_unrecorded(tmp_path: Path) -> None:
    folder = tmp_path / "gone"
    folder.mkdir()
    answers = _calls(folder / "turns.jsonl", ["a", "b", "c"], lambda: shutil.rmtree(folder))
    assert STORE_ERROR not in answers[0].headers
    for answer in answers[1:]:
        assert answer.status_code == 200  # the answer, already paid for, is delivered
        assert "was removed or replaced while serving and cannot be opened again" in answer.headers[STORE_ERROR]


def test_a_bounded_file_reports_the_turns_past_its_bound(tmp_path: Path) -> None:
    record = tmp_path / "turns.jsonl"
    answers = _calls(record, ["a", "b", "c", "d"], record_max_bytes=1_000)
    line = len(record.read_bytes().splitlines()[0]) + 1
    kept = 1_000 // line
    assert 0 < kept < 4
    assert [STORE_ERROR in answer.headers for answer in answers] == [False] * kept + [True] * (4 - kept)
    assert "would pass its bound of 1000 (--record-max-bytes)" in answers[-1].headers[STORE_ERROR]
    assert record.stat().st_size <= 1_000


def test_a_directory_gets_bounded_shards_of_one_writer_each(tmp_path: Path) -> None:
    answers = _calls(tmp_path, ["a", "b", "c", "d"], record_max_bytes=1_000)
    assert all(STORE_ERROR not in answer.headers for answer in answers)
    shards = sorted(tmp_path.iterdir())
    assert len(shards) >= 2
    assert all(shard.stat().st_size <= 1_000 for shard in shards)
    assert all(shard.name.endswith(".jsonl") and shard.name.count("-") >= 3 for shard in shards)
    lines = [json.loads(line) for shard in shards for line in shard.read_bytes().splitlines()]  # plain JSON Lines
    assert sorted(line["session"] for line in lines) == ["a", "b", "c", "d"]
    assert sorted(chatcodec.read_records(tmp_path, on_loss="error")) == ["a", "b", "c", "d"]


def test_a_shard_removed_while_serving_is_followed_by_a_new_one(tmp_path: Path) -> None:
    answers = _calls(tmp_path, ["a", "b"], lambda: [shard.unlink() for shard in tmp_path.iterdir()])
    assert all(STORE_ERROR not in answer.headers for answer in answers)
    assert list(chatcodec.read_records(tmp_path, on_loss="error")) == ["b"]


def test_two_writers_in_one_directory_never_share_a_shard(tmp_path: Path) -> None:
    first, second = TurnShards(str(tmp_path)), TurnShards(str(tmp_path))
    try:
        assert first.shard != second.shard
        first.append(b'{"n": 1}\n')
        second.append(b'{"n": 2}\n')
    finally:
        first.close()
        second.close()
    assert sorted(shard.read_bytes() for shard in tmp_path.iterdir()) == [b'{"n": 1}\n', b'{"n": 2}\n']


def test_a_bound_without_a_record_or_below_one_byte_is_refused(tmp_path: Path) -> None:
    settings = {"api": "anthropic", "upstream": "openai-chat", "upstream_url": "http://vllm:8000/v1"}
    with pytest.raises(ValueError, match="--record-max-bytes bounds what --record writes"):
        ServeConfig(**settings, record_max_bytes=10)
    with pytest.raises(ValueError, match="must be a positive number of bytes"):
        ServeConfig(**settings, options={"server": "vllm"}, record=str(tmp_path / "t.jsonl"), record_max_bytes=0)
