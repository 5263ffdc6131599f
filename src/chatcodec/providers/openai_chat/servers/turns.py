"""Where the current turn starts in a written body: what the servers' replay rules read.

Gemini checks signatures and DeepSeek needs reasoning only in the *current turn*: the
steps after the last user message (tool results are ``tool`` messages, not user turns).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from chatcodec._narrow import as_dict, as_list


def current_steps(body: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each assistant message holding tool calls after the last user message, with its index."""
    messages = [as_dict(message) or {} for message in as_list(body.get("messages")) or ()]
    start = max((index for index, message in enumerate(messages) if message.get("role") == "user"), default=-1)
    for index in range(start + 1, len(messages)):
        message = messages[index]
        if message.get("role") == "assistant" and as_list(message.get("tool_calls")):
            yield index, message
