"""How long one chat-template run may take and how much text it may make.

A chat template is code from a model hub, run on every conversation of a dataset. Jinja's
sandbox keeps it from Python's internals and caps ``range`` (``MAX_RANGE``, 100,000 items),
but not its time or its output: two nested loops run for hours, and a string doubled in a
loop fills memory, in ``transformers`` as here. So one run (one ``jinja.run``) carries a
:class:`TemplateLimits` budget, checked where a template spends: its output as it comes, its calls (a
``range`` of at most ``MAX_RANGE`` steps is one) and namespace assignments (the clock every few,
a long string or list passed or kept measured at each), and each ``*`` and ``**`` before it is
computed (a million copies are refused unmade).

The sandbox's hooks (``call``, a namespace's assignment) receive no render context, so the
running budget is found in a context variable set by :func:`running` for the one run; runs in
several threads or tasks keep apart.
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator, Sized
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final, cast

from chatcodec._public_label import shown_as
from chatcodec._training.errors import TemplateError


@dataclass(frozen=True, slots=True)
class TemplateLimits:
    """The bounds on one run of a chat template (``render(template_limits=...)``).

    A template that passes either is stopped with a :class:`~chatcodec.TemplateError`
    (rule ``template_time`` or ``template_output``). The defaults are far above any real
    template's needs (Qwen3's renders a long agent episode in milliseconds) and far below
    what stalls a dataset job.
    """

    seconds: float = 10.0
    """Wall-clock seconds one run may take."""
    output_chars: int = 32 * 2**20
    """Characters one run may write, and the longest string or list it may build on the way."""


DEFAULT_LIMITS: Final = TemplateLimits()

BOUND_RULES: Final = frozenset({"template_time", "template_output"})
"""The rules of a run stopped at its bounds: a caller that reads other failures as "this input
is not taken" (a profile's probes, a render's shorter runs) passes these on, so a template past
its bounds is stopped once, not run again on the next probe."""


class Budget:
    """One run's spending against its :class:`TemplateLimits`."""

    __slots__ = ("deadline", "limits")

    def __init__(self, limits: TemplateLimits) -> None:
        self.limits = limits
        self.deadline = time.monotonic() + limits.seconds

    def tick(self) -> None:
        """Stop the run once its time is spent."""
        if time.monotonic() > self.deadline:
            raise TemplateError(
                f"the chat template ran past its time limit ({self.limits.seconds:g} s for one run; "
                "TemplateLimits(seconds=...) sets it)",
                rule="template_time",
            )

    def sized(self, size: int, what: str = "built a value of") -> None:
        """Stop the run that made (or is about to make) ``size`` characters or items."""
        if size > self.limits.output_chars:
            raise TemplateError(
                f"the chat template {what} more than {self.limits.output_chars:,} characters in one run "
                "(TemplateLimits(output_chars=...) sets the bound)",
                rule="template_output",
            )

    def before_binop(self, operator: str, left: object, right: object) -> None:
        """Refuse a ``*`` or ``**`` whose result would pass the output bound, before it is made
        (a ``+`` or ``~`` at most doubles a value, which the next read of it measures)."""
        self.tick()
        if operator == "*":
            for value, count in ((left, right), (right, left)):
                if isinstance(value, str | list | tuple) and isinstance(count, int):
                    self.sized(len(cast("Sized", value)) * max(count, 0))
        elif operator == "**" and isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and right > 0:
            self.sized(math.ceil(right * math.log10(abs(left))), "built a number of")


_running: ContextVar[Budget | None] = ContextVar("chatcodec_template_budget", default=None)


def current() -> Budget | None:
    """The budget of the template run in progress in this thread or task, if any."""
    return _running.get()


@contextmanager
def running(limits: TemplateLimits) -> Generator[Budget]:
    """A fresh budget for one run, current until the run ends."""
    budget = Budget(limits)
    token = _running.set(budget)
    try:
        yield budget
    finally:
        _running.reset(token)


shown_as("chatcodec", TemplateLimits)
