"""A response replayed as the canonical events a stream of it would give.

A codec's stream encoder is checked against its response encoder by replaying a response as
events (``events_from_response``), encoding them as the codec's stream and accumulating them
again: the laws do, and so can a codec's own tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from chatcodec._public_label import shown_as
from chatcodec.streams import _replay

if TYPE_CHECKING:
    from chatcodec import AnyStreamEvent, ChatResponse
    from chatcodec.testing._chunking import Splitter


def events_from_response(response: ChatResponse, split: Splitter = _replay.whole) -> Iterator[AnyStreamEvent]:
    """The canonical events of ``response`` as a stream would give them, each text cut by
    ``split`` (whole by default; :func:`chunkings` draws splitters)."""
    return _replay.events_from_response(response, split)


shown_as("chatcodec.testing", events_from_response)
