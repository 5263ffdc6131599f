"""The wire shapes every Bedrock Runtime block body shares, keys spelled as botocore's
``bedrock-runtime`` model spells them: content blocks (unions by member name) and their
media sources, tool uses and results, reasoning, cache points, messages, the tool
configuration, the error body, and the stream's block events (the Converse stream's and
InvokeModelWithResponseStream's chunks of the models that speak this wire, such as Nova).

Each shape names the botocore shapes it stands for (``stands_for``); every object allows
extra keys (AWS adds members often; the decoders keep them for the round trip).
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from annotated_types import Ge
from typing_extensions import TypedDict

from chatcodec._providers.kit import stands_for

Count = Annotated[int, Ge(0)]
"""A token count or block index: canonical refuses negative ones, so the wire does too."""


@stands_for("S3Location")
class S3Location(TypedDict):
    uri: str
    bucketOwner: NotRequired[str]


@stands_for("ImageSource", "DocumentSource", "VideoSource", "AudioSource")
class MediaSource(TypedDict):
    """``ImageSource`` / ``VideoSource`` / ``DocumentSource``: one member of these."""

    bytes: NotRequired[str]
    s3Location: NotRequired[S3Location]
    text: NotRequired[str]
    content: NotRequired[list[dict[str, Any]]]


@stands_for("ImageBlock")
class ImageBlock(TypedDict):
    format: str
    source: MediaSource


@stands_for("DocumentBlock")
class DocumentBlock(TypedDict):
    source: MediaSource
    name: NotRequired[str]
    format: NotRequired[str]
    context: NotRequired[str]
    citations: NotRequired[dict[str, Any]]


@stands_for("ToolUseBlock")
class ToolUseBlock(TypedDict):
    toolUseId: str
    name: str
    input: Any
    type: NotRequired[str]


@stands_for("ToolResultContentBlock")
class ToolResultContentBlock(TypedDict):
    """``ToolResultContentBlock``: ``text``, ``json``, ``image``, ``document``, ``video``, ..."""

    text: NotRequired[str]
    json: NotRequired[Any]
    image: NotRequired[ImageBlock]
    document: NotRequired[DocumentBlock]


@stands_for("ToolResultBlock")
class ToolResultBlock(TypedDict):
    toolUseId: str
    content: list[ToolResultContentBlock]
    status: NotRequired[str]
    type: NotRequired[str]


@stands_for("ReasoningTextBlock")
class ReasoningText(TypedDict):
    text: str
    signature: NotRequired[str]


@stands_for("ReasoningContentBlock")
class ReasoningContent(TypedDict):
    reasoningText: NotRequired[ReasoningText]
    redactedContent: NotRequired[str]


@stands_for("CachePointBlock")
class CachePoint(TypedDict):
    type: str
    ttl: NotRequired[str]


@stands_for("ContentBlock", "SystemContentBlock")
class ContentBlock(TypedDict):
    """``ContentBlock`` (and ``SystemContentBlock``, a subset): exactly one member is set."""

    text: NotRequired[str]
    image: NotRequired[ImageBlock]
    document: NotRequired[DocumentBlock]
    toolUse: NotRequired[ToolUseBlock]
    toolResult: NotRequired[ToolResultBlock]
    reasoningContent: NotRequired[ReasoningContent]
    cachePoint: NotRequired[CachePoint]


@stands_for("Message")
class Message(TypedDict):
    role: str
    content: list[ContentBlock]


@stands_for("ToolSpecification")
class ToolSpec(TypedDict):
    name: str
    inputSchema: dict[str, Any]
    description: NotRequired[str]
    strict: NotRequired[bool]


@stands_for("Tool")
class Tool(TypedDict):
    """``Tool``: ``toolSpec``, ``systemTool`` or ``cachePoint``."""

    toolSpec: NotRequired[ToolSpec]
    cachePoint: NotRequired[CachePoint]


@stands_for("ToolConfiguration")
class ToolConfig(TypedDict):
    tools: list[Tool]
    toolChoice: NotRequired[dict[str, Any]]


@stands_for(
    "InternalServerException",
    "ServiceUnavailableException",
    "ThrottlingException",
    "ValidationException",
    "ModelStreamErrorException",
)
class ErrorBody(TypedDict):
    """An error body: ``{"message": ...}`` (the type is in the ``x-amzn-errortype`` header)."""

    message: str


@stands_for("MessageStartEvent")
class MessageStart(TypedDict):
    role: str


@stands_for("ContentBlockStartEvent")
class BlockStart(TypedDict):
    contentBlockIndex: Count
    start: dict[str, Any]


@stands_for("ToolUseBlockDelta")
class ToolUseDelta(TypedDict):
    input: str


@stands_for("ReasoningContentBlockDelta")
class ReasoningDelta(TypedDict):
    text: NotRequired[str]
    signature: NotRequired[str]
    redactedContent: NotRequired[str]


@stands_for("ContentBlockDelta")
class Delta(TypedDict):
    text: NotRequired[str]
    toolUse: NotRequired[ToolUseDelta]
    reasoningContent: NotRequired[ReasoningDelta]
    citation: NotRequired[dict[str, Any]]


@stands_for("ContentBlockDeltaEvent")
class BlockDelta(TypedDict):
    contentBlockIndex: Count
    delta: Delta


@stands_for("ContentBlockStopEvent")
class BlockStop(TypedDict):
    contentBlockIndex: Count


@stands_for("MessageStopEvent")
class MessageStop(TypedDict):
    stopReason: str
    additionalModelResponseFields: NotRequired[Any]


@stands_for(
    "InternalServerException",
    "ServiceUnavailableException",
    "ThrottlingException",
    "ValidationException",
    "ModelStreamErrorException",
)
class StreamException(TypedDict):
    message: NotRequired[str]
