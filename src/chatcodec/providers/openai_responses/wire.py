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
class WireInputText(TypedDict):
    type: Literal["input_text"]
    text: str


@wire_shape
class WireInputImage(TypedDict):
    type: Literal["input_image"]
    image_url: NotRequired[str | None]
    file_id: NotRequired[str | None]
    detail: NotRequired[str | None]


@wire_shape
class WireInputFile(TypedDict):
    type: Literal["input_file"]
    file_id: NotRequired[str | None]
    file_url: NotRequired[str | None]
    file_data: NotRequired[str | None]
    filename: NotRequired[str | None]


@wire_shape
class WireAudioData(TypedDict):
    data: str
    format: str


@wire_shape
class WireInputAudio(TypedDict):
    type: Literal["input_audio"]
    input_audio: WireAudioData


@wire_shape
class WireOutputText(TypedDict):
    type: Literal["output_text"]
    text: str
    annotations: NotRequired[list[Any]]


@wire_shape
class WireRefusal(TypedDict):
    type: Literal["refusal"]
    refusal: str


@wire_shape
class WireUnknownPart(TypedDict):
    """A content kind this codec does not map; kept whole as an opaque part."""

    type: str


PART_KINDS = ("input_text", "input_image", "input_file", "input_audio", "output_text", "refusal")

WirePart = Annotated[
    Annotated[WireInputText, Tag("input_text")]
    | Annotated[WireInputImage, Tag("input_image")]
    | Annotated[WireInputFile, Tag("input_file")]
    | Annotated[WireInputAudio, Tag("input_audio")]
    | Annotated[WireOutputText, Tag("output_text")]
    | Annotated[WireRefusal, Tag("refusal")]
    | Annotated[WireUnknownPart, Tag("unknown")],
    tagged(PART_KINDS),
]

# --- items ---------------------------------------------------------------------------


@wire_shape
class WireMessage(TypedDict):
    """A message item; ``type`` may be left out (``EasyInputMessageParam``)."""

    role: Literal["user", "assistant", "system", "developer"]
    content: str | list[WirePart]
    type: NotRequired[Literal["message"]]


@wire_shape
class WireSummary(TypedDict):
    type: str
    text: str


@wire_shape
class WireReasoning(TypedDict):
    type: Literal["reasoning"]
    summary: list[WireSummary]
    content: NotRequired[list[WireSummary] | None]
    encrypted_content: NotRequired[str | None]
    id: NotRequired[str]


@wire_shape
class WireFunctionCall(TypedDict):
    type: Literal["function_call"]
    call_id: str
    name: str
    arguments: str


@wire_shape
class WireCustomToolCall(TypedDict):
    type: Literal["custom_tool_call"]
    call_id: str
    name: str
    input: str


@wire_shape
class WireCallOutput(TypedDict):
    """``function_call_output`` and ``custom_tool_call_output``."""

    type: Literal["function_call_output", "custom_tool_call_output"]
    call_id: str
    output: str | list[WirePart]
    name: NotRequired[str | None]


@wire_shape
class WireUnknownItem(TypedDict):
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


WireItem = Annotated[
    Annotated[WireMessage, Tag("message")]
    | Annotated[WireReasoning, Tag("reasoning")]
    | Annotated[WireFunctionCall, Tag("function_call")]
    | Annotated[WireCustomToolCall, Tag("custom_tool_call")]
    | Annotated[WireCallOutput, Tag("function_call_output")]
    | Annotated[WireUnknownItem, Tag("unknown")],
    Discriminator(_item_tag),
]

# --- request -------------------------------------------------------------------------


@wire_shape
class WireRequest(TypedDict):
    model: NotRequired[str | None]
    input: NotRequired[str | list[WireItem] | None]
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
class WireIncompleteDetails(TypedDict):
    reason: NotRequired[str | None]


@wire_shape
class WireResponse(TypedDict):
    id: NotRequired[str]
    created_at: NotRequired[Number]
    model: NotRequired[str]
    output: list[WireItem]
    status: NotRequired[str | None]
    incomplete_details: NotRequired[WireIncompleteDetails | None]
    usage: NotRequired[dict[str, Any] | None]


@wire_shape
class WireStreamEvent(TypedDict):
    """One stream event; the decoder reads its fields by ``type``."""

    type: str


REQUEST_ADAPTER: TypeAdapter[WireRequest] = TypeAdapter(WireRequest)
ITEMS_ADAPTER: TypeAdapter[list[WireItem]] = deferred_adapter(list[WireItem])
ITEM_ADAPTER: TypeAdapter[WireItem] = deferred_adapter(WireItem)
RESPONSE_ADAPTER: TypeAdapter[WireResponse] = TypeAdapter(WireResponse)
EVENT_ADAPTER: TypeAdapter[WireStreamEvent] = TypeAdapter(WireStreamEvent)


def validated(adapter: TypeAdapter[Any], payload: object, title: str) -> dict[str, Any]:
    """``payload`` checked by ``adapter`` (errors carry wire paths), as a plain dict."""
    checked = as_dict(validate_with(adapter, payload, title))
    assert checked is not None  # every adapter used with this validates a TypedDict
    return checked
