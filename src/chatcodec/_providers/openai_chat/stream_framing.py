"""How OpenAI Chat Completions frames a stream: SSE without event names, ended by ``data:
[DONE]`` (https://platform.openai.com/docs/api-reference/chat-streaming).

Its own module so a stream conversion reads it (:func:`~chatcodec._registry.get_framing`)
without importing ``edge.py``, which hands the same value to its ``Edge``.
"""

from __future__ import annotations

from chatcodec.contract import StreamFraming

FRAMING = StreamFraming("sse", done="[DONE]")
"""The stream framing of this provider's server."""
