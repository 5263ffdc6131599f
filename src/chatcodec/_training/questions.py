"""Whether a user message is a question to the templates that show reasoning only after the
last question (stock Qwen3, Qwen3.5/3.6, GLM-4.5): the rule the segment reads
(:mod:`.segment_ends`) and the gateway's window (:mod:`.prompt_window`) both stand on.

Those templates find the last question by scanning back for a user message, and Qwen3's and
Qwen3.5's skip one whose text is wrapped in ``<tool_response>`` (a tool result the caller sent
as a user turn). Where a message might be such a one, where the last question stands is not
known without the template, so the fast paths answer no and the whole conversation is rendered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._narrow import as_dict, as_list

_MEDIA = frozenset({"image", "image_url", "video"})
"""Part types a template writes as its vision markers (``<|vision_start|>``), never as a tag
that wraps a tool result."""


def is_question(message: Mapping[str, Any]) -> bool:
    """Whether a user message counts as a question to every such template: its written text
    cannot open with a tag (a text that opens with ``<`` might be a wrapped tool result). In
    parts (Qwen3.5's shape), the first part that writes anything decides: a media part opens
    with the template's vision marker, a text part by its own text."""
    content = message.get("content")
    if isinstance(content, str):
        return not content.lstrip().startswith("<")
    parts = as_list(content)
    if not parts:
        return False
    for part in parts:
        read = as_dict(part)
        if read is None:
            return False
        kind = read.get("type")
        if kind in _MEDIA:
            return True
        if kind != "text" or not isinstance(read.get("text"), str):
            return False
        text = str(read["text"]).lstrip()
        if text:
            return not text.startswith("<")
    return False
