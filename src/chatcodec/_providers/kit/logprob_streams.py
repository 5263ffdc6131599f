"""A stream written for a format whose answers carry no token log probabilities: a finish
event's ``logprobs`` are reported before the format's own encoder sees it (kit module).

The whole-answer side is :func:`chatcodec._providers.kit.logprob_settings.report_choice_logprobs`;
both are applied by :class:`~chatcodec._providers.contract.provider_codec.ProviderCodec` from
:attr:`Capabilities.logprobs <chatcodec._providers.contract.capabilities.Capabilities.logprobs>`,
so a stream encoder never has to remember them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chatcodec._losses import LossRecorder
from chatcodec._model.stream_events import AnyStreamEvent, FinishEvent
from chatcodec._providers.kit.logprob_settings import report_finish_logprobs
from chatcodec._registry import StreamEncoder


class WithoutLogprobs:
    """A stream encoder over a format's own, reporting each finish event's token log
    probabilities at the event's place (``events[i]``, its index in the canonical stream).
    A format of one answer reports another choice's events whole, so only the first
    choice's are reported there (``multiple_choices``). Every event goes through as it is."""

    __slots__ = ("_encoder", "_every_choice", "_losses", "_position", "_target")

    def __init__(self, encoder: StreamEncoder, losses: LossRecorder, target: str, *, multiple_choices: bool) -> None:
        self._encoder = encoder
        self._losses = losses
        self._target = target
        self._every_choice = multiple_choices
        self._position = -1

    def feed(self, event: AnyStreamEvent) -> Iterable[dict[str, Any]]:
        """The wire events ``event`` completes (its logprobs, when a finish holds some, reported)."""
        self._position += 1
        if type(event) is FinishEvent and event.logprobs and (self._every_choice or event.choice == 0):
            report_finish_logprobs(event.logprobs, self._losses, ("events", self._position), self._target)
        return self._encoder.feed(event)

    def close(self) -> Iterable[dict[str, Any]]:
        """The closing wire events."""
        return self._encoder.close()
