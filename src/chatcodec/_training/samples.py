"""Turns merged into the samples RL trainers train on: a prompt, a response and its mask.

verl's ``AgentLoopOutput`` (``prompt_ids``, ``response_ids``, ``response_mask``,
``response_logprobs``), TRL's GRPO ``rollout_func`` and SkyRL's generator output all train a
multi-turn episode as one sequence: the first prompt, then everything after it, with a mask
of 1 on what the model sampled and 0 on what lies between its turns (tool results, the next
generation prompt). That sequence exists only while each turn's prompt starts with the
previous prompt and completion, token for token; a template that renders earlier turns
otherwise once more follow (stock Qwen3 drops old reasoning at a new question) breaks it.
There a new sample starts, and a loss names the turn, rather than training tokens after a
prompt the model never saw.

The merge reads the records alone (no template, no tokenizer), so turns a gateway recorded
from a server merge by the same rule as turns ``render_turns`` made.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from chatcodec import Loss, OnLoss, PayloadError
from chatcodec._public_label import shown_as
from chatcodec._training import overlong as overlong_rule
from chatcodec._training import turn_values
from chatcodec._training.overlong import Overlong
from chatcodec._training.turns import SampledTurn
from chatcodec.contract import LossRecorder


def trainer_samples(
    turns: Sequence[SampledTurn | Mapping[str, Any]],
    *,
    overlong: Overlong = "keep",
    end_ids: Collection[int] | None = None,
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
) -> list[dict[str, Any]]:
    """``turns`` merged into trainer samples: dicts of ``prompt_ids``, ``response_ids``,
    ``response_mask`` (1 on a sampled token, 0 between turns) and ``response_logprobs`` (the
    sampler's, 0.0 between turns; ``None`` where a merged turn has none), and where the prompts
    hold images whose count is known (``SampledTurn.prompt_images``), ``image_grid_thw``: each
    image's ``[t, h, w]`` in order, as the model's processor gives it for ``pixel_values``.

    A turn joins the sample whose prompt and response its prompt starts with (the longest:
    a retry or a sibling of an earlier turn starts a sample of its own, one per branch); a
    turn with a ``prompt_break`` (an edited, cut or re-rendered answer before it) never joins
    one. A turn that starts a new sample after the first has a ``rule`` loss at its place in
    ``turns``, the caller's list (``$[2].prompt_ids``: a prompt not extending the turns before
    it; ``$[2].prompt_break``, ``$[2].parent_turn``: a break or a branch), as ``render_turns``
    names its losses in the caller's payload, never a canonical message index.
    A turn may be a :class:`~chatcodec.SampledTurn` or a trajectory row's turn mapping.

    With ``end_ids`` (the template's end-of-turn ids), a turn whose completion ends with none of
    them was cut, and ``overlong`` says what becomes of its sample: ``"keep"`` it, ``"mask"`` it
    (every mask value 0, as SkyRL's overlong filtering does) or ``"drop"`` it; each is a loss
    naming the answer.
    """
    recorder = LossRecorder()
    ends = overlong_rule.end_ids_of(overlong, end_ids)
    samples: list[dict[str, Any]] = []
    held: list[list[int]] = []  # each sample's prompt and response, which a later prompt must extend to join it
    cuts: list[int | None] = []  # each sample's first cut turn's message, if any
    for number, given in enumerate(turns):
        turn = read_turn(given, number)
        into = None if turn.prompt_break is not None else _joined(held, turn.prompt_ids)
        if into is None:
            if samples:
                recorder.add((number, _what_breaks(turn)), "trainer sample", _why_new(turn), "rule")
            samples.append(_started(turn))
            held.append([*turn.prompt_ids, *turn.completion_ids])
            cuts.append(None)
            into = len(samples) - 1
        else:
            _extend(samples[into], turn, turn.prompt_ids[len(held[into]) :])
            held[into] = [*turn.prompt_ids, *turn.completion_ids]
        if cuts[into] is None and overlong_rule.cut(turn, ends):
            cuts[into] = turn.message_index
    samples = overlong_rule.applied(samples, cuts, overlong, recorder)
    recorder.settle(on_loss, losses, stacklevel=3)
    return samples


def _joined(held: list[list[int]], prompt: list[int]) -> int | None:
    """The sample ``prompt`` extends (the longest, the latest of equals), or None."""
    best: int | None = None
    for index in range(len(held) - 1, -1, -1):
        size = len(held[index])
        if (best is None or size > len(held[best])) and prompt[:size] == held[index]:
            best = index
    return best


def _what_breaks(turn: SampledTurn) -> str:
    """The field of a turn that starts a new sample: its break, its branch, or its prompt."""
    if turn.prompt_break is not None:
        return "prompt_break"
    return "parent_turn" if turn.parent_turn is not None else "prompt_ids"


def _why_new(turn: SampledTurn) -> str:
    if turn.prompt_break is not None:
        return f"this turn's prompt is a fresh rendering ({turn.prompt_break}): it starts a new sample"
    if turn.parent_turn is not None:
        return (
            f"this turn branches from turn {turn.parent_turn!r} (a retry or a sibling): it starts a sample of its own"
        )
    return (
        "this turn's prompt does not start with the turns before it (the template renders them "
        "otherwise once it follows): it starts a new sample"
    )


_FIELDS = ("message_index", "prompt_ids", "completion_ids", "logprobs")


def read_turn(given: SampledTurn | Mapping[str, Any], number: int) -> SampledTurn:
    """A turn, or a trajectory row's turn (``{message_index, prompt_ids, completion_ids,
    logprobs}``) as one; anything else refused at its place."""
    if isinstance(given, SampledTurn):
        return given
    if not isinstance(given, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance] - a caller's data
        raise PayloadError(f"expected a SampledTurn or a turn mapping, not {type(given).__name__}", f"$[{number}]")
    for name in _FIELDS[:3]:
        if name not in given:
            raise PayloadError(f"a turn holds {', '.join(_FIELDS)}", f"$[{number}].{name}")
    completion_ids = turn_values.token_ids(given["completion_ids"], f"$[{number}].completion_ids")
    found = turn_values.logprobs(given.get("logprobs"), f"$[{number}].logprobs")
    return SampledTurn(
        message_index=turn_values.message_index(given["message_index"], f"$[{number}].message_index"),
        prompt_ids=turn_values.token_ids(given["prompt_ids"], f"$[{number}].prompt_ids"),
        completion_ids=completion_ids,
        logprobs=turn_values.one_per_completion_id(found, completion_ids, f"$[{number}].logprobs"),
        prompt_break=turn_values.text_or_none(given.get("prompt_break"), f"$[{number}].prompt_break"),
        parent_turn=turn_values.text_or_none(given.get("parent_turn"), f"$[{number}].parent_turn"),
    )


def _started(turn: SampledTurn) -> dict[str, Any]:
    sample: dict[str, Any] = {
        "prompt_ids": list(turn.prompt_ids),
        "response_ids": list(turn.completion_ids),
        "response_mask": [1] * len(turn.completion_ids),
        "response_logprobs": None if turn.logprobs is None else list(turn.logprobs),
    }
    _images(sample, turn)
    return sample


def _images(sample: dict[str, Any], turn: SampledTurn) -> None:
    """The grids of the images in ``turn``'s prompt, which holds every image of the sample so far
    (a turn joins a sample only where its prompt extends it)."""
    if turn.prompt_images:
        sample["image_grid_thw"] = [list(image.grid) for image in turn.prompt_images]


def _extend(sample: dict[str, Any], turn: SampledTurn, between: list[int]) -> None:
    """``sample`` with the tokens ``between`` (not sampled: mask 0) and ``turn``'s completion."""
    sample["response_ids"] += [*between, *turn.completion_ids]
    sample["response_mask"] += [0] * len(between) + [1] * len(turn.completion_ids)
    _images(sample, turn)
    logprobs = sample["response_logprobs"]
    if logprobs is None or turn.logprobs is None:
        sample["response_logprobs"] = None
    else:
        logprobs += [0.0] * len(between) + list(turn.logprobs)


shown_as("chatcodec", trainer_samples)
