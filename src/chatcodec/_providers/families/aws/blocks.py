"""The wire shapes every Bedrock Runtime block body shares, keys spelled as botocore's
``bedrock-runtime`` model spells them: content blocks (unions by member name) and their
media sources, tool uses and results, reasoning, cache points, messages, the tool
configuration, the error body, and the stream's block events (the Converse stream's and
InvokeModelWithResponseStream's chunks of the models that speak this wire, such as Nova).

Each shape names the botocore shapes it stands for (``stands_for``); every object allows
extra keys (AWS adds members often; the decoders keep them for the round trip).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, NotRequired

from typing_extensions import TypedDict

from chatcodec.codec_kit import constrained, stands_for

if TYPE_CHECKING:  # the adapters are built on first use (they load pydantic)
    from pydantic import TypeAdapter

Count = Annotated[int, constrained(ge=0)]
"""A token count or block index: canonical refuses negative ones, so the wire does too."""


IMAGE_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}
"""botocore ``ImageFormat`` -> media type."""

VIDEO_TYPES = {
    "mkv": "video/x-matroska",
    "mov": "video/quicktime",
    "mp4": "video/mp4",
    "webm": "video/webm",
    "flv": "video/x-flv",
    "mpeg": "video/mpeg",
    "mpg": "video/mpeg",
    "wmv": "video/x-ms-wmv",
    "three_gp": "video/3gpp",
}
"""botocore ``VideoFormat`` -> media type (``mpg`` and ``mpeg`` share one)."""


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


@stands_for("VideoBlock")
class VideoBlock(TypedDict):
    format: str
    source: MediaSource


@stands_for("AudioBlock")
class AudioBlock(TypedDict):
    format: str
    source: MediaSource
    error: NotRequired[dict[str, Any]]


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
    video: NotRequired[VideoBlock]


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
    video: NotRequired[VideoBlock]
    audio: NotRequired[AudioBlock]
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


SHAPES: tuple[type, ...] = (
    S3Location, MediaSource, ImageBlock, DocumentBlock, ToolUseBlock, ToolResultContentBlock,
    ToolResultBlock, ReasoningText, ReasoningContent, CachePoint, ContentBlock, Message,
    ToolSpec, Tool, ToolConfig, ErrorBody, MessageStart, BlockStart, ToolUseDelta, ReasoningDelta,
    Delta, BlockDelta, BlockStop, MessageStop, StreamException,
)  # fmt: skip
"""Every shape above, given the kit's wire config when a body's adapters are built."""

EVENTS = ("messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata")
"""A stream's event members, in the order a stream holds them (``ConverseStreamOutput``'s
members; the JSON events inside InvokeModelWithResponseStream's chunks)."""


@dataclass(frozen=True, slots=True)
class Adapters:
    """One body's strict adapters of its wire shapes (errors with wire paths and rules)."""

    request: TypeAdapter[Any]
    """A request body."""
    messages: TypeAdapter[list[Any]]
    """A stored list of messages."""
    response: TypeAdapter[Any]
    """A response body."""
    error: TypeAdapter[Any]
    """An error body."""
    events: Mapping[str, TypeAdapter[Any]]
    """Each stream event's payload, by its member name (:data:`EVENTS`)."""
    exception: TypeAdapter[Any]
    """An exception event's payload (``throttlingException``, ``validationException`` ...)."""


def build_adapters(
    own_shapes: tuple[type, ...],
    *,
    request: type,
    response: type,
    error: type,
    metadata: type,
    messages: TypeAdapter[list[Any]],
) -> Adapters:
    """A body's adapters: the family's shapes and the body's own (``own_shapes``: its
    ``Request``, ``Response``, ``Usage``, stream ``metadata``...) given the kit's wire
    config, over the family's blocks and stream events. ``error`` is the body's error
    shape (both bodies answer the Runtime's :class:`ErrorBody`); ``messages`` its adapter
    of a stored message list (built as the body's reader wants it)."""
    from pydantic import TypeAdapter

    from chatcodec.codec_kit import wire_shape

    for shape in (*SHAPES, *own_shapes):
        wire_shape(shape)
    events = (MessageStart, BlockStart, BlockDelta, BlockStop, MessageStop, metadata)
    return Adapters(
        request=TypeAdapter(request),
        messages=messages,
        response=TypeAdapter(response),
        error=TypeAdapter(error),
        events={name: TypeAdapter(shape) for name, shape in zip(EVENTS, events, strict=True)},
        exception=TypeAdapter(StreamException),
    )


# --- cache points (a block of their own after what they mark) ---------------------------


def cache_marker(block: Mapping[str, Any]) -> dict[str, Any] | None:
    """The canonical marker for a ``cachePoint`` block (among content, system or tools),
    or None when the block is another one or says more than canonical can (another
    ``type``, extra keys)."""
    point: Any = block.get("cachePoint")
    if len(block) != 1 or point.__class__ is not dict or point.get("type") != "default":
        return None
    if not point.keys() <= {"type", "ttl"} or not isinstance(point.get("ttl", ""), str):
        return None
    return {"type": "ephemeral", "ttl": point["ttl"]} if "ttl" in point else {"type": "ephemeral"}


def cache_point(cache_control: Mapping[str, Any]) -> dict[str, Any]:
    """The ``cachePoint`` block for a canonical marker."""
    ttl = cache_control.get("ttl")
    return {"cachePoint": {"type": "default"} if ttl is None else {"type": "default", "ttl": ttl}}
