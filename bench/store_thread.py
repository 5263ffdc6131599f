"""How long continuing a long thread costs the SQLite store (issue 48: the 1,000th answer
took 4.3 s when every ancestor was read and touched one commit at a time).

    .venv/bin/python bench/store_thread.py [ANSWERS]

Builds a thread of ``ANSWERS`` answers (1,000 by default) turn by turn in a fresh SQLite
file, then times reading its history (what a request naming the last answer in
``previous_response_id`` waits for) and keeping one more answer, the median of 20 rounds.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from chatcodec.serve._response_store import ResponseStore, owner_of
from chatcodec.serve._response_store_sqlite import SqliteBackend

OWNER = owner_of("bench")
TURN = [
    {"role": "user", "content": "What is the next step?"},
    {"role": "assistant", "content": [{"type": "text", "text": "The next step is this one. " * 20}]},
]


async def main(answers: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = ResponseStore(SqliteBackend(str(Path(folder) / "answers.db"), 100_000, 1024**3))
        started = time.perf_counter()
        parent = None
        for index in range(answers):
            await store.keep(f"resp_{index}", owner=OWNER, parent=parent, messages=TURN, response={})
            parent = f"resp_{index}"
        built = time.perf_counter() - started
        reads, keeps = [], []
        for round_ in range(20):
            started = time.perf_counter()
            history = await store.conversation(parent or "", OWNER)
            reads.append(time.perf_counter() - started)
            started = time.perf_counter()
            await store.keep(f"branch_{round_}", owner=OWNER, parent=parent, messages=TURN, response={})
            keeps.append(time.perf_counter() - started)
        assert history is not None
        assert len(history) == 2 * answers
        await store.close()
    print(f"thread of {answers} answers built turn by turn in {built:.2f} s")
    print(f"reading its history: {statistics.median(reads) * 1000:.1f} ms (median of 20)")
    print(f"keeping one more answer: {statistics.median(keeps) * 1000:.1f} ms (median of 20)")
    print(f"continuing it (both): {(statistics.median(reads) + statistics.median(keeps)) * 1000:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
