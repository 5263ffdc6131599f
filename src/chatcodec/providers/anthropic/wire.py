"""Anthropic Messages API wire shapes, keys spelled as the API spells them.

These TypedDicts check what the decoders read, nothing more: every object allows extra
keys (the API adds fields often, and the decoders keep them for the round trip), and
block unions fall back to :class:`OtherBlock` for block types added after this was
written, which decode to opaque parts. Validation is strict (no ``"1"`` -> ``1``
coercion), so once a payload validates the decoders can read the original dicts
without re-checking types; errors carry wire JSON paths (``$.messages[2].content[0]``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import Discriminator, Field, Tag, TypeAdapter
from typing_extensions import TypedDict

from chatcodec._base import deferred_adapter
from chatcodec._narrow import as_dict
from chatcodec.canonical_validation import validate_with
from chatcodec.providers.kit import tagged, wire_shape


@wire_shape
class CacheControl(TypedDict):
    """``{"type": "ephemeral", "ttl": "5m" | "1h"}``."""

    type: str
    ttl: NotRequired[str]


@wire_shape
class Source(TypedDict):
    """A media source; which keys it needs depends on ``type`` and is checked on mapping."""

    type: str
    media_type: NotRequired[str]
    data: NotRequired[str]
    url: NotRequired[str]
    file_id: NotRequired[str]


@wire_shape
class TextBlock(TypedDict):
    type: Literal["text"]
    text: str
    cache_control: NotRequired[CacheControl | None]
    citations: NotRequired[list[dict[str, Any]] | None]


@wire_shape
class ImageBlock(TypedDict):
    type: Literal["image"]
    source: Source
    cache_control: NotRequired[CacheControl | None]


@wire_shape
class DocumentBlock(TypedDict):
    type: Literal["document"]
    source: Source
    cache_control: NotRequired[CacheControl | None]
    title: NotRequired[str | None]


@wire_shape
class ThinkingBlock(TypedDict):
    type: Literal["thinking"]
    thinking: str
    signature: NotRequired[str]


@wire_shape
class RedactedThinkingBlock(TypedDict):
    type: Literal["redacted_thinking"]
    data: str


@wire_shape
class ToolUseBlock(TypedDict):
    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, Any]
    cache_control: NotRequired[CacheControl | None]


@wire_shape
class OtherBlock(TypedDict):
    """Any other block (server-tool calls and results, search results, future types)."""

    type: str


_BLOCK_TAGS = frozenset({"text", "image", "document", "thinking", "redacted_thinking", "tool_use", "tool_result"})

ToolResultContentBlock = Annotated[
    Annotated[TextBlock, Tag("text")]
    | Annotated[ImageBlock, Tag("image")]
    | Annotated[DocumentBlock, Tag("document")]
    | Annotated[ThinkingBlock, Tag("thinking")]
    | Annotated[RedactedThinkingBlock, Tag("redacted_thinking")]
    | Annotated[ToolUseBlock, Tag("tool_use")]
    | Annotated[OtherBlock, Tag("tool_result")]
    | Annotated[OtherBlock, Tag("other")],
    tagged(_BLOCK_TAGS, fallback="other"),
]
"""A block inside a ``tool_result``'s content list."""


@wire_shape
class ToolResultBlock(TypedDict):
    type: Literal["tool_result"]
    tool_use_id: str
    content: NotRequired[str | list[ToolResultContentBlock]]
    is_error: NotRequired[bool]
    cache_control: NotRequired[CacheControl | None]


ContentBlock = Annotated[
    Annotated[TextBlock, Tag("text")]
    | Annotated[ImageBlock, Tag("image")]
    | Annotated[DocumentBlock, Tag("document")]
    | Annotated[ThinkingBlock, Tag("thinking")]
    | Annotated[RedactedThinkingBlock, Tag("redacted_thinking")]
    | Annotated[ToolUseBlock, Tag("tool_use")]
    | Annotated[ToolResultBlock, Tag("tool_result")]
    | Annotated[OtherBlock, Tag("other")],
    tagged(_BLOCK_TAGS, fallback="other"),
]
"""Any content block, in a request message or a response."""


@wire_shape
class Message(TypedDict):
    """One turn. ``system`` turns inside ``messages`` exist in the API since 2026
    (``SystemMessageParam`` in the SDK); some clients sent them earlier anyway."""

    role: Literal["user", "assistant", "system"]
    content: str | list[ContentBlock]


@wire_shape
class Tool(TypedDict):
    """A client tool (``input_schema``) or a server tool (``type`` like ``web_search_20250305``)."""

    name: str
    type: NotRequired[str | None]
    description: NotRequired[str]
    input_schema: NotRequired[dict[str, Any]]
    cache_control: NotRequired[CacheControl | None]
    strict: NotRequired[bool]


@wire_shape
class ToolChoice(TypedDict):
    type: Literal["auto", "any", "tool", "none"]
    name: NotRequired[str]
    disable_parallel_tool_use: NotRequired[bool]


@wire_shape
class Thinking(TypedDict):
    """``enabled`` (with ``budget_tokens``), ``adaptive``, ``disabled``, or a newer type."""

    type: str
    budget_tokens: NotRequired[int]


@wire_shape
class OutputConfig(TypedDict):
    effort: NotRequired[str | None]
    format: NotRequired[dict[str, Any] | None]


