"""The one description of the wire: Cohere's Chat v2 shapes as ``TypedDict``s, keys spelled
as the API spells them (``tool_call_id``, ``tool_plan``, ``image_url``, ``finish_reason``).

Every object is open to extra keys (what a later version adds): the readers keep them in
bags, so a same-codec round trip is exact. A reader checks a body with the kit's
``validate_shape(Shape, payload, title)`` (each shape's validator built on first use and
kept). An unknown content ``type`` or message ``role`` is refused at its path."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from typing_extensions import TypedDict

from chatcodec.codec_kit import constrained, tagged, union_tag, wire_shape


@wire_shape
class TextBlock(TypedDict):
    type: Literal["text"]
    text: str


@wire_shape
class ImageUrl(TypedDict):
    url: Annotated[str, constrained(min_length=1)]
    detail: NotRequired[Literal["auto", "low", "high"]]


@wire_shape
class ImageBlock(TypedDict):
    """A user's image, by URL (a ``data:`` URL carries the bytes)."""

    type: Literal["image_url"]
    image_url: ImageUrl


@wire_shape
class ThinkingBlock(TypedDict):
    type: Literal["thinking"]
    thinking: str


@wire_shape
class Document(TypedDict):
    """A document's ``data`` (an object of fields; the guides also pass its JSON text) and ``id``."""

    data: dict[str, Any] | str
    id: NotRequired[str]


@wire_shape
class DocumentBlock(TypedDict):
    type: Literal["document"]
    document: Document


UserBlock = Annotated[
    Annotated[TextBlock, union_tag("text")] | Annotated[ImageBlock, union_tag("image_url")],
    tagged(("text", "image_url")),
]
AssistantBlock = Annotated[
    Annotated[TextBlock, union_tag("text")] | Annotated[ThinkingBlock, union_tag("thinking")],
    tagged(("text", "thinking")),
]
ToolBlock = Annotated[
    Annotated[TextBlock, union_tag("text")] | Annotated[DocumentBlock, union_tag("document")],
    tagged(("text", "document")),
]


@wire_shape
class CallFunction(TypedDict):
    name: str
    arguments: str
    """The arguments as JSON text, as the model wrote them."""


@wire_shape
class ToolCall(TypedDict):
    id: str
    type: Literal["function"]
    function: CallFunction


@wire_shape
class SystemMessage(TypedDict):
    role: Literal["system"]
    content: str | list[TextBlock]


@wire_shape
class UserMessage(TypedDict):
    role: Literal["user"]
    content: str | list[UserBlock]


@wire_shape
class AssistantMessage(TypedDict):
    role: Literal["assistant"]
    content: NotRequired[str | list[AssistantBlock]]
    tool_plan: NotRequired[str]
    tool_calls: NotRequired[list[ToolCall]]
    citations: NotRequired[list[dict[str, Any]]]


@wire_shape
class ToolMessage(TypedDict):
    role: Literal["tool"]
    tool_call_id: str
    content: str | list[ToolBlock]


Message = Annotated[
    Annotated[SystemMessage, union_tag("system")]
    | Annotated[UserMessage, union_tag("user")]
    | Annotated[AssistantMessage, union_tag("assistant")]
    | Annotated[ToolMessage, union_tag("tool")],
    tagged(("system", "user", "assistant", "tool"), key="role"),
]
"""A ``ChatMessageV2``, told apart by its ``role``."""


@wire_shape
class ToolFunction(TypedDict):
    name: Annotated[str, constrained(min_length=1)]
    description: NotRequired[str]
    parameters: dict[str, Any]


@wire_shape
class Tool(TypedDict):
    type: Literal["function"]
    function: ToolFunction


@wire_shape
class Request(TypedDict):
    """The ``POST /v2/chat`` body, in the reference's order (``model`` is required by the API,
    not by the reader: a stored conversation names none; the writer reports it missing)."""

    model: NotRequired[str]
    messages: list[Message]
    tools: NotRequired[list[Tool]]
    strict_tools: NotRequired[bool]
    documents: NotRequired[list[Any]]
    citation_options: NotRequired[dict[str, Any]]
    response_format: NotRequired[dict[str, Any]]
    safety_mode: NotRequired[str]
    max_tokens: NotRequired[int]
    stop_sequences: NotRequired[list[str]]
    temperature: NotRequired[int | float]
    seed: NotRequired[int]
    frequency_penalty: NotRequired[int | float]
    presence_penalty: NotRequired[int | float]
    k: NotRequired[int]
    p: NotRequired[int | float]
    logprobs: NotRequired[bool]
    tool_choice: NotRequired[Literal["REQUIRED", "NONE"]]
    thinking: NotRequired[dict[str, Any]]
    priority: NotRequired[int]
    stream: NotRequired[bool]


@wire_shape
class ResponseMessage(TypedDict):
    role: Literal["assistant"]
    content: NotRequired[list[AssistantBlock]]
    tool_plan: NotRequired[str]
    tool_calls: NotRequired[list[ToolCall]]
    citations: NotRequired[list[dict[str, Any]]]


Count = Annotated[int, constrained(ge=0)]
"""A token count (the SDK types it as a number; the API sends whole counts)."""


@wire_shape
class Tokens(TypedDict):
    input_tokens: NotRequired[Count]
    output_tokens: NotRequired[Count]


@wire_shape
class Usage(TypedDict):
    billed_units: NotRequired[dict[str, Any]]
    tokens: NotRequired[Tokens]
    cached_tokens: NotRequired[Count]


@wire_shape
class Response(TypedDict):
    """The ``V2ChatResponse``."""

    id: str
    finish_reason: str
    message: ResponseMessage
    usage: NotRequired[Usage]
    logprobs: NotRequired[list[dict[str, Any]]]


@wire_shape
class ErrorBody(TypedDict):
    """The body of a refused request: ``{"message": "..."}`` (the status says the kind)."""

    message: str
