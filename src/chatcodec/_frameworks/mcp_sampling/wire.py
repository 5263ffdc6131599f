"""The one description of the wire: the 2025-11-25 schema's sampling shapes as ``TypedDict``s,
keys spelled as the schema spells them (``mimeType``, ``toolUseId``, ``maxTokens``).

Every object is open to extra keys (``_meta``, ``annotations``, what a later revision adds):
the readers keep them in bags, so a same-codec round trip is exact. A reader checks a body
with the kit's ``validate_shape(Shape, payload, title)`` (each shape's validator built on first
use and kept)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from typing_extensions import TypedDict

from chatcodec.codec_kit import as_dict, constrained, tagged, union_tag, wire_shape

Unit = Annotated[int | float, constrained(ge=0, le=1)]
"""A priority or a weight: the schema's numbers between 0 and 1."""


@wire_shape
class TextBlock(TypedDict):
    type: Literal["text"]
    text: str


@wire_shape
class MediaBlock(TypedDict):
    """An image or audio block: base64 ``data`` and its ``mimeType``."""

    type: Literal["image", "audio"]
    data: str
    mimeType: Annotated[str, constrained(min_length=1)]


@wire_shape
class ToolUseBlock(TypedDict):
    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, Any]


@wire_shape
class OtherBlock(TypedDict):
    """A block a tool result's content may hold beyond text, image and audio
    (``resource_link``, ``resource``): kept whole."""

    type: str


ResultBlock = Annotated[
    Annotated[TextBlock, union_tag("text")]
    | Annotated[MediaBlock, union_tag("image")]
    | Annotated[MediaBlock, union_tag("audio")]
    | Annotated[OtherBlock, union_tag("other")],
    tagged(("text", "image", "audio"), fallback="other"),
]
"""A ``ContentBlock`` of a tool result's ``content``."""


@wire_shape
class ToolResultBlock(TypedDict):
    type: Literal["tool_result"]
    toolUseId: str
    content: NotRequired[list[ResultBlock]]
    """Required by the schema; the SDK's ``ToolResultContent`` defaults it to ``[]``, so a body
    its model wrote with ``exclude_unset`` has none: read as no content (the ``_no_content`` marker)."""
    structuredContent: NotRequired[dict[str, Any]]
    isError: NotRequired[bool]


Block = Annotated[
    Annotated[TextBlock, union_tag("text")]
    | Annotated[MediaBlock, union_tag("image")]
    | Annotated[MediaBlock, union_tag("audio")]
    | Annotated[ToolUseBlock, union_tag("tool_use")]
    | Annotated[ToolResultBlock, union_tag("tool_result")],
    tagged(("text", "image", "audio", "tool_use", "tool_result"), fallback="unknown"),
]
"""A ``SamplingMessageContentBlock`` (an unknown ``type`` is refused at its path)."""


@wire_shape
class Message(TypedDict):
    """A ``SamplingMessage``: one block, or a list of them."""

    role: Literal["user", "assistant"]
    content: Block | list[Block]


@wire_shape
class Tool(TypedDict):
    name: Annotated[str, constrained(min_length=1)]
    description: NotRequired[str]
    inputSchema: dict[str, Any]


@wire_shape
class ToolChoice(TypedDict):
    mode: NotRequired[Literal["auto", "none", "required"]]


@wire_shape
class ModelPreferences(TypedDict):
    costPriority: NotRequired[Unit]
    speedPriority: NotRequired[Unit]
    intelligencePriority: NotRequired[Unit]


@wire_shape
class Request(TypedDict):
    """``CreateMessageRequestParams``, in the schema's order."""

    messages: list[Message]
    modelPreferences: NotRequired[ModelPreferences]
    systemPrompt: NotRequired[str]
    includeContext: NotRequired[Literal["none", "thisServer", "allServers"]]
    temperature: NotRequired[int | float]
    maxTokens: Annotated[int, constrained(ge=1)]
    """The schema's integer; a sample of no tokens is none (the canonical ``max_tokens`` is
    positive), so a 0 is refused here, at its place in the body (found by the fuzz run)."""
    stopSequences: NotRequired[list[str]]
    metadata: NotRequired[dict[str, Any]]
    tools: NotRequired[list[Tool]]
    toolChoice: NotRequired[ToolChoice]


@wire_shape
class Response(TypedDict):
    """``CreateMessageResult``."""

    role: Literal["user", "assistant"]
    content: Block | list[Block]
    model: str
    stopReason: NotRequired[str]


@wire_shape
class ErrorBody(TypedDict):
    """A JSON-RPC error object, as a client answers a sampling request it refuses
    (``{"code": -1, "message": "User rejected sampling request"}``)."""

    code: int
    message: str


def is_error_body(payload: object) -> bool:
    """Whether ``payload`` is a JSON-RPC error object rather than a result."""
    body = as_dict(payload)
    return body is not None and "code" in body and "message" in body and "content" not in body
