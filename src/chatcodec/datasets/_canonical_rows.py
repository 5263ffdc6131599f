"""Converting canonical data read from the columnar form: the target's writer, no model.

A row of the columnar form is canonical data already, typed by its Arrow schema, so it
goes straight to the target codec's writer (:func:`chatcodec._conversion.write_request_data`),
as :func:`~chatcodec.convert_request` does after its reader: with ``source="canonical"``
it would validate it into a ``ChatRequest`` and dump it again first, which costs as much
as the writer (measured on the bench's agent session: ~260 us a row). A row that is not
canonical data (a file written by hand, with a role no message has) fails in the writer:
its error names the exception rather than a JSON path, which validating every row would
cost to give.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatcodec._codec_options import checked_options
from chatcodec._conversion import write_request_data
from chatcodec._errors import ChatcodecError
from chatcodec._losses import Loss, LossRecorder
from chatcodec._registry import get_codec
from chatcodec.batch._convert_records import ConvertOptions, Outcome


def convert_canonical(data: dict[str, Any], options: ConvertOptions) -> Outcome:
    """``data`` (a canonical request or response, as ``options.kind`` says) written in
    ``options.target``; never raises for bad data."""
    recorder = LossRecorder()
    settings = dict(options.encoder_options)
    try:
        if options.kind == "request":
            converted = write_request_data(data, options.target, recorder, settings, dict(options.extra_fields))
        else:
            converted = get_codec(options.target).write_response(
                data, recorder, options=checked_options(options.target, settings)
            )
    except ChatcodecError as error:
        return Outcome(None, str(error))
    except Exception as error:  # one bad row must not stop a whole dataset
        return Outcome(None, f"not canonical {options.kind} data: {type(error).__name__}: {error}")
    losses: list[Loss] = []
    recorder.settle("ignore", losses)
    return settled(converted, losses, options)


def settled(
    converted: dict[str, Any] | None, losses: Sequence[Loss], options: ConvertOptions, error: str | None = None
) -> Outcome:
    """The outcome of a conversion with ``losses``: under ``strict``, one with a loss of a
    kind it refuses is not converted (its losses become the error)."""
    refused = [loss for loss in losses if loss.kind in options.strict_kinds] if options.strict else []
    if refused and converted is not None:
        listed = "\n".join(f"  {loss}" for loss in refused)
        return Outcome(None, f"not converted under strict: {len(refused)} loss(es):\n{listed}", tuple(losses))
    return Outcome(converted, error, tuple(losses))
