"""The conventions' finish words (``FinishReason`` in ``gen-ai-output-messages.json``: stop,
length, content_filter, tool_call, error) <-> canonical finish reasons."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._frameworks.history import finish_reader
from chatcodec._frameworks.otel_genai.conversation import finish_word
from chatcodec.contract import EncodeContext, Steps

if TYPE_CHECKING:
    from chatcodec._model.response_fields import UnifiedFinishReason

WORDS: Mapping[str, UnifiedFinishReason] = {
    "stop": "stop",
    "length": "length",
    "content_filter": "content_filter",
    "tool_call": "tool_calls",
    "tool_calls": "tool_calls",
    "error": "error",
}
"""The conventions' words (and ``tool_calls``, which instrumentations copying OpenAI's word write)."""

decode_finish_reason = finish_reader(WORDS)
"""The canonical reason for a written word (None when the message kept none)."""


def encode_finish_reason(
    reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """The conventions' word for the unified reason; a raw word kept when it is one of theirs,
    or when no unified reason says more (``other``: a word of the emitter's own)."""
    del bag, context, at
    if reason is None:
        return None
    raw = reason.get("raw")
    if isinstance(raw, str) and (raw in _CONVENTIONS or reason["unified"] == "other"):
        return raw
    return finish_word(reason["unified"])


_CONVENTIONS = frozenset({"stop", "length", "content_filter", "tool_call", "error"})
