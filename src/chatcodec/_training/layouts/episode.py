"""What a layout reads: an episode's trainer samples (checked at their path), its turns where it
was given as turns, its reward and the layout's options.

A caller hands ``trainer_rows`` either ``trainer_samples``' dicts or the turns themselves; both
are read here once, each value refused at its place (``$[1].response_mask[4]``), so a layout
module writes fields and never checks them. A layout that needs the turns (the verifiers graph:
a node per message needs each prompt's own ids) reads :attr:`Episode.turns`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from chatcodec import PayloadError
from chatcodec._training import turn_values
from chatcodec._training.errors import TemplateError
from chatcodec._training.turns import SampledTurn
from chatcodec.contract import LossRecorder


@dataclass(frozen=True, slots=True)
class Sample:
    """One trainer sample: a prompt, and the response after it with its mask and logprobs."""

    prompt_ids: list[int]
    response_ids: list[int]
    response_mask: list[int]
    """1 on a sampled token, 0 between turns."""
    response_logprobs: list[float] | None


@dataclass(frozen=True, slots=True)
class Episode:
    """One episode for a layout: its samples, its turns (where given), its reward and options."""

    samples: list[Sample]
    turns: list[SampledTurn] | None
    """The turns, where the episode was given as turns (None: as samples)."""
    reward: float | None
    options: Mapping[str, Any]
    layout: str
    recorder: LossRecorder
    """Where a layout records what the trainer's shape cannot hold."""

    def option(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)

    def refuse(self, message: str, path: str = "$", rule: str = "trainer_layout") -> TemplateError:
        """The error a layout raises where the episode does not fit the trainer's shape."""
        return TemplateError(f"{self.layout}: {message}", path=path, rule=rule)


def reward(given: object) -> float | None:
    """An episode's reward: a finite number, or None (not given)."""
    if given is None:
        return None
    if isinstance(given, bool) or not isinstance(given, int | float) or not math.isfinite(given):
        raise PayloadError(f"expected a finite number, not {given!r}", "$.reward")
    return float(given)


def sample(given: object, number: int) -> Sample:
    """A trainer sample mapping (``trainer_samples``' dict), its values checked at their path."""
    at = f"$[{number}]"
    if not isinstance(given, Mapping):
        raise PayloadError(f"expected a trainer sample (a mapping), not {type(given).__name__}", at)
    fields = cast("Mapping[str, Any]", given)
    for name in ("prompt_ids", "response_ids", "response_mask"):
        if name not in fields:
            raise PayloadError("a trainer sample holds prompt_ids, response_ids, response_mask", f"{at}.{name}")
    response = turn_values.token_ids(fields["response_ids"], f"{at}.response_ids")
    mask = turn_values.token_ids(fields["response_mask"], f"{at}.response_mask")
    for position, value in enumerate(mask):
        if value not in (0, 1):
            raise PayloadError(f"expected 0 or 1, not {value!r}", f"{at}.response_mask[{position}]")
    if len(mask) != len(response):
        raise PayloadError(f"expected one mask value per response id ({len(response)}), not {len(mask)}", at)
    logprobs = turn_values.logprobs(fields.get("response_logprobs"), f"{at}.response_logprobs")
    turn_values.one_per_completion_id(logprobs, response, f"{at}.response_logprobs")
    return Sample(turn_values.token_ids(fields["prompt_ids"], f"{at}.prompt_ids"), response, mask, logprobs)


def is_turn(given: object) -> bool:
    """Whether ``given`` is a turn (a :class:`SampledTurn` or a turn mapping) rather than a sample."""
    return isinstance(given, SampledTurn) or (isinstance(given, Mapping) and "completion_ids" in given)


def listed(given: object) -> Sequence[object]:
    """The episode as a list (a string or a mapping is no episode)."""
    if not isinstance(given, Sequence) or isinstance(given, str | bytes):
        raise PayloadError(f"expected an episode's samples or turns (a list), not {type(given).__name__}", "$")
    found = cast("Sequence[object]", given)
    if not found:
        raise PayloadError("an episode holds at least one sample or turn", "$")
    return found
