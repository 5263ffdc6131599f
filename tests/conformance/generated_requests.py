"""Generated canonical requests for the readers' and writers' tests: as generated, and
bare (the shapes agent sessions are made of, the plain branches of every writer;
generated requests have them rarely)."""

from __future__ import annotations

from typing import Any, TypeVar

from hypothesis import strategies as st

import chatcodec
from chatcodec.testing import chat_requests

PartT = TypeVar("PartT", bound=chatcodec.ChatRequest | chatcodec.ToolDefinition | Any)


def _bare(part: PartT) -> PartT:
    return part.model_copy(update={"cache_control": None, "provider_metadata": None})


def _bare_message(message: chatcodec.AnyMessage) -> chatcodec.AnyMessage:
    content = message.content if isinstance(message.content, str) else [_bare(part) for part in message.content]
    update = {"cache_control": None, "provider_metadata": None, "name": None, "content": content}
    return message.model_copy(update=update)


def bare_request(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """The request with no cache marker, bag or name anywhere: the shapes agent sessions
    are made of, the writers' plain branches (generated requests have them rarely)."""
    update = {
        "messages": [_bare_message(message) for message in request.messages],
        "tools": [_bare(tool) for tool in request.tools],
        "provider_tools": [],
        "provider_options": None,
        "cache_control": None,
    }
    return request.model_copy(update=update)


REQUESTS = st.one_of(chat_requests(), chat_requests().map(bare_request))
"""Generated requests, half of them bare."""
