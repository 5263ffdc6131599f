"""The one description of the Interactions wire: its shapes as ``TypedDict``s, keys spelled
as the API spells them (snake_case), and their validators.

The shapes follow google-genai 3.6.1's ``google.genai._gaos.types.interactions`` (the API's
own types, generated from its OpenAPI description) and the API reference
(https://ai.google.dev/api/interactions-api). A step or content kind this codec does not
read field by field (the built-in tools' call and result steps, a kind added after this
was written) goes to an ``Other...`` shape that keeps it whole, so a request naming it is
read, not refused. Every object is open to extra keys: the reader keeps them in bags.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired

from typing_extensions import TypedDict

from chatcodec import ValidationError as ChatcodecValidationError
from chatcodec.codec_kit import as_dict, constrained, stands_for, tagged, union_tag, wire_shape

if TYPE_CHECKING:
    from pydantic import TypeAdapter

Count = Annotated[int, constrained(ge=0)]
"""A token count: canonical usage refuses a negative one, so the wire does too."""


@stands_for("TextContent")
@wire_shape
class TextContent(TypedDict):
    type: Literal["text"]
    text: str


@stands_for("ImageContent", "AudioContent", "VideoContent", "DocumentContent")
@wire_shape
class MediaContent(TypedDict):
    """An image, audio, video or document: inline ``data`` (base64) or a ``uri``."""

    type: Literal["image", "audio", "video", "document"]
    data: NotRequired[str]
    uri: NotRequired[str]
    mime_type: NotRequired[str]


@stands_for()
@wire_shape
class OtherContent(TypedDict):
    """A content kind this codec does not read field by field (kept whole)."""

    type: str


CONTENT_TAGS = frozenset({"text", "image", "audio", "video", "document"})
"""The content kinds (``Content`` in the SDK's types)."""

Content = Annotated[
    Annotated[TextContent, union_tag("text")]
    | Annotated[MediaContent, union_tag("image")]
    | Annotated[MediaContent, union_tag("audio")]
    | Annotated[MediaContent, union_tag("video")]
    | Annotated[MediaContent, union_tag("document")]
    | Annotated[OtherContent, union_tag("other")],
    tagged(CONTENT_TAGS, fallback="other"),
]


@stands_for("UserInputStep")
@wire_shape
class UserInputStep(TypedDict):
    type: Literal["user_input"]
    content: NotRequired[list[Content]]


@stands_for("ModelOutputStep")
@wire_shape
class ModelOutputStep(TypedDict):
    type: Literal["model_output"]
    content: NotRequired[list[Content]]


@stands_for("ThoughtStep")
@wire_shape
class ThoughtStep(TypedDict):
    type: Literal["thought"]
    signature: NotRequired[str]
    summary: NotRequired[list[Content]]


@stands_for("FunctionCallStep")
@wire_shape
class FunctionCallStep(TypedDict):
    type: Literal["function_call"]
    id: str
    name: str
    arguments: dict[str, Any]


@stands_for("FunctionResultStep")
@wire_shape
class FunctionResultStep(TypedDict):
    type: Literal["function_result"]
    call_id: str
    result: str | list[Content] | dict[str, Any]
    is_error: NotRequired[bool]
    name: NotRequired[str]


@stands_for()
@wire_shape
class OtherStep(TypedDict):
    """A built-in tool's call or result step, or a kind added later (kept whole)."""

    type: str


STEP_TAGS = frozenset({"user_input", "model_output", "thought", "function_call", "function_result"})
"""The step kinds read field by field; every other (``google_search_call`` ...) is kept whole."""

Step = Annotated[
    Annotated[UserInputStep, union_tag("user_input")]
    | Annotated[ModelOutputStep, union_tag("model_output")]
    | Annotated[ThoughtStep, union_tag("thought")]
    | Annotated[FunctionCallStep, union_tag("function_call")]
    | Annotated[FunctionResultStep, union_tag("function_result")]
    | Annotated[OtherStep, union_tag("other")],
    tagged(STEP_TAGS, fallback="other"),
]


InputItem = Annotated[
    Annotated[UserInputStep, union_tag("user_input")]
    | Annotated[ModelOutputStep, union_tag("model_output")]
    | Annotated[ThoughtStep, union_tag("thought")]
    | Annotated[FunctionCallStep, union_tag("function_call")]
    | Annotated[FunctionResultStep, union_tag("function_result")]
    | Annotated[TextContent, union_tag("text")]
    | Annotated[MediaContent, union_tag("image")]
    | Annotated[MediaContent, union_tag("audio")]
    | Annotated[MediaContent, union_tag("video")]
    | Annotated[MediaContent, union_tag("document")]
    | Annotated[OtherStep, union_tag("other")],
    tagged(STEP_TAGS | CONTENT_TAGS, fallback="other"),
]
"""An entry of a request's ``input`` list: a step, or a content (a list of contents is one
user turn), each read by its ``type``."""


@stands_for("Function")
@wire_shape
class FunctionTool(TypedDict):
    type: Literal["function"]
    name: str
    description: NotRequired[str]
    parameters: NotRequired[dict[str, Any]]


@stands_for("AllowedTools")
@wire_shape
class AllowedTools(TypedDict):
    mode: NotRequired[str]
    tools: NotRequired[list[str]]


@stands_for("ToolChoiceConfig")
@wire_shape
class ToolChoiceConfig(TypedDict):
    allowed_tools: NotRequired[AllowedTools]


@stands_for("GenerationConfig")
@wire_shape
class GenerationConfig(TypedDict):
    temperature: NotRequired[int | float]
    top_p: NotRequired[int | float]
    seed: NotRequired[int]
    max_output_tokens: NotRequired[Annotated[int, constrained(ge=1)]]
    stop_sequences: NotRequired[list[str]]
    thinking_level: NotRequired[str]
    thinking_summaries: NotRequired[str]
    tool_choice: NotRequired[str | ToolChoiceConfig]


@stands_for("CreateModelInteractionParam")
@wire_shape
class Request(TypedDict):
    """A ``POST /v1beta/interactions`` body (a model interaction)."""

    model: NotRequired[str]
    system_instruction: NotRequired[str]
    input: NotRequired[str | list[InputItem] | Content]
    tools: NotRequired[list[dict[str, Any]]]
    generation_config: NotRequired[GenerationConfig]
    response_format: NotRequired[dict[str, Any] | list[dict[str, Any]]]
    response_mime_type: NotRequired[str]
    stream: NotRequired[bool]
    service_tier: NotRequired[str]


@stands_for("Usage")
@wire_shape
class Usage(TypedDict):
    total_input_tokens: NotRequired[Count]
    total_output_tokens: NotRequired[Count]
    total_cached_tokens: NotRequired[Count]
    total_thought_tokens: NotRequired[Count]


@stands_for("Interaction")
@wire_shape
class Interaction(TypedDict):
    """A response body: the ``Interaction`` resource."""

    id: NotRequired[str]
    model: NotRequired[str]
    status: str
    steps: NotRequired[list[Step]]
    usage: NotRequired[Usage]


@stands_for()
@wire_shape
class ErrorDetail(TypedDict):
    """Google's error object: ``google.rpc.Status`` (the SDK's ``Status``) and the ``status``
    name every Google API adds (https://google.aip.dev/193), as the ``gemini`` folder's."""

    message: str
    code: NotRequired[int | str]
    status: NotRequired[str]


@stands_for()
@wire_shape
class ErrorBody(TypedDict):
    """A failed request's body (Google's ``{"error": {"code", "message", "status"}}``)."""

    error: ErrorDetail


@stands_for("InteractionSseEventInteraction")
@wire_shape
class EventInteraction(TypedDict):
    id: NotRequired[str]
    status: NotRequired[str]
    model: NotRequired[str]
    usage: NotRequired[Usage]


@stands_for("InteractionCreatedEvent", "InteractionCompletedEvent")
@wire_shape
class LifecycleEvent(TypedDict):
    event_type: Literal["interaction.created", "interaction.completed"]
    interaction: EventInteraction


@stands_for("InteractionStatusUpdate")
@wire_shape
class StatusUpdateEvent(TypedDict):
    event_type: Literal["interaction.status_update"]
    status: str
    usage: NotRequired[Usage]


@stands_for("StepStart")
@wire_shape
class StepStartEvent(TypedDict):
    event_type: Literal["step.start"]
    index: Annotated[int, constrained(ge=0)]
    step: Step


@stands_for("TextDelta")
@wire_shape
class TextDelta(TypedDict):
    type: Literal["text"]
    text: str


@stands_for("ThoughtSummaryDelta")
@wire_shape
class ThoughtSummaryDelta(TypedDict):
    type: Literal["thought_summary"]
    content: NotRequired[Content]


@stands_for("ThoughtSignatureDelta")
@wire_shape
class ThoughtSignatureDelta(TypedDict):
    type: Literal["thought_signature"]
    signature: NotRequired[str]


@stands_for("ArgumentsDelta")
@wire_shape
class ArgumentsDelta(TypedDict):
    type: Literal["arguments_delta"]
    arguments: NotRequired[str]


@stands_for()
@wire_shape
class OtherDelta(TypedDict):
    """A media delta, a built-in tool's, or a kind added later (read as a content, or kept)."""

    type: str


DELTA_TAGS = frozenset({"text", "thought_summary", "thought_signature", "arguments_delta"})
"""The delta kinds read field by field."""

Delta = Annotated[
    Annotated[TextDelta, union_tag("text")]
    | Annotated[ThoughtSummaryDelta, union_tag("thought_summary")]
    | Annotated[ThoughtSignatureDelta, union_tag("thought_signature")]
    | Annotated[ArgumentsDelta, union_tag("arguments_delta")]
    | Annotated[OtherDelta, union_tag("other")],
    tagged(DELTA_TAGS, fallback="other"),
]


@stands_for("StepDelta")
@wire_shape
class StepDeltaEvent(TypedDict):
    event_type: Literal["step.delta"]
    index: Annotated[int, constrained(ge=0)]
    delta: Delta


@stands_for("StepStop")
@wire_shape
class StepStopEvent(TypedDict):
    event_type: Literal["step.stop"]
    index: Annotated[int, constrained(ge=0)]
    usage: NotRequired[Usage]


@stands_for("Error")
@wire_shape
class StreamError(TypedDict):
    message: NotRequired[str]
    code: NotRequired[str | int]


@stands_for("ErrorEvent")
@wire_shape
class ErrorEvent(TypedDict):
    event_type: Literal["error"]
    error: NotRequired[StreamError]


EVENT_SHAPES: dict[str, Any] = {
    "interaction.created": LifecycleEvent,
    "interaction.completed": LifecycleEvent,
    "interaction.status_update": StatusUpdateEvent,
    "step.start": StepStartEvent,
    "step.delta": StepDeltaEvent,
    "step.stop": StepStopEvent,
    "error": ErrorEvent,
}
"""Every SSE event of the steps schema (``InteractionSSEEvent``), by ``event_type``."""

_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}
"""Each shape's validator, built on first use."""


def validated(shape: Any, payload: object, title: str, at: tuple[str | int, ...] = ()) -> dict[str, Any]:
    """``payload`` checked as ``shape`` (errors name the payload's JSON paths and rules,
    as a :class:`~chatcodec.ValidationError`, under ``at`` for a piece of a larger input),
    as a plain dict."""
    from chatcodec.codec_kit import as_chatcodec_error, validate_with

    adapter = _ADAPTERS.get(shape)
    if adapter is None:
        from pydantic import TypeAdapter

        adapter = _ADAPTERS[shape] = TypeAdapter(shape)
    try:
        checked = as_dict(validate_with(adapter, payload, title))
    except ChatcodecValidationError as error:
        if not at:
            raise
        raise as_chatcodec_error(error, title, prefix=at) from None
    assert checked is not None  # every shape here is a TypedDict
    return checked


def is_error_body(payload: object) -> bool:
    """Whether ``payload`` is an error (``{"error": ...}``) rather than an Interaction."""
    body = as_dict(payload)
    return body is not None and "error" in body and "status" not in body
