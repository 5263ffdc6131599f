"""The acceptance sessions speed is judged on: the 10-step ones in ``tests/fixtures/perf-sessions/``.

Each file is one request body, ``<stem>-<steps>.json.gz``, a coding agent's tool loop as its
client sends it (nested tool arguments, reasoning, screenshots, big tool results; the
folder's README says what each holds). :data:`STEMS` names the pair and shape of each stem;
:func:`sessions` reads every file of the given sizes. The bench's own sessions
(:mod:`bench.agent_workloads`) carry flat tool arguments, which is why these are counted
beside them: the cost of proving nested arguments exact never showed on those. The 50-step
sessions and the first-sight seeds are not in the repository (8.5 MB): the bench counts them when
``CHATCODEC_PERF_SESSIONS`` names the full folder (its provenance: the copy's ``PROVENANCE.md``).
"""

from __future__ import annotations

import gzip
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

IN_REPOSITORY = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "perf-sessions"
"""The repository's copy: the 10-step session of every stem, which the tests convert."""

FOLDER = Path(os.environ.get("CHATCODEC_PERF_SESSIONS") or IN_REPOSITORY)
"""Where the bench finds the sessions: the folder ``CHATCODEC_PERF_SESSIONS`` names (the full set,
with the 50-step sessions and ``first-sight/``), else the repository's copy."""

REAL = "perf session"
NULLS = "perf session, SDK-dump nulls"
SCREENSHOTS = "perf session, four 190 KB screenshots"

STEMS: dict[str, tuple[str, str, str]] = {
    "oc-anthropic-real": ("openai-chat", "anthropic", REAL),
    "oc-anthropic-nulls": ("openai-chat", "anthropic", NULLS),
    "an-oc-real": ("anthropic", "openai-chat", REAL),
    "oc-responses-real": ("openai-chat", "openai-responses", REAL),
    "resp-oc-real": ("openai-responses", "openai-chat", REAL),
    "oc-bedrock-real": ("openai-chat", "bedrock-converse", REAL),
    "oc-gemini-real": ("openai-chat", "gemini", REAL),
    "oc-anthropic-imgs": ("openai-chat", "anthropic", SCREENSHOTS),
    "oc-responses-imgs": ("openai-chat", "openai-responses", SCREENSHOTS),
}
"""File stem -> (source, target, shape), in the order the issue's table gives them."""


@dataclass(frozen=True)
class Session:
    """One acceptance session: its pair, shape, size and body."""

    source: str
    target: str
    shape: str
    steps: int
    body: dict[str, Any]


def available(folder: Path = FOLDER) -> bool:
    """Whether the folder holds any session."""
    return folder.is_dir() and any(folder.glob("*.json.gz"))


def sessions(steps: tuple[int, ...] | list[int], folder: Path = FOLDER) -> list[Session]:
    """Every session of the given sizes, in :data:`STEMS` order; a missing file is skipped."""
    found: list[Session] = []
    for stem, (source, target, shape) in STEMS.items():
        for size in steps:
            path = folder / f"{stem}-{size}.json.gz"
            if path.is_file():
                with gzip.open(path, "rt", encoding="utf-8") as file:
                    found.append(Session(source, target, shape, size, json.load(file)))
    return found


FIRST_SIGHT = "first-sight"
"""The folder (inside :data:`FOLDER`) of the same sessions from other seeds, which a first sight
converts before the counted one (the folder's README, "First sight")."""
OTHER_SEEDS = (901, 902)


def others(session: Session, folder: Path = FOLDER) -> tuple[dict[str, Any], ...]:
    """The sessions of ``session``'s pair, shape and size from :data:`OTHER_SEEDS`, those found."""
    stem = next(stem for stem, named in STEMS.items() if named == (session.source, session.target, session.shape))
    found: list[dict[str, Any]] = []
    for seed in OTHER_SEEDS:
        path = folder / FIRST_SIGHT / f"{stem}-{session.steps}-seed{seed}.json.gz"
        if path.is_file():
            with gzip.open(path, "rt", encoding="utf-8") as file:
                found.append(json.load(file))
    return tuple(found)
