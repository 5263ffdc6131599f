"""What a conversion gives a caller, compared between a direct path and the canonical path.

A direct path must give what the canonical path gives (``docs/contributing.md``, Direct paths):
the same body, the same losses and the same warnings, under ``ignore`` and under ``warn``. The
direct-path tests compare :func:`outcome` of both, and first check that the pair's path really
took the body (:func:`equal_to_canonical`), so a body handed back to the canonical path cannot
pass as equal.
"""

from __future__ import annotations

import copy
import json
import warnings
from typing import Any, Literal

import chatcodec
from chatcodec._direct.table import canonical_only, direct_path
from chatcodec._losses import LossRecorder

OnLoss = Literal["ignore", "warn"]
ON_LOSSES: tuple[OnLoss, ...] = ("ignore", "warn")


def outcome(body: dict[str, Any], source: str, target: str, on_loss: OnLoss) -> str:
    """The output, losses and warnings of converting a copy of ``body``, as one text (an error
    is part of the outcome, whatever its type)."""
    losses: list[Any] = []
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        try:
            output = chatcodec.convert_request(
                copy.deepcopy(body), source=source, target=target, on_loss=on_loss, losses=losses
            )
        except Exception as error:  # an error is part of the outcome, whatever its type
            return f"ERR {type(error).__name__}: {error}"
    said = [(warning.category.__name__, str(warning.message)) for warning in shown]
    return json.dumps([output, [repr(loss) for loss in losses], said], default=repr)


def equal_to_canonical(body: dict[str, Any], source: str, target: str) -> None:
    """The pair's direct path takes ``body`` and gives the canonical path's outcome under each policy."""
    convert = direct_path(source, target)
    assert convert is not None
    assert convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec(target)) is not None  # taken
    for on_loss in ON_LOSSES:
        direct = outcome(body, source, target, on_loss)
        with canonical_only():
            canonical = outcome(body, source, target, on_loss)
        assert direct == canonical, on_loss
