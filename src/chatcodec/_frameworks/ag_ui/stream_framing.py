"""How an AG-UI agent frames its event stream over HTTP: SSE, each event's JSON the ``data`` of
one unnamed event (``ag_ui.encoder.EventEncoder``: ``data: {...}\\n\\n``).

Its own module so a stream reads it without importing the rest of the format.
"""

from __future__ import annotations

from chatcodec.contract import StreamFraming

FRAMING = StreamFraming("sse")
"""The stream framing of an AG-UI endpoint."""
