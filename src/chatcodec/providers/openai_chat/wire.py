"""Wire shapes of OpenAI Chat Completions, keys spelled exactly as the API spells them.

These TypedDicts validate what comes *in*: types are checked strictly (a number is not
text, ``"1"`` is not a number), unknown keys are allowed and kept (the decoder stores them
in ``provider_metadata`` so a same-provider round trip is exact), and part or tool types
this library does not know fall through to a catch-all shape that is kept whole, because
compatible servers add their own (Mistral ``thinking`` parts, custom tools).

Optional fields accept ``null`` as well: serializers commonly write ``"name": null``, and
the decoder keeps such nulls verbatim rather than rejecting the payload.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import Discriminator, Field, Tag, TypeAdapter
from typing_extensions import TypedDict

from chatcodec._base import deferred_adapter
from chatcodec._narrow import as_dict
from chatcodec.providers.kit import tagged, wire_shape

NonEmpty = Annotated[str, Field(min_length=1)]
"""Text the canonical model requires to be non-empty (URLs, file ids, tool names)."""

Number = int | float
"""JSON numbers: ``int`` first so ``1`` stays ``1`` and is not rewritten as ``1.0``."""

ROLES = ("system", "developer", "user", "assistant", "tool", "function")
"""Message roles this codec reads (``function``: the deprecated result of a ``function_call``)."""


# --- content parts -------------------------------------------------------------------


@wire_shape
class WireCacheBreakpoint(TypedDict):
    """``prompt_cache_breakpoint``: an explicit prompt-cache breakpoint after the part."""

    mode: str
    ttl: NotRequired[str]


@wire_shape
class WireTextPart(TypedDict):
    type: Literal["text"]
    text: str
    prompt_cache_breakpoint: NotRequired[WireCacheBreakpoint]


@wire_shape
class WireImageUrl(TypedDict):
    url: NonEmpty
    detail: NotRequired[str]


@wire_shape
class WireImagePart(TypedDict):
    """``image_url`` may be the URL itself: litellm types it ``Union[str,
    ChatCompletionImageUrlObject]`` (``litellm/types/llms/openai.py``), and callers of
    litellm and llama.cpp-style servers send it so (OpenAI itself takes the object only)."""

    type: Literal["image_url"]
    image_url: WireImageUrl | NonEmpty
    prompt_cache_breakpoint: NotRequired[WireCacheBreakpoint]


@wire_shape
class WireInputAudio(TypedDict):
    data: str
    format: str


@wire_shape
class WireAudioPart(TypedDict):
    type: Literal["input_audio"]
    input_audio: WireInputAudio
    prompt_cache_breakpoint: NotRequired[WireCacheBreakpoint]


@wire_shape
class WireFile(TypedDict):
    file_data: NotRequired[str]
    file_id: NotRequired[NonEmpty]
    filename: NotRequired[str]


@wire_shape
class WireFilePart(TypedDict):
    type: Literal["file"]
    file: WireFile
    prompt_cache_breakpoint: NotRequired[WireCacheBreakpoint]


@wire_shape
class WireRefusalPart(TypedDict):
    type: Literal["refusal"]
    refusal: str


@wire_shape
class WireThinkingPart(TypedDict):
    """Mistral's reasoning part inside ``content``: ``thinking`` is a list of text chunks."""

    type: Literal["thinking"]
    thinking: list[dict[str, Any]]


@wire_shape
class WireUnknownPart(TypedDict):
    """A part type this codec does not know; kept whole as an opaque part."""

    type: str


WireUserPart = Annotated[
    Annotated[WireTextPart, Tag("text")]
    | Annotated[WireImagePart, Tag("image_url")]
    | Annotated[WireAudioPart, Tag("input_audio")]
    | Annotated[WireFilePart, Tag("file")]
    | Annotated[WireUnknownPart, Tag("unknown")],
    tagged(("text", "image_url", "input_audio", "file")),
]

WireTextOnlyPart = WireUserPart
"""Parts of system, developer and tool messages. OpenAI documents text only there, but the
decoder reads every part by its ``type``, so a media part (an image a compatible server let
through) is validated as strictly as in a user message: a bad one is refused at its path,
never a ``KeyError`` from the decoder (issue 10, item 14)."""

