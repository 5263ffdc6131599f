"""The finish word: LangChain keeps the provider's own word in ``response_metadata``
(``finish_reason`` for OpenAI models, ``stop_reason`` for Claude), which rides in the
message's bag; as a response's reason it is read from there."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._frameworks.history import finish_reader
from chatcodec.contract import EncodeContext, Steps

if TYPE_CHECKING:
    from chatcodec._model.response_fields import UnifiedFinishReason

WORDS: Mapping[str, UnifiedFinishReason] = {
    "stop": "stop",
    "end_turn": "stop",
    "stop_sequence": "stop",
    "STOP": "stop",
    "length": "length",
    "max_tokens": "length",
    "MAX_TOKENS": "length",
    "tool_calls": "tool_calls",
    "tool_use": "tool_calls",
    "content_filter": "content_filter",
    "refusal": "content_filter",
    "SAFETY": "content_filter",
}
"""The words the chat models LangChain wraps write, with their unified reason."""


decode_finish_reason = finish_reader(WORDS)
"""The canonical reason for a stored word (None when the answer kept none)."""


def encode_finish_reason(
    reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """The word kept in ``response_metadata.finish_reason``: the raw word, else the unified one."""
    del bag, context, at
    if reason is None:
        return None
    raw = reason.get("raw")
    return raw if isinstance(raw, str) else str(reason["unified"])
