"""The trainers ``trainer_rows`` writes for: a name, the module that writes its rows, and the
options that layout takes (anything else is refused with the list, as a codec's options are)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chatcodec._training.layouts.episode import Episode


@dataclass(frozen=True, slots=True)
class Layout:
    module: str
    """The module whose ``rows(episode)`` writes the trainer's rows."""
    options: tuple[str, ...] = ()
    """The options it takes (``options={...}``)."""
    needs_turns: bool = False
    """Whether it reads the turns themselves, not only the samples they merge into."""


_RENDER_OPTIONS = ("conversation", "template", "tokenizer", "source", "tools", "template_variables")

LAYOUTS: dict[str, Layout] = {
    "skyrl": Layout("chatcodec._training.layouts.skyrl", ("step_wise", "trajectory_id", "stop_reasons")),
    "verl": Layout("chatcodec._training.layouts.verl", ("num_turns",)),
    "verifiers": Layout("chatcodec._training.layouts.verifiers", _RENDER_OPTIONS, needs_turns=True),
    "slime": Layout("chatcodec._training.layouts.slime", ("rollout_id", "group_index", "index")),
    "art": Layout("chatcodec._training.layouts.art", ("model",), needs_turns=True),
    "trl": Layout("chatcodec._training.layouts.trl"),
    "trl-sft": Layout("chatcodec._training.layouts.trl_sft"),
}
"""Each layout by the name ``trainer_rows(layout=...)`` takes."""


def rows_of(name: str) -> Callable[[Episode], Any]:
    """The ``rows`` function of layout ``name`` (imported on first use)."""
    writer: Callable[[Episode], Any] = importlib.import_module(LAYOUTS[name].module).rows
    return writer
