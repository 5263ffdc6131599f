"""How long one chat-template run may take and how much text it may make.

A chat template is code from a model hub, run on every conversation of a dataset. Jinja's
sandbox keeps it from Python's internals and caps ``range`` (``MAX_RANGE``, 100,000 items),
but not its time or its output: nested loops run for hours, and a string doubled in a loop, or
padded to a width, fills memory, in ``transformers`` as here. So one run (one ``jinja.run``)
carries a :class:`TemplateLimits` budget, a :class:`Budget` checked wherever a template spends
(:mod:`.template_sandbox` places the checks: every loop, call, operator and builder): the clock
read by :meth:`Budget.tick`, each value measured by :meth:`Budget.sized` before it is made.

The sandbox's hooks receive no render context, so the running budget is found in a context
variable set by :func:`running` for the one run; runs in several threads or tasks keep apart.
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sized
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final, TypeVar, cast

from chatcodec._public_label import shown_as
from chatcodec._training import template_sizes
from chatcodec._training.errors import TemplateError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class TemplateLimits:
    """The bounds on one run of a chat template (``render(template_limits=...)``).

    A template that passes either is stopped with a :class:`~chatcodec.TemplateError`
    (rule ``template_time`` or ``template_output``), before the value past the bound is made, so
    a run holds at most about 16 bytes per character of ``output_chars`` beyond its inputs
    (docs/training.md states the margin). The defaults are far above any real template's needs
    (Qwen3's renders a long agent episode in milliseconds) and far below what stalls a dataset job.
    """

    seconds: float = 10.0
    """Wall-clock seconds one run may take."""
    output_chars: int = 32 * 2**20
    """Characters one run may write (its macros' and blocks' collected output counted too), and
    the longest string, list or tuple, or the longest text of one, it may build on the way."""


DEFAULT_LIMITS: Final = TemplateLimits()

LOOP_STEPS_PER_CLOCK: Final = 64
"""Items of one ``for`` loop between clock readings."""

BOUND_RULES: Final = frozenset({"template_time", "template_output", "template_range", "template_depth"})
"""The rules of a run stopped at its bounds (its time, its output, the sandbox's range, the depth
Python can recurse or parse to): a caller that reads other failures as "this input is not taken"
(a profile's probes, a render's shorter runs) passes these on, so a template past its bounds is
stopped once, with the bound named, not run again on the next probe."""


class Budget:
    """One run's spending against its :class:`TemplateLimits`."""

    __slots__ = ("collected_chars", "deadline", "limits")

    def __init__(self, limits: TemplateLimits) -> None:
        self.limits = limits
        self.deadline = time.monotonic() + limits.seconds
        self.collected_chars = 0

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

    def collected(self, size: int) -> None:
        """Count ``size`` more characters collected by a macro, a call block or a block ``set``:
        all a run collects, at every level, is held to the output bound."""
        self.collected_chars += size
        if self.collected_chars > self.limits.output_chars:
            self.sized(self.collected_chars, "collected (in its macros and blocks)")

    def steps(self, iterable: Iterable[T]) -> Iterable[T]:
        """``iterable`` as one ``for`` loop of the run reads it: the clock read as the loop starts
        and every :data:`LOOP_STEPS_PER_CLOCK` items, so loops nested over small ranges are timed
        as surely as one long loop. A short list, string or range is handed back as it is."""
        self.tick()
        try:
            if len(cast("Sized", iterable)) <= LOOP_STEPS_PER_CLOCK:
                return iterable
        except TypeError:  # a generator, a map: counted as it goes
            pass
        return itertools.chain.from_iterable(self._chunks(iter(iterable)))

    def _chunks(self, items: Iterator[T]) -> Iterator[Iterable[T]]:
        for first in items:
            self.tick()
            yield itertools.chain((first,), itertools.islice(items, LOOP_STEPS_PER_CLOCK - 1))

    def before_binop(self, operator: str, left: object, right: object) -> None:
        """Refuse a ``*``, ``**`` or ``%`` whose result would pass the output bound, before
        it is made."""
        self.tick()
        if operator == "*":
            for value, count in ((left, right), (right, left)):
                if isinstance(value, str | list | tuple) and isinstance(count, int):
                    self.sized(len(cast("Sized", value)) * max(count, 0))
            if isinstance(left, int) and isinstance(right, int):
                self.digits((left.bit_length() + right.bit_length()) * 3 // 10)
        elif operator == "%":
            if isinstance(left, str):
                self.sized(template_sizes.percent_size(left, right, self.limits.output_chars), "formatted a text of")
        elif operator == "**" and isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and right > 0:
            self.digits(math.ceil(right * math.log10(abs(left))))

    def digits(self, count: int) -> None:
        """Refuse an integer of more digits than Python writes (``sys.get_int_max_str_digits()``,
        4,300 by default) or than the output bound: no template can show it, and one product of
        numbers of millions of digits takes minutes, past any clock reading."""
        shown = sys.get_int_max_str_digits() or self.limits.output_chars
        if count > min(shown, self.limits.output_chars):
            raise TemplateError(
                f"the chat template built a number of more than {min(shown, self.limits.output_chars):,} digits "
                "(Python writes no longer number; TemplateLimits(output_chars=...) bounds it too)",
                rule="template_output",
            )


_running: ContextVar[Budget | None] = ContextVar("chatcodec_template_budget", default=None)


current: Final[Callable[[], Budget | None]] = _running.get
"""The budget of the template run in progress in this thread or task, if any (the context
variable's own reader: the hooks ask at every call, loop and written value)."""


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
