"""Wire shapes of the OpenAI Responses API, keys spelled exactly as the API spells them.

They validate what comes *in*, once: strict types, unknown keys allowed and kept (the
decoder stores them in bags), and item or part kinds this codec does not map (built-in
tool calls, kinds added after this was written) routed to a catch-all shape that keeps
them whole. A message item may leave out ``"type": "message"`` (the SDK's
``EasyInputMessageParam``), so items are told apart by ``type`` and, without one, by
``role``. Shapes follow ``openai.types.responses`` (``ResponseInputItemParam``,
``ResponseOutputItem``, ``Response``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import Discriminator, Tag, TypeAdapter
from typing_extensions import TypedDict

from chatcodec._base import deferred_adapter
from chatcodec._narrow import as_dict
from chatcodec.canonical_validation import validate_with
from chatcodec.providers.kit import tagged, wire_shape

Number = int | float
"""JSON numbers: ``int`` first so ``1`` stays ``1``."""

# --- content parts -------------------------------------------------------------------


@wire_shape
class InputText(TypedDict):
    type: Literal["input_text"]
    text: str


@wire_shape
class InputImage(TypedDict):
    type: Literal["input_image"]
    image_url: NotRequired[str | None]
    file_id: NotRequired[str | None]
    detail: NotRequired[str | None]


@wire_shape
class InputFile(TypedDict):
    type: Literal["input_file"]
    file_id: NotRequired[str | None]
    file_url: NotRequired[str | None]
    file_data: NotRequired[str | None]
    filename: NotRequired[str | None]


@wire_shape
class AudioData(TypedDict):
    data: str
    format: str


@wire_shape
class InputAudio(TypedDict):
    type: Literal["input_audio"]
    input_audio: AudioData


@wire_shape
class OutputText(TypedDict):
    type: Literal["output_text"]
    text: str
    annotations: NotRequired[list[Any]]


@wire_shape
class Refusal(TypedDict):
    type: Literal["refusal"]
    refusal: str


@wire_shape
class UnknownPart(TypedDict):
    """A content kind this codec does not map; kept whole as an opaque part."""

    type: str


PART_KINDS = ("input_text", "input_image", "input_file", "input_audio", "output_text", "refusal")

Part = Annotated[
    Annotated[InputText, Tag("input_text")]
    | Annotated[InputImage, Tag("input_image")]
    | Annotated[InputFile, Tag("input_file")]
    | Annotated[InputAudio, Tag("input_audio")]
    | Annotated[OutputText, Tag("output_text")]
    | Annotated[Refusal, Tag("refusal")]
    | Annotated[UnknownPart, Tag("unknown")],
    tagged(PART_KINDS),
]

# --- items ---------------------------------------------------------------------------


@wire_shape
class Message(TypedDict):
    """A message item; ``type`` may be left out (``EasyInputMessageParam``)."""

    role: Literal["user", "assistant", "system", "developer"]
    content: str | list[Part]
    type: NotRequired[Literal["message"]]


@wire_shape
class Summary(TypedDict):
    type: str
    text: str


@wire_shape
class Reasoning(TypedDict):
    type: Literal["reasoning"]
    summary: list[Summary]
    content: NotRequired[list[Summary] | None]
    encrypted_content: NotRequired[str | None]
    id: NotRequired[str]


@wire_shape
class FunctionCall(TypedDict):
    type: Literal["function_call"]
    call_id: str
    name: str
    arguments: str


@wire_shape
class CustomToolCall(TypedDict):
    type: Literal["custom_tool_call"]
    call_id: str
    name: str
    input: str


@wire_shape
class CallOutput(TypedDict):
    """``function_call_output`` and ``custom_tool_call_output``."""

    type: Literal["function_call_output", "custom_tool_call_output"]
    call_id: str
    output: str | list[Part]
    name: NotRequired[str | None]


@wire_shape
class UnknownItem(TypedDict):
    """An item this codec keeps whole (built-in tool calls and their outputs, MCP items,
    ``item_reference``, kinds added later)."""

    type: str


ITEM_KINDS = ("message", "reasoning", "function_call", "custom_tool_call", "function_call_output")


def _item_tag(value: Any) -> str:
    fields = as_dict(value)
    if fields is None:
        return "unknown"
    kind = fields.get("type")
    if kind is None and "role" in fields:
        return "message"
    if kind == "custom_tool_call_output":
        return "function_call_output"
    return kind if isinstance(kind, str) and kind in ITEM_KINDS else "unknown"


Item = Annotated[
    Annotated[Message, Tag("message")]
    | Annotated[Reasoning, Tag("reasoning")]
    | Annotated[FunctionCall, Tag("function_call")]
    | Annotated[CustomToolCall, Tag("custom_tool_call")]
    | Annotated[CallOutput, Tag("function_call_output")]
    | Annotated[UnknownItem, Tag("unknown")],
    Discriminator(_item_tag),
]

# --- request -------------------------------------------------------------------------


@wire_shape
class Request(TypedDict):
    model: NotRequired[str | None]
    input: NotRequired[str | list[Item] | None]
    instructions: NotRequired[str | None]
    tools: NotRequired[list[dict[str, Any]] | None]
    tool_choice: NotRequired[str | dict[str, Any] | None]
    parallel_tool_calls: NotRequired[bool | None]
    max_output_tokens: NotRequired[int | None]
    temperature: NotRequired[Number | None]
    top_p: NotRequired[Number | None]
    metadata: NotRequired[dict[str, Any] | None]
    stream: NotRequired[bool | None]
    reasoning: NotRequired[dict[str, Any] | None]
    text: NotRequired[dict[str, Any] | None]
    include: NotRequired[list[str] | None]


# --- response ------------------------------------------------------------------------


@wire_shape
class IncompleteDetails(TypedDict):
    reason: NotRequired[str | None]


@wire_shape
class Response(TypedDict):
    id: NotRequired[str]
    created_at: NotRequired[Number]
    model: NotRequired[str]
    output: list[Item]
    status: NotRequired[str | None]
    incomplete_details: NotRequired[IncompleteDetails | None]
    usage: NotRequired[dict[str, Any] | None]


@wire_shape
class StreamEvent(TypedDict):
    """One stream event; the decoder reads its fields by ``type``."""

    type: str


REQUEST_ADAPTER: TypeAdapter[Request] = TypeAdapter(Request)
ITEMS_ADAPTER: TypeAdapter[list[Item]] = deferred_adapter(list[Item])
ITEM_ADAPTER: TypeAdapter[Item] = deferred_adapter(Item)
RESPONSE_ADAPTER: TypeAdapter[Response] = TypeAdapter(Response)
EVENT_ADAPTER: TypeAdapter[StreamEvent] = TypeAdapter(StreamEvent)


def validated(adapter: TypeAdapter[Any], payload: object, title: str) -> dict[str, Any]:
    """``payload`` checked by ``adapter`` (errors carry wire paths), as a plain dict."""
    checked = as_dict(validate_with(adapter, payload, title))
    assert checked is not None  # every adapter used with this validates a TypedDict
    return checked
