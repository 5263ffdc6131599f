"""Reading a record store that operations damaged (issue 106): every line that is not a
record, wherever it is and however it is broken, is a loss naming its line, never a foreign
exception, and the lines around it are read; the reading streams (memory flat in the file's
size). Each damaged line below is one a real fault makes: a block of a disk zeroed or
overwritten, a hand edit, a line of another program appended, a number no float holds."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

import chatcodec
from chatcodec._training.records import end_line, record_line


def _turn(session: str, turn: int, *, status: str = "complete", size: int = 3) -> bytes:
    return record_line(
        session=session,
        turn=turn,
        request_id=f"req-{session}-{turn}",
        model="qwen3",
        upstream="openai-chat",
        status=status,
        messages=[{"role": "user", "content": "x" * size}] * (2 * turn + 1),
        tools=[],
        prompt_ids=[1, 2, 3],
        completion_ids=[4, 5],
        logprobs=[-0.5, -0.25],
        finish_reason="stop",
    )


DAMAGED: dict[str, bytes] = {
    "nested deeper than a parser goes": b"[" * 200_000 + b"\n",
    "an object nested deeper than a parser goes": b'{"a":' * 200_000 + b"\n",
    "a logprob no float holds": _turn("s", 1).replace(b"-0.25", b"1" + b"0" * 400),
    "an id of more digits than Python reads": _turn("s", 1).replace(b"[4,5]", b"[4," + b"9" * 5000 + b"]"),
    "zeroed bytes of a disk block": b"\x00" * 300 + b"\n",
    "bytes that are no UTF-8": b'{"record": 1, "session": "\xff\xfe"}\n',
    "record true": _turn("s", 1).replace(b'"record":1', b'"record":true'),
    "a session that is an object": _turn("s", 1).replace(b'"session":"s"', b'"session":{"a":1}'),
    "a turn that is a float": _turn("s", 1).replace(b'"turn":1', b'"turn":1.5'),
    "ids that are strings": _turn("s", 1).replace(b"[4,5]", b'["4","5"]'),
    "fewer logprobs than ids": _turn("s", 1).replace(b"[-0.5,-0.25]", b"[-0.5]"),
    "a status missing": _turn("s", 1).replace(b'"status":"complete",', b""),
    "an end without its reward": end_line(session="s", parent=None, reward=1.0, metadata={}).replace(
        b'"reward":1.0', b'"reward":"high"'
    ),
    "a line of another program": b"2026-11-27 12:00:00 INFO started\n",
    "half a line glued to a whole one": _turn("s", 1)[:50] + _turn("s", 1),
}


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_a_damaged_middle_line_is_a_loss_naming_it_and_the_rest_is_read(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "turns.jsonl"
    path.write_bytes(
        _turn("s", 0)
        + DAMAGED[damage]
        + _turn("s", 2)
        + end_line(session="s", parent=None, reward=0.5, metadata={"k": 1})
    )
    losses: list[chatcodec.Loss] = []
    turns = chatcodec.read_records(path, on_loss="ignore", losses=losses)
    assert [turn.message_index for turn in turns["s"]] == [1, 5]
    assert len(losses) == 1
    assert losses[0].path.startswith("line 2")
    episodes: list[chatcodec.Loss] = []
    (episode,) = chatcodec.read_episodes(path, on_loss="ignore", losses=episodes)
    assert (episode.reward, episode.metadata, len(episode.turns)) == (0.5, {"k": 1}, 2)
    assert [loss.path for loss in episodes] == [loss.path for loss in losses]


def test_a_torn_line_is_a_loss_whether_last_or_in_the_middle(tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    whole = _turn("s", 0)
    path.write_bytes(whole + whole[:60] + b"\n" + _turn("s", 1) + whole[:30])
    losses: list[chatcodec.Loss] = []
    turns = chatcodec.read_records(path, on_loss="ignore", losses=losses)
    assert len(turns["s"]) == 2
    assert [(loss.path, loss.what) for loss in losses] == [
        ("line 2", "a line that is no record"),
        ("line 4", "an unfinished last line"),
    ]


def test_a_second_end_of_a_session_is_a_loss_and_the_first_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    first = end_line(session="s", parent="p", reward=1.0, metadata={})
    path.write_bytes(_turn("s", 0) + first + end_line(session="s", parent="p", reward=0.0, metadata={}))
    losses: list[chatcodec.Loss] = []
    (episode,) = chatcodec.read_episodes(path, on_loss="ignore", losses=losses)
    assert (episode.reward, episode.parent) == (1.0, "p")
    assert [(loss.path, loss.what) for loss in losses] == [("line 3", "a second end of 's'")]


def test_a_session_whose_turns_all_failed_is_an_episode_without_turns(tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    path.write_bytes(_turn("s", 0, status="error") + _turn("t", 0))
    episodes = chatcodec.read_episodes(path, on_loss="ignore")
    assert [(episode.session, len(episode.turns)) for episode in episodes] == [("s", 0), ("t", 1)]


def test_reading_streams_memory_stays_flat_in_the_file_s_size(tmp_path: Path) -> None:
    """Lines that give no turn (cancelled turns, 20 kB each) are read and let go: the peak
    is a few lines' worth, not the file's 40 MB."""
    path = tmp_path / "turns.jsonl"
    line = _turn("s", 0, status="cancelled", size=20_000)
    with path.open("wb") as file:
        for _ in range(2_000):
            file.write(line)
    assert path.stat().st_size > 40_000_000
    tracemalloc.start()
    try:
        losses: list[chatcodec.Loss] = []
        assert chatcodec.read_records(path, on_loss="ignore", losses=losses) == {}
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(losses) == 2_000
    assert peak < 2_000_000, peak


def test_a_directory_of_shards_is_read_as_one_store(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_bytes(_turn("s", 1) + b"junk\n")
    (tmp_path / "b.jsonl").write_bytes(_turn("s", 0) + _turn("t", 0)[:20])
    (tmp_path / "notes.txt").write_text("not a shard\n")
    losses: list[chatcodec.Loss] = []
    turns = chatcodec.read_records(tmp_path, on_loss="ignore", losses=losses)
    assert [turn.message_index for turn in turns["s"]] == [1, 3]
    assert "t" not in turns
    assert [loss.path for loss in losses] == ["a.jsonl line 2", "b.jsonl line 2"]


def _delta(**fields: object) -> bytes:
    """The second turn of session ``s`` as a line extending its first (``req-s-0``), ``fields`` changed."""
    base = {"extends": "req-s-0", "messages_kept": 1, "messages_added": [], "prompt_kept": 5, "prompt_added": [6]}
    return record_line(
        session="s",
        turn=1,
        request_id="req-s-1",
        model="qwen3",
        upstream="openai-chat",
        status="complete",
        messages=[],
        tools=[],
        prompt_ids=[],
        completion_ids=[7],
        logprobs=[-0.5],
        finish_reason="stop",
        delta={**base, **fields},
    )


@pytest.mark.parametrize(
    ("fields", "path", "rule"),
    [
        ({"extends": 7}, "line 2.extends", "a string"),
        ({"extends": "req-s-9"}, "line 2.extends", "did not read before it"),
        ({"messages_kept": 2}, "line 2.messages_kept", "from 0 to 1"),
        ({"prompt_kept": -1}, "line 2.prompt_kept", "from 0 to 5"),
        ({"prompt_kept": True}, "line 2.prompt_kept", "an integer"),
        ({"prompt_added": {"a": 1}}, "line 2.prompt_added", "a list"),
        ({"prompt_added": [-1]}, "line 2.prompt_ids[5]", "token id"),
    ],
)
def test_a_delta_line_that_cannot_be_rebuilt_is_a_loss_naming_its_field(
    tmp_path: Path, fields: dict[str, object], path: str, rule: str
) -> None:
    store = tmp_path / "turns.jsonl"
    store.write_bytes(_turn("s", 0) + _delta(**fields) + _turn("t", 0))
    losses: list[chatcodec.Loss] = []
    found = chatcodec.read_records(store, on_loss="ignore", losses=losses)
    assert sorted(found) == ["s", "t"]
    assert len(found["s"]) == 1
    assert [loss.path for loss in losses] == [path]
    assert rule in losses[0].why + losses[0].what


def test_a_delta_line_is_read_whole_and_a_full_line_after_it_still_reads(tmp_path: Path) -> None:
    store = tmp_path / "turns.jsonl"
    store.write_bytes(_turn("s", 0) + _delta() + _turn("s", 2))
    turns = chatcodec.read_records(store)["s"]
    assert [turn.prompt_ids for turn in turns] == [[1, 2, 3], [1, 2, 3, 4, 5, 6], [1, 2, 3]]
    assert [turn.message_index for turn in turns] == [1, 1, 5]
