"""A gateway's record store read as episodes: one per session, its turns beside the reward
and metadata its trainer recorded when the episode ended (``POST /v1/sessions/{id}/complete``)
and the session it was a subagent of.

Why beside :func:`chatcodec.read_records`, not in it: a trainer that computes rewards itself
wants the turns alone; one that lets its environment close each session over HTTP wants
the reward read with them. Both read the store once, by the same reading
(:func:`~chatcodec._training.records.recorded_sessions`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from chatcodec._losses import Loss, LossRecorder, OnLoss
from chatcodec._public_label import shown_as
from chatcodec._training.records import recorded_sessions
from chatcodec._training.turns import SampledTurn


@dataclass(frozen=True)
class RecordedEpisode:
    """One session of a gateway's record store (:func:`read_episodes`)."""

    session: str
    """The session its calls named (in the URL or a header)."""
    parent: str | None
    """The session it is a subagent of (``x-parent-session-id`` and the like), if one was named."""
    reward: float | None
    """The reward its trainer recorded at its end; None while it is open."""
    metadata: dict[str, Any] = field(default_factory=lambda: {})
    """What the trainer recorded beside the reward ({} while it is open)."""
    turns: list[SampledTurn] = field(default_factory=lambda: [])
    """Its complete turns in turn order, as :func:`~chatcodec.read_records` gives them
    (:func:`~chatcodec.trainer_samples` takes them)."""


def read_episodes(
    path: str | os.PathLike[str], *, on_loss: OnLoss = "warn", losses: list[Loss] | None = None
) -> list[RecordedEpisode]:
    """The episodes a gateway recorded in ``path`` (a file or a directory of shards), one per
    session, in the order each session was first seen: its turns, its parent, and the reward
    and metadata of its end (None and {} for a session not ended). Lines that are not read
    are losses as in :func:`~chatcodec.read_records`."""
    recorder = LossRecorder()
    found = recorded_sessions(path, recorder)
    recorder.settle(on_loss, losses, stacklevel=3)
    episodes: list[RecordedEpisode] = []
    for session in found.seen:
        end = found.ends.get(session)
        episodes.append(
            RecordedEpisode(
                session=session,
                parent=found.parents.get(session),
                reward=None if end is None else float(end["reward"]),
                metadata={} if end is None else dict(end["metadata"]),
                turns=found.turns.get(session, []),
            )
        )
    return episodes


shown_as("chatcodec", read_episodes, RecordedEpisode)