@wire_shape
class Request(TypedDict):
    """The body of ``POST /v1/messages``."""

    messages: list[Message]
    model: NotRequired[str]
    max_tokens: NotRequired[int]
    system: NotRequired[str | list[ContentBlock]]
    tools: NotRequired[list[Tool]]
    tool_choice: NotRequired[ToolChoice]
    thinking: NotRequired[Thinking]
    output_config: NotRequired[OutputConfig]
    stop_sequences: NotRequired[list[str]]
    temperature: NotRequired[int | float]  # int first: 2**53 + 1 stays exact (issue 10 item 22)
    top_p: NotRequired[int | float]
    top_k: NotRequired[int]
    metadata: NotRequired[dict[str, Any]]
    stream: NotRequired[bool]
    cache_control: NotRequired[CacheControl | None]


BlockIndex = Annotated[int, Field(ge=0)]
"""A content block's ``index``: canonical stream events refuse negative ones, so the wire
does too (a negative one escaped as a bare pydantic error from a stream event)."""

Count = Annotated[int, Field(ge=0)]
"""A token count: the canonical ``Usage`` refuses negative counts, so the wire does too,
and the error names the wire path, not a canonical one the input does not have."""


@wire_shape
class OutputTokensDetails(TypedDict):
    thinking_tokens: NotRequired[Count | None]


@wire_shape
class Usage(TypedDict):
    """Token counts. ``input_tokens`` excludes cache reads and writes."""

    input_tokens: NotRequired[Count | None]
    output_tokens: NotRequired[Count | None]
    cache_creation_input_tokens: NotRequired[Count | None]
    cache_read_input_tokens: NotRequired[Count | None]
    output_tokens_details: NotRequired[OutputTokensDetails | None]


@wire_shape
class Response(TypedDict):
    """A ``Message`` object: the non-streamed response body."""

    content: list[ContentBlock]
    id: NotRequired[str | None]
    type: NotRequired[str]
    role: NotRequired[str]
    model: NotRequired[str | None]
    stop_reason: NotRequired[str | None]
    stop_sequence: NotRequired[str | None]
    usage: NotRequired[Usage | None]


@wire_shape
class ErrorObject(TypedDict):
    type: NotRequired[str]
    message: NotRequired[str]


@wire_shape
class ErrorBody(TypedDict):
    """``{"type": "error", "error": {"type": ..., "message": ...}}``, in a body or a stream."""

    type: Literal["error"]
    error: ErrorObject


@wire_shape
class MessageStart(TypedDict):
    type: Literal["message_start"]
    message: Response


@wire_shape
class BlockStart(TypedDict):
    type: Literal["content_block_start"]
    index: BlockIndex
    content_block: ContentBlock


@wire_shape
class Delta(TypedDict):
    """A block delta; which text field it carries depends on ``type``."""

    type: str
    text: NotRequired[str]
    partial_json: NotRequired[str]
    thinking: NotRequired[str]
    signature: NotRequired[str]
    citation: NotRequired[dict[str, Any]]


@wire_shape
class BlockDelta(TypedDict):
    type: Literal["content_block_delta"]
    index: BlockIndex
    delta: Delta


@wire_shape
class BlockStop(TypedDict):
    type: Literal["content_block_stop"]
    index: BlockIndex


@wire_shape
class MessageDeltaFields(TypedDict):
    stop_reason: NotRequired[str | None]
    stop_sequence: NotRequired[str | None]


@wire_shape
class MessageDelta(TypedDict):
    type: Literal["message_delta"]
    delta: MessageDeltaFields
    usage: NotRequired[Usage | None]


@wire_shape
class OtherEvent(TypedDict):
    """``message_stop``, ``ping`` and event types added later (ignored when decoding)."""

    type: str


def _event_tag(value: Any) -> str:
    fields = as_dict(value)
    kind = None if fields is None else fields.get("type")
    return kind if isinstance(kind, str) and kind in _EVENT_TAGS else "other"


_EVENT_TAGS = frozenset(
    {"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "error"}
)

StreamEvent = Annotated[
    Annotated[MessageStart, Tag("message_start")]
    | Annotated[BlockStart, Tag("content_block_start")]
    | Annotated[BlockDelta, Tag("content_block_delta")]
    | Annotated[BlockStop, Tag("content_block_stop")]
    | Annotated[MessageDelta, Tag("message_delta")]
    | Annotated[ErrorBody, Tag("error")]
    | Annotated[OtherEvent, Tag("other")],
    Discriminator(_event_tag),
]
"""One server-sent event's JSON."""

REQUEST_ADAPTER: TypeAdapter[Any] = TypeAdapter(Request)
"""Validates a request body."""


MESSAGES_ADAPTER: TypeAdapter[list[Any]] = deferred_adapter(list[Message])
"""Validates a stored list of messages (a conversation without the request around it)."""

RESPONSE_ADAPTER: TypeAdapter[Any] = TypeAdapter(Response)
"""Validates a response body."""

ERROR_ADAPTER: TypeAdapter[Any] = TypeAdapter(ErrorBody)
"""Validates an error body."""

STREAM_EVENT_ADAPTER: TypeAdapter[Any] = deferred_adapter(StreamEvent)
"""Validates one stream event."""


def validated(adapter: TypeAdapter[Any], payload: object, title: str) -> dict[str, Any]:
    """``payload`` checked by ``adapter`` (errors carry wire paths), as a plain dict."""
    checked = as_dict(validate_with(adapter, payload, title))
    assert checked is not None  # every adapter here validates a TypedDict
    return checked
