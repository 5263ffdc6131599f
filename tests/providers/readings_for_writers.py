"""What the tests of a reading's markers for its own writer share: that a conversion writes
what the writer gives for the reading alone, losses too; and a count of the tool readings answered from memory
(``kit/remembered_tools.py``)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec._conversion import write_request_data
from chatcodec._losses import LossRecorder
from chatcodec._providers.kit import remembered_tools


def assert_written_as_marked(request: dict[str, Any], source: str, target: str, marked: dict[str, Any]) -> None:
    """``request`` converted from ``source`` to ``target`` gives what ``target``'s writer
    gives for ``marked`` (``request`` read with no record for a writer), with the same losses."""
    recorder = LossRecorder()
    expected = write_request_data(marked, target, recorder)
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(
        copy.deepcopy(request), source=source, target=target, on_loss="ignore", losses=losses
    )
    assert written == expected
    assert [(loss.path, loss.what) for loss in losses] == [(loss.path, loss.what) for loss in recorder.losses]


class AnswersFromMemory:
    """How many tool readings were answered from memory (``_rebuilt`` counted), the memory
    emptied first."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        rebuilt = remembered_tools._rebuilt  # pyright: ignore[reportPrivateUsage]

        def counted(*arguments: Any, **keywords: Any) -> Any:
            self.count += 1
            return rebuilt(*arguments, **keywords)

        monkeypatch.setattr(remembered_tools, "_rebuilt", counted)
        remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