WireAssistantPart = Annotated[
    Annotated[WireTextPart, Tag("text")]
    | Annotated[WireRefusalPart, Tag("refusal")]
    | Annotated[WireThinkingPart, Tag("thinking")]
    | Annotated[WireUnknownPart, Tag("unknown")],
    tagged(("text", "refusal", "thinking")),
]


# --- tool calls and reasoning ----------------------------------------------------------


@wire_shape
class WireFunctionCall(TypedDict):
    """A call's function; ``arguments`` is JSON text, or (litellm, some compatible
    servers) the JSON object itself."""

    name: str
    arguments: str | dict[str, Any]


@wire_shape
class WireToolCall(TypedDict):
    id: str
    type: NotRequired[Literal["function"]]
    function: WireFunctionCall


@wire_shape
class WireUnknownToolCall(TypedDict):
    """A custom-tool call (``type: custom``) or another kind: kept whole."""

    type: str


def _tool_call_tag(value: Any) -> str:
    if not isinstance(value, dict):
        return "function"
    # Compatible servers sometimes leave out "type".
    kind: object = value.get("type", "function")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    return "function" if kind == "function" else "unknown"


WireAnyToolCall = Annotated[
    Annotated[WireToolCall, Tag("function")] | Annotated[WireUnknownToolCall, Tag("unknown")],
    Discriminator(_tool_call_tag),
]


@wire_shape
class WireReasoningDetail(TypedDict):
    """One entry of OpenRouter's ``reasoning_details`` (``reasoning.text``, ``.summary``,
    ``.encrypted``); the same shape streams as fragments keyed by ``index``."""

    type: NotRequired[str | None]
    text: NotRequired[str | None]
    summary: NotRequired[str | None]
    data: NotRequired[str | None]
    signature: NotRequired[str | None]
    format: NotRequired[str | None]
    id: NotRequired[str | None]
    index: NotRequired[int]


# --- messages --------------------------------------------------------------------------


@wire_shape
class WireSystemMessage(TypedDict):
    role: Literal["system", "developer"]
    content: str | list[WireTextOnlyPart]
    name: NotRequired[str | None]


@wire_shape
class WireUserMessage(TypedDict):
    role: Literal["user"]
    content: str | list[WireUserPart]
    name: NotRequired[str | None]


@wire_shape
class WireAssistantMessage(TypedDict):
    role: Literal["assistant"]
    content: NotRequired[str | list[WireAssistantPart] | None]
    refusal: NotRequired[str | None]
    name: NotRequired[str | None]
    tool_calls: NotRequired[list[WireAnyToolCall] | None]
    function_call: NotRequired[WireFunctionCall | None]
    reasoning_content: NotRequired[str | None]
    reasoning: NotRequired[str | None]
    reasoning_details: NotRequired[list[WireReasoningDetail] | None]


@wire_shape
class WireToolMessage(TypedDict):
    role: Literal["tool"]
    tool_call_id: str
    content: str | list[WireTextOnlyPart]


@wire_shape
class WireFunctionMessage(TypedDict):
    """The deprecated ``function`` role: the result of an assistant's ``function_call``."""

    role: Literal["function"]
    name: str
    content: str | None


@wire_shape
class WireUnknownRoleMessage(TypedDict):
    """Catch-all so an unknown or missing role is reported at ``.role``."""

    role: Literal["system", "developer", "user", "assistant", "tool", "function"]


WireMessage = Annotated[
    Annotated[WireSystemMessage, Tag("system")]
    | Annotated[WireSystemMessage, Tag("developer")]
    | Annotated[WireUserMessage, Tag("user")]
    | Annotated[WireAssistantMessage, Tag("assistant")]
    | Annotated[WireToolMessage, Tag("tool")]
    | Annotated[WireFunctionMessage, Tag("function")]
    | Annotated[WireUnknownRoleMessage, Tag("unknown")],
    tagged(ROLES, key="role"),
]


# --- request ---------------------------------------------------------------------------


@wire_shape
class WireFunctionDefinition(TypedDict):
    name: NonEmpty
    description: NotRequired[str | None]
    parameters: NotRequired[dict[str, Any] | None]
    strict: NotRequired[bool | None]


@wire_shape
class WireFunctionTool(TypedDict):
    type: Literal["function"]
    function: WireFunctionDefinition


@wire_shape
class WireUnknownTool(TypedDict):
    """A custom tool (``type: custom``) or another kind: kept whole."""

    type: str


