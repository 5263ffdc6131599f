"""A stream written for a format whose answers carry no token log probabilities: the
``logprobs`` of text deltas and finish events are reported before the format's own encoder
sees them, once per answer (kit module).

The whole-answer side is :func:`chatcodec._providers.kit.logprob_settings.report_choice_logprobs`;
both are applied by :class:`~chatcodec._providers.contract.provider_codec.ProviderCodec` from
:attr:`Capabilities.logprobs <chatcodec._providers.contract.capabilities.Capabilities.logprobs>`,
so a stream encoder never has to remember them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from chatcodec._codec_protocols import RecordStreamEncoder
from chatcodec._losses import LossRecorder
from chatcodec._model.stream_records import AnyStreamRecord, FinishRecord, TextDeltaRecord
from chatcodec._providers.kit.logprob_settings import report_finish_logprobs


class WithoutLogprobs:
    """A stream encoder over a format's own, reporting an answer's token log probabilities
    once, at the place of the first event that carries some (``events[i]``, its index in
    the canonical stream: a text delta's, or the finish's when only it has them). A format
    of one answer reports another choice's events whole, so only the first choice's are
    reported there (``multiple_choices``). Every event goes through as it is."""

    __slots__ = ("_encoder", "_every_choice", "_losses", "_position", "_reported", "_target")
    stream_contract: ClassVar[int] = 2

    def __init__(
        self, encoder: RecordStreamEncoder, losses: LossRecorder, target: str, *, multiple_choices: bool
    ) -> None:
        self._encoder = encoder
        self._losses = losses
        self._target = target
        self._every_choice = multiple_choices
        self._position = -1
        self._reported: set[int] = set()  # the choices whose tokens were reported

    def feed(self, event: AnyStreamRecord) -> Iterable[dict[str, Any]]:
        """The wire events ``event`` completes (its logprobs, when it holds the answer's first, reported)."""
        self._position += 1
        if isinstance(event, TextDeltaRecord | FinishRecord):
            self._report(event)
        return self._encoder.feed(event)

    def _report(self, event: TextDeltaRecord | FinishRecord) -> None:
        choice = event.choice
        if event.logprobs and choice not in self._reported and (self._every_choice or choice == 0):
            self._reported.add(choice)
            report_finish_logprobs(event.logprobs, self._losses, ("events", self._position), self._target)

    def close(self) -> Iterable[dict[str, Any]]:
        """The closing wire events."""
        return self._encoder.close()
