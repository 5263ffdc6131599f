"""Wire shapes of Chat Completions responses and stream chunks (see ``wire.py`` for the rules).

A response's ``message`` is an assistant message as in a request; a chunk's ``delta`` is
the same fields arriving in pieces, tool calls as fragments keyed by ``index``.
"""

from __future__ import annotations

from typing import NotRequired

from pydantic import TypeAdapter
from typing_extensions import TypedDict

from chatcodec.providers.openai_chat.wire import (
    WireAssistantMessage,
    WireAssistantPart,
    WireReasoningDetail,
    wire_shape,
)

# --- response --------------------------------------------------------------------------


@wire_shape
class WirePromptTokensDetails(TypedDict):
    cached_tokens: NotRequired[int | None]
    cache_write_tokens: NotRequired[int | None]


@wire_shape
class WireCompletionTokensDetails(TypedDict):
    reasoning_tokens: NotRequired[int | None]


@wire_shape
class WireUsage(TypedDict):
    prompt_tokens: NotRequired[int | None]
    completion_tokens: NotRequired[int | None]
    total_tokens: NotRequired[int | None]
    prompt_tokens_details: NotRequired[WirePromptTokensDetails | None]
    completion_tokens_details: NotRequired[WireCompletionTokensDetails | None]


@wire_shape
class WireChoice(TypedDict):
    index: int
    message: WireAssistantMessage
    finish_reason: NotRequired[str | None]


@wire_shape
class WireResponse(TypedDict):
    id: NotRequired[str]
    object: NotRequired[str]
    created: NotRequired[int]
    model: NotRequired[str]
    choices: list[WireChoice]
    usage: NotRequired[WireUsage | None]


# --- stream ----------------------------------------------------------------------------


@wire_shape
class WireFunctionDelta(TypedDict):
    name: NotRequired[str | None]
    arguments: NotRequired[str | None]


@wire_shape
class WireToolCallDelta(TypedDict):
    index: int
    id: NotRequired[str | None]
    type: NotRequired[str | None]
    function: NotRequired[WireFunctionDelta | None]


@wire_shape
class WireDelta(TypedDict):
    role: NotRequired[str | None]
    content: NotRequired[str | list[WireAssistantPart] | None]  # a list: Mistral streams thinking parts
    refusal: NotRequired[str | None]
    reasoning_content: NotRequired[str | None]
    reasoning: NotRequired[str | None]
    reasoning_details: NotRequired[list[WireReasoningDetail] | None]
    tool_calls: NotRequired[list[WireToolCallDelta] | None]


@wire_shape
class WireChunkChoice(TypedDict):
    index: int
    delta: WireDelta
    finish_reason: NotRequired[str | None]


@wire_shape
class WireChunk(TypedDict):
    id: NotRequired[str]
    object: NotRequired[str]
    created: NotRequired[int]
    model: NotRequired[str]
    choices: list[WireChunkChoice]
    usage: NotRequired[WireUsage | None]


RESPONSE_ADAPTER: TypeAdapter[WireResponse] = TypeAdapter(WireResponse)
"""Validates a ``chat.completion`` response body."""

CHUNK_ADAPTER: TypeAdapter[WireChunk] = TypeAdapter(WireChunk)
"""Validates one ``chat.completion.chunk``."""
