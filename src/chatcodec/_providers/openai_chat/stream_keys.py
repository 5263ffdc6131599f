"""The names both sides of an OpenAI Chat stream share, written out so the encoder imports
neither the decoder nor the wire's ``TypedDict`` s (a large part of a first stream
into OpenAI Chat, issue 60); ``tests/providers/openai_chat/test_streams.py`` holds
:data:`DELTA_KEYS` to the wire shape it stands for."""

from __future__ import annotations

CHUNK_OBJECT = "chat.completion.chunk"
"""The ``object`` of every stream chunk."""

DELTA_KEYS = ("role", "content", "refusal", "reasoning_content", "reasoning", "reasoning_details", "tool_calls")
"""The ``delta`` fields the decoder reads as content (the fields ``wire.Delta`` types but
``thinking_blocks``); any other is kept (the finish chunk's as the message's).
``thinking_blocks`` fragments are read into thinking parts too
(:meth:`~.stream_decode.StreamDecoder._blocks`) when the list is not empty; an empty list
says nothing and is kept as it came."""
