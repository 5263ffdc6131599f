"""How an A2A agent frames a stream over HTTP: SSE, each ``StreamResponse`` (bare over HTTP+JSON,
a JSON-RPC response's ``result`` over JSON-RPC) the ``data`` of one unnamed event
(``specification.md`` 9.4.2, 11: ``text/event-stream``).

Its own module so a stream reads it without importing the rest of the format.
"""

from __future__ import annotations

from chatcodec.contract import StreamFraming

FRAMING = StreamFraming("sse")
"""The stream framing of an A2A agent."""
