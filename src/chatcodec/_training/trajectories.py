"""Trajectory rows from any conversation: ``chatcodec convert --to trajectory --template NAME --tokenizer FILE``.

A trajectory row is an episode as data: the conversation in the template's shapes (the row
``--to hf-chat --template NAME`` writes) and its ``turns``, one per answer, as
``render_turns`` makes them (the prompt ids the sampler saw, the ids it sampled), each
numbered by the answer's place in the row's ``messages``. Unlike a rollout row, which holds
one rendering, it holds an episode whose template is not prefix-stable (stock Qwen3 at a new
question) whole, and the merge into trainer samples is left to ``trainer_samples``.

A row that already holds its turns (a trajectory converted to itself with ``--template``)
keeps them: they are the record of what the model saw, and their logprobs what the sampler
reported. The rendering checks them, and a row whose ids the template does not render is
refused at the first that differs, never rewritten.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from chatcodec import Loss, decode_request
from chatcodec._training import families
from chatcodec._training.episodes import AFTER_THE_LAST_ANSWER, render_turns
from chatcodec._training.errors import TemplateError
from chatcodec._training.rows import settings_losses, template_row
from chatcodec._training.shaping import Shaper
from chatcodec._training.template_limits import DEFAULT_LIMITS, TemplateLimits
from chatcodec.contract import LossRecorder

if TYPE_CHECKING:
    from chatcodec._api import SdkPayload


def trajectory_row(
    payload: Mapping[str, Any],
    source: str,
    template: str,
    tokenizer: object,
    *,
    own_turns: Sequence[Mapping[str, Any]] | None = None,
    limits: TemplateLimits = DEFAULT_LIMITS,
) -> tuple[dict[str, Any], list[Loss]]:
    """A trajectory row for the request ``payload`` (in ``source``'s format), its turns
    rendered through ``template`` with ``tokenizer`` (an object, or a ``tokenizer.json``
    path), and what the template could not show (at ``payload``'s paths). ``own_turns``: the
    turns the row held, kept where the rendering gives the same ids; ``limits`` bound each run
    of the template."""
    losses: list[Loss] = []
    turns = render_turns(
        cast("SdkPayload", payload),
        source=source,
        template=template,
        tokenizer=tokenizer,
        on_loss="ignore",
        losses=losses,
        template_limits=limits,
    )
    losses = [loss for loss in losses if loss.why != AFTER_THE_LAST_ANSWER]  # the row keeps every message
    request = decode_request(source, cast("SdkPayload", payload))
    row, _ = template_row(request, template, source=source, limits=limits)  # its drops: the turns' renderings'
    _, origins = Shaper(families.resolve(template, limits=limits).profile, LossRecorder()).messages(request.messages)
    rendered = [
        {
            "message_index": origins.index(turn.message_index),
            "prompt_ids": turn.prompt_ids,
            "completion_ids": turn.completion_ids,
            "logprobs": turn.logprobs,
        }
        for turn in turns
    ]
    if own_turns is not None:
        _check_turns(own_turns, rendered)
    losses += settings_losses(request, "trajectory rows")
    return {**row, "turns": list(own_turns) if own_turns is not None else rendered}, losses


def _check_turns(own: Sequence[Mapping[str, Any]], rendered: list[dict[str, Any]]) -> None:
    """Refuse a row whose turns the template does not render, at the first field that differs."""
    if len(own) != len(rendered):
        raise TemplateError(
            f"the row holds {len(own)} turns where its messages hold {len(rendered)} answers [rule: trajectory_turns]",
            path="$.turns",
        )
    for number, (mine, theirs) in enumerate(zip(own, rendered, strict=True)):
        for name in ("message_index", "prompt_ids", "completion_ids"):
            if mine.get(name) != theirs[name]:
                raise TemplateError(
                    f"the turn's {name} is not what the template renders for the row's messages: the turns are the "
                    "row's record of what the model saw, and are not replaced (convert without --template to keep "
                    "them, or fix the template or tokenizer) [rule: trajectory_turns]",
                    path=f"$.turns[{number}].{name}",
                )
