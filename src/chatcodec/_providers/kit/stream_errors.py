"""A stream that ends at its error: what the stream encoders of formats with no event after
an error share.

In most formats a mid-stream error is the stream's last event (a chunk holding the error
body, an ``error`` event, an exception event, an error line); a client reads anything
after it (a finish, a usage chunk, a message start) as the answer going on. So an encoder
of such a format writes nothing after the error it wrote, and a source that says more
after its error (a terminal event carrying the failed answer, its finish and usage) has
that left out, reported here once. A format whose stream does go on after an error (to a
terminal failed event) keeps its own order and does not use this.
"""

from __future__ import annotations

from chatcodec._losses import LossRecorder


def report_after_error(losses: LossRecorder, owner: str) -> None:
    """The one loss for the events a stream encoder left out after the error it wrote."""
    losses.add(("events",), "events after the error", f"{owner} ends a stream at its error", "metadata")
