"""Bedrock Converse wire shapes, keys spelled as botocore's ``bedrock-runtime`` model spells them.

Converse blocks are *unions by member name* (``{"text": ...}``, ``{"toolUse": {...}}``),
not tagged by a ``type`` key, so a block is one ``TypedDict`` with every known member
optional: each member present is checked strictly, and the decoders treat a block with
no known member, or several, as one they keep whole (an opaque part). Every object allows
extra keys (AWS adds members often; the decoders keep them for the round trip). Binary
members (``bytes``, ``redactedContent``) are base64 text, as the REST API and the
fixtures carry them. Errors carry wire JSON paths (``$.messages[2].content[0]``).
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict

from chatcodec._base import deferred_adapter
from chatcodec._narrow import as_dict
from chatcodec.canonical_validation import validate_with
from chatcodec.providers.kit import wire_shape

Count = Annotated[int, Field(ge=0)]
"""A token count or block index: canonical refuses negative ones, so the wire does too."""


@wire_shape
class S3Location(TypedDict):
    uri: str
    bucketOwner: NotRequired[str]


@wire_shape
class MediaSource(TypedDict):
    """``ImageSource`` / ``VideoSource`` / ``DocumentSource``: one member of these."""

    bytes: NotRequired[str]
    s3Location: NotRequired[S3Location]
    text: NotRequired[str]
    content: NotRequired[list[dict[str, Any]]]


@wire_shape
class ImageBlock(TypedDict):
    format: str
    source: MediaSource


@wire_shape
class DocumentBlock(TypedDict):
    source: MediaSource
    name: NotRequired[str]
    format: NotRequired[str]
    context: NotRequired[str]
    citations: NotRequired[dict[str, Any]]


@wire_shape
class ToolUseBlock(TypedDict):
    toolUseId: str
    name: str
    input: Any
    type: NotRequired[str]


@wire_shape
class ToolResultContentBlock(TypedDict):
    """``ToolResultContentBlock``: ``text``, ``json``, ``image``, ``document``, ``video``, ..."""

    text: NotRequired[str]
    json: NotRequired[Any]
    image: NotRequired[ImageBlock]
    document: NotRequired[DocumentBlock]


@wire_shape
class ToolResultBlock(TypedDict):
    toolUseId: str
    content: list[ToolResultContentBlock]
    status: NotRequired[str]
    type: NotRequired[str]


@wire_shape
class ReasoningText(TypedDict):
    text: str
    signature: NotRequired[str]


@wire_shape
class ReasoningContent(TypedDict):
    reasoningText: NotRequired[ReasoningText]
    redactedContent: NotRequired[str]


@wire_shape
class CachePoint(TypedDict):
    type: str
    ttl: NotRequired[str]


@wire_shape
class ContentBlock(TypedDict):
    """``ContentBlock`` (and ``SystemContentBlock``, a subset): exactly one member is set."""

    text: NotRequired[str]
    image: NotRequired[ImageBlock]
    document: NotRequired[DocumentBlock]
    toolUse: NotRequired[ToolUseBlock]
    toolResult: NotRequired[ToolResultBlock]
    reasoningContent: NotRequired[ReasoningContent]
    cachePoint: NotRequired[CachePoint]


@wire_shape
class Message(TypedDict):
    role: str
    content: list[ContentBlock]


@wire_shape
class InferenceConfig(TypedDict):
    maxTokens: NotRequired[int]
    temperature: NotRequired[int | float]  # int first: 2**53 + 1 stays exact (issue 10 item 22)
    topP: NotRequired[int | float]
    stopSequences: NotRequired[list[str]]


@wire_shape
class ToolSpec(TypedDict):
    name: str
    inputSchema: dict[str, Any]
    description: NotRequired[str]
    strict: NotRequired[bool]


@wire_shape
class Tool(TypedDict):
    """``Tool``: ``toolSpec``, ``systemTool`` or ``cachePoint``."""

    toolSpec: NotRequired[ToolSpec]
    cachePoint: NotRequired[CachePoint]


@wire_shape
class ToolConfig(TypedDict):
    tools: list[Tool]
    toolChoice: NotRequired[dict[str, Any]]


@wire_shape
class Request(TypedDict):
    """The ``Converse`` / ``ConverseStream`` input: the REST body, plus ``modelId`` as
    boto3 takes it (the REST API puts it in the URL)."""

    messages: NotRequired[list[Message]]
    modelId: NotRequired[str]
    system: NotRequired[list[ContentBlock]]
    inferenceConfig: NotRequired[InferenceConfig]
    toolConfig: NotRequired[ToolConfig]
    additionalModelRequestFields: NotRequired[dict[str, Any]]
    outputConfig: NotRequired[dict[str, Any]]


@wire_shape
class Usage(TypedDict):
    """``TokenUsage``. ``inputTokens`` excludes cache reads and writes; ``totalTokens``
    includes them (see ``usage.py``)."""

    inputTokens: NotRequired[Count]
    outputTokens: NotRequired[Count]
    totalTokens: NotRequired[Count]
    cacheReadInputTokens: NotRequired[Count]
    cacheWriteInputTokens: NotRequired[Count]


@wire_shape
class Output(TypedDict):
    message: Message


@wire_shape
class Response(TypedDict):
    """The ``Converse`` output."""

    output: Output
    stopReason: NotRequired[str]
    usage: NotRequired[Usage]


@wire_shape
class ErrorBody(TypedDict):
    """An error body: ``{"message": ...}`` (the type is in the ``x-amzn-errortype`` header)."""

    message: str


@wire_shape
class MessageStart(TypedDict):
    role: str


@wire_shape
class BlockStart(TypedDict):
    contentBlockIndex: Count
    start: dict[str, Any]


@wire_shape
class ToolUseDelta(TypedDict):
    input: str


@wire_shape
class ReasoningDelta(TypedDict):
    text: NotRequired[str]
    signature: NotRequired[str]
    redactedContent: NotRequired[str]


@wire_shape
class Delta(TypedDict):
    text: NotRequired[str]
    toolUse: NotRequired[ToolUseDelta]
    reasoningContent: NotRequired[ReasoningDelta]
    citation: NotRequired[dict[str, Any]]


@wire_shape
class BlockDelta(TypedDict):
    contentBlockIndex: Count
    delta: Delta


@wire_shape
class BlockStop(TypedDict):
    contentBlockIndex: Count


@wire_shape
class MessageStop(TypedDict):
    stopReason: str
    additionalModelResponseFields: NotRequired[Any]


@wire_shape
class Metadata(TypedDict):
    usage: NotRequired[Usage]


@wire_shape
class StreamException(TypedDict):
    message: NotRequired[str]


EVENT_ADAPTERS: dict[str, TypeAdapter[Any]] = {
    "messageStart": TypeAdapter(MessageStart),
    "contentBlockStart": TypeAdapter(BlockStart),
    "contentBlockDelta": TypeAdapter(BlockDelta),
    "contentBlockStop": TypeAdapter(BlockStop),
    "messageStop": TypeAdapter(MessageStop),
    "metadata": TypeAdapter(Metadata),
}
"""Each ``ConverseStreamOutput`` member's payload, by its event type."""

EXCEPTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(StreamException)
"""An exception event's payload (``throttlingException``, ``validationException`` ...)."""

REQUEST_ADAPTER: TypeAdapter[Any] = TypeAdapter(Request)
"""Validates a request body."""

MESSAGES_ADAPTER: TypeAdapter[list[Any]] = deferred_adapter(list[Message])
"""Validates a stored list of messages."""

RESPONSE_ADAPTER: TypeAdapter[Any] = TypeAdapter(Response)
"""Validates a response body."""

ERROR_ADAPTER: TypeAdapter[Any] = TypeAdapter(ErrorBody)
"""Validates an error body."""


def validated(adapter: TypeAdapter[Any], payload: object, title: str) -> dict[str, Any]:
    """``payload`` checked by ``adapter`` (errors carry wire paths), as a plain dict."""
    checked = as_dict(validate_with(adapter, payload, title))
    assert checked is not None  # every adapter here validates a TypedDict
    return checked
