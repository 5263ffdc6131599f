"""The finish word: pydantic-ai's ``finish_reason`` is OpenTelemetry's (``stop``, ``length``,
``content_filter``, ``tool_call``, ``error``); the provider's own word, when a model kept it,
is in ``provider_details`` and rides in the message's bag."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._frameworks.history import finish_reader
from chatcodec.contract import EncodeContext, Steps

if TYPE_CHECKING:
    from chatcodec._model.response_fields import UnifiedFinishReason

WORDS: Mapping[str, UnifiedFinishReason] = {
    "stop": "stop",
    "length": "length",
    "content_filter": "content_filter",
    "tool_call": "tool_calls",
    "error": "error",
}
"""pydantic-ai's words, with their unified reason."""

_WORD_OF: Mapping[str, str] = {"refusal": "content_filter", **{unified: word for word, unified in WORDS.items()}}


decode_finish_reason = finish_reader(WORDS)
"""The canonical reason for a stored word (None when the answer kept none)."""


def encode_finish_reason(
    reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """pydantic-ai's word for a reason; a reason it has no word for is a loss."""
    del bag
    if reason is None:
        return None
    raw = reason.get("raw")
    if isinstance(raw, str) and raw in WORDS:
        return raw
    word = _WORD_OF.get(str(reason["unified"]))
    if word is None:
        context.losses.add(at, f"finish reason {reason['unified']}", "pydantic-ai has no word for it")
    return word
