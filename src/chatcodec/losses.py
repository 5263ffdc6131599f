"""What an encode could not carry into the target format, and what to do about it.

A conversion is exact or it says what it dropped or changed: codecs record a
:class:`Loss` for each thing the target cannot hold, and the caller's ``on_loss`` policy
decides whether that warns (the default), raises, or stays quiet. The list is always
available to the caller, whatever the policy.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from chatcodec.errors import ChatcodecError, json_path

Steps: TypeAlias = tuple[int | str, ...]
"""A path into the canonical input as steps: ``("messages", 2, "content", 0)``. Codecs
pass steps, so the text ``$.messages[2].content[0]`` is built only for a real loss."""

OnLoss = Literal["warn", "error", "ignore"]
"""Policy for losses: emit a :class:`LossWarning` each, raise :class:`LossError` with
all of them, or say nothing (they are still collected)."""


@dataclass(frozen=True, slots=True)
class Loss:
    """One thing the target format could not carry."""

    path: str
    """JSON path in the canonical input (``$.messages[3].content[1]``)."""
    what: str
    """What was dropped or changed (``thinking part``, ``cache_control``)."""
    why: str
    """Why the target cannot carry it."""

    def __str__(self) -> str:
        return f"{self.path}: {self.what} ({self.why})"


class LossWarning(UserWarning):
    """Warning category for losses under ``on_loss="warn"``; ``.loss`` holds the record."""

    def __init__(self, loss: Loss) -> None:
        super().__init__(str(loss))
        self.loss = loss
        """The loss warned about."""


class LossError(ChatcodecError, ValueError):
    """An encode could not carry everything and the caller asked for ``on_loss="error"``."""

    def __init__(self, losses: Sequence[Loss]) -> None:
        listed = "\n".join(f"  {loss}" for loss in losses)
        super().__init__(f"{len(losses)} thing(s) cannot be carried by the target format:\n{listed}")
        self.losses = list(losses)
        """Every loss found, not only the first."""


class LossRecorder:
    """Collects losses during one encode; codecs call :meth:`add`, the API calls :meth:`settle`.

    A loss is kept as its parts and becomes a :class:`Loss` (its path rendered) only when
    :attr:`losses` is read: a caller who ignores losses never pays for their text.
    """

    __slots__ = ("_pending", "_rendered")

    def __init__(self) -> None:
        self._pending: list[tuple[str | Steps, str, str]] = []
        self._rendered: list[Loss] = []

    @property
    def losses(self) -> list[Loss]:
        """Losses recorded so far, in the order found."""
        if self._pending:
            self._rendered.extend(
                Loss(path if isinstance(path, str) else json_path(path), what, why) for path, what, why in self._pending
            )
            self._pending.clear()
        return self._rendered

    def add(self, path: str | Steps, what: str, why: str) -> None:
        """Record that ``what`` at ``path`` (a JSON path, or its :data:`Steps`) cannot be
        carried, because ``why``."""
        self._pending.append((path, what, why))

    def settle(self, on_loss: OnLoss, sink: list[Loss] | None = None, stacklevel: int = 3) -> None:
        """Apply the caller's policy; ``sink`` receives every loss whatever the policy.

        ``stacklevel`` is counted from this method: the default points a warning at the
        code that called the public function that called :meth:`settle`.
        """
        if sink is None and (on_loss == "ignore" or not (self._pending or self._rendered)):
            return
        if sink is not None:
            sink.extend(self.losses)
        if not self.losses or on_loss == "ignore":
            return
        if on_loss == "error":
            raise LossError(self.losses)
        for loss in self.losses:
            warnings.warn(LossWarning(loss), stacklevel=stacklevel)