WireTool = Annotated[
    Annotated[WireFunctionTool, Tag("function")] | Annotated[WireUnknownTool, Tag("unknown")],
    tagged(("function",)),
]


@wire_shape
class WireNamedFunction(TypedDict):
    name: str


@wire_shape
class WireNamedToolChoice(TypedDict):
    type: Literal["function"]
    function: WireNamedFunction


@wire_shape
class WireOtherToolChoice(TypedDict):
    """``allowed_tools``, a named custom tool, or a future kind: kept as it is."""

    type: str


WireToolChoice = (
    Literal["none", "auto", "required"]
    | Annotated[
        Annotated[WireNamedToolChoice, Tag("function")] | Annotated[WireOtherToolChoice, Tag("unknown")],
        tagged(("function",)),
    ]
)


@wire_shape
class WireJsonSchema(TypedDict):
    name: str
    description: NotRequired[str | None]
    schema: NotRequired[dict[str, Any] | None]
    strict: NotRequired[bool | None]


@wire_shape
class WireJsonSchemaFormat(TypedDict):
    type: Literal["json_schema"]
    json_schema: WireJsonSchema


@wire_shape
class WireSimpleFormat(TypedDict):
    type: Literal["text", "json_object"]


@wire_shape
class WireOtherFormat(TypedDict):
    type: str


def _response_format_tag(value: Any) -> str:
    kind = (as_dict(value) or {}).get("type")
    if kind == "json_schema":
        return "json_schema"
    return "simple" if kind in ("text", "json_object") else "unknown"


WireResponseFormat = Annotated[
    Annotated[WireJsonSchemaFormat, Tag("json_schema")]
    | Annotated[WireSimpleFormat, Tag("simple")]
    | Annotated[WireOtherFormat, Tag("unknown")],
    Discriminator(_response_format_tag),
]


@wire_shape
class WireRequest(TypedDict):
    model: NotRequired[str]
    messages: list[WireMessage]
    tools: NotRequired[list[WireTool] | None]
    tool_choice: NotRequired[WireToolChoice | None]
    parallel_tool_calls: NotRequired[bool | None]
    max_tokens: NotRequired[int | None]
    max_completion_tokens: NotRequired[int | None]
    stop: NotRequired[str | list[str] | None]
    temperature: NotRequired[Number | None]
    top_p: NotRequired[Number | None]
    frequency_penalty: NotRequired[Number | None]
    presence_penalty: NotRequired[Number | None]
    seed: NotRequired[int | None]
    reasoning_effort: NotRequired[str | None]
    response_format: NotRequired[WireResponseFormat | None]
    stream: NotRequired[bool | None]
    metadata: NotRequired[dict[str, Any] | None]


REQUEST_ADAPTER: TypeAdapter[WireRequest] = TypeAdapter(WireRequest)
"""Validates a request body."""

MESSAGES_ADAPTER: TypeAdapter[list[WireMessage]] = deferred_adapter(list[WireMessage])
"""Validates a bare ``messages`` list (conversation logs without a request around them)."""


# --- response --------------------------------------------------------------------------

Count = Annotated[int, Field(ge=0)]
"""A token count: the canonical ``Usage`` refuses negative counts, so the wire does too,
and the error names the wire path, not a canonical one the input does not have."""

ChoiceIndex = Annotated[int, Field(ge=0)]
"""A choice's ``index``: canonical choices and stream events refuse negative ones, so the
wire does too (a negative one escaped as a bare pydantic error from a stream event)."""


@wire_shape
class WirePromptTokensDetails(TypedDict):
    cached_tokens: NotRequired[Count | None]
    cache_write_tokens: NotRequired[Count | None]


@wire_shape
class WireCompletionTokensDetails(TypedDict):
    reasoning_tokens: NotRequired[Count | None]


@wire_shape
class WireUsage(TypedDict):
    prompt_tokens: NotRequired[Count | None]
    completion_tokens: NotRequired[Count | None]
    total_tokens: NotRequired[int | None]
    prompt_tokens_details: NotRequired[WirePromptTokensDetails | None]
    completion_tokens_details: NotRequired[WireCompletionTokensDetails | None]


@wire_shape
class WireChoice(TypedDict):
    index: ChoiceIndex
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
    index: ChoiceIndex
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
