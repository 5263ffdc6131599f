"""An episode's samples in one trainer's own shape: ``chatcodec.trainer_rows(samples, layout="skyrl")``.

``trainer_samples`` gives each trainer the same four lists (prompt ids, response ids, mask,
logprobs); what differs is the frame around them, and the frame is where recipes broke: SkyRL's
normal mode refuses a trajectory split into two samples (its step-wise mode takes them, with
``trajectory_ids`` and ``is_last_step``), verl takes one output per episode, verifiers' graph
wants a ``MessageNode`` per message. One module per trainer writes its frame
(:mod:`.layouts`), with the trainer's own field names, from the file and version it names; a
frame the episode cannot fill is refused with the reason, never filled by a guess.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any, Literal, cast, overload

from chatcodec import Loss, OnLoss, PayloadError
from chatcodec._public_label import shown_as
from chatcodec._training.layouts import episode as episodes
from chatcodec._training.layouts.table import LAYOUTS, rows_of
from chatcodec._training.samples import read_turn, trainer_samples
from chatcodec.contract import LossRecorder

DictLayout = Literal["skyrl", "verl", "art", "trl"]
"""The layouts whose rows are one dict (of lists, for a batch-shaped frame)."""
ListLayout = Literal["verifiers", "slime", "trl-sft"]
"""The layouts whose rows are a list of dicts."""


@overload
def trainer_rows(
    samples: Sequence[Any],
    *,
    layout: DictLayout,
    reward: float | None = None,
    options: Mapping[str, Any] | None = None,
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
) -> dict[str, Any]: ...


@overload
def trainer_rows(
    samples: Sequence[Any],
    *,
    layout: ListLayout,
    reward: float | None = None,
    options: Mapping[str, Any] | None = None,
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
) -> list[dict[str, Any]]: ...


@overload
def trainer_rows(
    samples: Sequence[Any],
    *,
    layout: str,
    reward: float | None = None,
    options: Mapping[str, Any] | None = None,
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
) -> dict[str, Any] | list[dict[str, Any]]: ...


def trainer_rows(
    samples: Sequence[Any],
    *,
    layout: str,
    reward: float | None = None,
    options: Mapping[str, Any] | None = None,
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
) -> dict[str, Any] | list[dict[str, Any]]:
    """One episode's ``samples`` (:func:`~chatcodec.trainer_samples`' dicts, or the turns
    themselves, which are merged by it first) as the trainer named by ``layout`` takes them:

    - ``"skyrl"``: a ``GeneratorOutput`` dict (SkyRL 0.4); with ``options={"step_wise": True,
      "trajectory_id": (instance, repetition)}`` a row per sample with ``trajectory_ids`` and
      ``is_last_step``, the only form that holds an episode split into several samples;
    - ``"verl"``: an ``AgentLoopOutput`` dict (verl 0.9), one per episode;
    - ``"verifiers"``: the ``MessageNode`` dicts of verifiers' message graph (verifiers 0.4), from
      the turns and the conversation they were rendered from (``options``: ``conversation``,
      ``template``, ``tokenizer``, and ``source``, ``tools``, ``template_variables`` as
      :func:`~chatcodec.render` takes them);
    - ``"art"``: an OpenPipe ART ``Trajectory`` dict (openpipe-art 0.5) of one Completions exchange
      per turn, from the turns (``options={"model": name}``);
    - ``"slime"``: ``Sample.to_dict()`` dicts (slime's ``Sample.from_dict`` reads them);
    - ``"trl"``: what a ``GRPOTrainer`` ``rollout_func`` returns; ``"trl-sft"``: pre-tokenized
      ``SFTTrainer`` rows.

    ``reward`` is the episode's, where the trainer holds one. ``on_loss`` and ``losses`` are
    ``trainer_samples``' where turns are merged here.
    """
    if layout not in LAYOUTS:
        near = difflib.get_close_matches(layout, LAYOUTS, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise PayloadError(f"unknown layout {layout!r}{hint}; the layouts: {', '.join(LAYOUTS)}", "$.layout")
    chosen = LAYOUTS[layout]
    given = dict(options or {})
    for name in given:
        if name not in chosen.options:
            takes = ", ".join(chosen.options) or "none"
            raise PayloadError(
                f"the {layout} layout takes no option {name!r} (its options: {takes})", f"$.options.{name}"
            )
    listed = episodes.listed(samples)
    turns = None
    if episodes.is_turn(listed[0]):
        turns = [read_turn(cast("Any", turn), number) for number, turn in enumerate(listed)]
        merged: list[Any] = trainer_samples(turns, on_loss=on_loss, losses=losses)
    elif chosen.needs_turns:
        raise PayloadError(
            f"the {layout} layout is written from the turns (each prompt's own ids), not merged samples: "
            "pass the turns",
            "$",
        )
    else:
        merged = list(listed)
    read = [episodes.sample(sample, number) for number, sample in enumerate(merged)]
    recorder = LossRecorder()
    episode = episodes.Episode(read, turns, episodes.reward(reward), given, layout, recorder)
    written: dict[str, Any] | list[dict[str, Any]] = rows_of(layout)(episode)
    recorder.settle(on_loss, losses, stacklevel=3)
    return written


shown_as("chatcodec", trainer_rows)
