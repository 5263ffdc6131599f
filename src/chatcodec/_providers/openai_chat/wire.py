"""Wire shapes of OpenAI Chat Completions, keys spelled exactly as the API spells them.

These TypedDicts validate what comes *in*: types are checked strictly (a number is not
text, ``"1"`` is not a number), unknown keys are allowed and kept (the decoder stores them
in ``provider_metadata`` so a same-provider round trip is exact), and part or tool types
this library does not know fall through to a catch-all shape that is kept whole, because
compatible servers add their own (Mistral ``thinking`` parts, custom tools).

Optional fields accept ``null`` as well: serializers commonly write ``"name": null``, and
the decoder keeps such nulls verbatim rather than rejecting the payload.

The shapes are data: their validators (pydantic, built on first need) are in
:mod:`.wire_validators`, and the closed pydantic-core schema of the common shapes that the
reader validates first in :mod:`.common_shapes`; importing this module loads neither.
"""

from typing import Annotated, Any, Literal, NotRequired

from typing_extensions import TypedDict

from chatcodec.codec_kit import (
    as_dict,
    constrained,
    is_dict,
    stands_for,
    tagged,
    union_discriminator,
    union_tag,
    wire_shape,
)

NonEmpty = Annotated[str, constrained(min_length=1)]
"""Text the canonical model requires to be non-empty (URLs, file ids, tool names)."""

Number = int | float
"""JSON numbers: ``int`` first so ``1`` stays ``1`` and is not rewritten as ``1.0``."""

ROLES = ("system", "developer", "user", "assistant", "tool", "function")
"""Message roles this codec reads (``function``: the deprecated result of a ``function_call``)."""


# --- content parts -------------------------------------------------------------------


@stands_for(
    "PromptCacheBreakpoint",
    "FilePromptCacheBreakpoint",
    "chat_completion_content_part_image_param.PromptCacheBreakpoint",
    "chat_completion_content_part_input_audio_param.PromptCacheBreakpoint",
)
@wire_shape
class CacheBreakpoint(TypedDict):
    """``prompt_cache_breakpoint``: an explicit prompt-cache breakpoint after the part."""

    mode: str
    ttl: NotRequired[str]


@stands_for("ChatCompletionContentPartTextParam")
@wire_shape
class TextPart(TypedDict):
    type: Literal["text"]
    text: str
    prompt_cache_breakpoint: NotRequired[CacheBreakpoint]


@stands_for("ImageURL")
@wire_shape
class ImageUrl(TypedDict):
    url: NonEmpty
    detail: NotRequired[str]


@stands_for("ChatCompletionContentPartImageParam")
@wire_shape
class ImagePart(TypedDict):
    """``image_url`` may be the URL itself: litellm types it ``Union[str,
    ChatCompletionImageUrlObject]`` (``litellm/types/llms/openai.py``), and callers of
    litellm and llama.cpp-style servers send it so (OpenAI itself takes the object only)."""

    type: Literal["image_url"]
    image_url: ImageUrl | NonEmpty
    prompt_cache_breakpoint: NotRequired[CacheBreakpoint]


@stands_for("InputAudio")
@wire_shape
class InputAudio(TypedDict):
    data: str
    format: str


@stands_for("ChatCompletionContentPartInputAudioParam")
@wire_shape
class AudioPart(TypedDict):
    type: Literal["input_audio"]
    input_audio: InputAudio
    prompt_cache_breakpoint: NotRequired[CacheBreakpoint]


@stands_for("FileFile")
@wire_shape
class File(TypedDict):
    file_data: NotRequired[str]
    file_id: NotRequired[NonEmpty]
    filename: NotRequired[str]


@stands_for("File", "DeepSeekFilePart")
@wire_shape
class FilePart(TypedDict):
    """OpenAI's ``file`` part, or DeepSeek's with the Files-API id at its top level
    (``{"type": "file", "file_id": ...}``, the DeepSeek server's extension)."""

    type: Literal["file"]
    file: NotRequired[File]
    file_id: NotRequired[NonEmpty]
    prompt_cache_breakpoint: NotRequired[CacheBreakpoint]


@stands_for("ChatCompletionContentPartRefusalParam")
@wire_shape
class RefusalPart(TypedDict):
    type: Literal["refusal"]
    refusal: str


@stands_for()
@wire_shape
class ThinkingPart(TypedDict):
    """Mistral's reasoning part inside ``content``: ``thinking`` is a list of text chunks."""

    type: Literal["thinking"]
    thinking: list[dict[str, Any]]


@stands_for()
@wire_shape
class UnknownPart(TypedDict):
    """A part type this codec does not know; kept whole as an opaque part."""

    type: str


UserPart = Annotated[
    Annotated[TextPart, union_tag("text")]
    | Annotated[ImagePart, union_tag("image_url")]
    | Annotated[AudioPart, union_tag("input_audio")]
    | Annotated[FilePart, union_tag("file")]
    | Annotated[UnknownPart, union_tag("unknown")],
    tagged(("text", "image_url", "input_audio", "file")),
]

TextOnlyPart = UserPart
"""Parts of system, developer and tool messages. OpenAI documents text only there, but the
decoder reads every part by its ``type``, so a media part (an image a compatible server let
through) is validated as strictly as in a user message: a bad one is refused at its path,
never a ``KeyError`` from the decoder."""

AssistantPart = Annotated[
    Annotated[TextPart, union_tag("text")]
    | Annotated[RefusalPart, union_tag("refusal")]
    | Annotated[ThinkingPart, union_tag("thinking")]
    | Annotated[UnknownPart, union_tag("unknown")],
    tagged(("text", "refusal", "thinking")),
]


# --- tool calls and reasoning ----------------------------------------------------------


@stands_for(
    "chat_completion_message_function_tool_call_param.Function",
    "chat_completion_message_function_tool_call.Function",
    "FunctionCall",
    "chat_completion_message.FunctionCall",
)
@wire_shape
class FunctionCall(TypedDict):
    """A call's function; ``arguments`` is JSON text, or (litellm, some compatible
    servers) the JSON object itself."""

    name: str
    arguments: str | dict[str, Any]


@stands_for("ChatCompletionMessageFunctionToolCallParam", "ChatCompletionMessageFunctionToolCall")
@wire_shape
class ToolCall(TypedDict):
    id: str
    type: NotRequired[Literal["function"]]
    function: FunctionCall


@stands_for()
@wire_shape
class UnknownToolCall(TypedDict):
    """A custom-tool call (``type: custom``) or another kind: kept whole."""

    type: str


def _tool_call_tag(value: Any) -> str:
    if not is_dict(value):
        return "function"
    # Compatible servers sometimes leave out "type".
    kind: object = value.get("type", "function")
    return "function" if kind == "function" else "unknown"


AnyToolCall = Annotated[
    Annotated[ToolCall, union_tag("function")] | Annotated[UnknownToolCall, union_tag("unknown")],
    union_discriminator(_tool_call_tag),
]


@stands_for()
@wire_shape
class ReasoningDetail(TypedDict):
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


@stands_for()
@wire_shape
class ThinkingBlock(TypedDict):
    """An entry of litellm's ``thinking_blocks``: Anthropic's ``thinking`` block as Claude
    returned it, text and ``signature`` (https://docs.litellm.ai/docs/reasoning_content)."""

    type: Literal["thinking"]
    thinking: str
    signature: NotRequired[str | None]


@stands_for()
@wire_shape
class RedactedThinkingBlock(TypedDict):
    """An entry of litellm's ``thinking_blocks``: Anthropic's ``redacted_thinking`` block."""

    type: Literal["redacted_thinking"]
    data: str


AnyThinkingBlock = Annotated[
    Annotated[ThinkingBlock, union_tag("thinking")] | Annotated[RedactedThinkingBlock, union_tag("redacted_thinking")],
    tagged(("thinking", "redacted_thinking"), fallback="thinking"),
]
"""A ``thinking_blocks`` entry (another ``type`` is refused as not ``thinking``)."""


@stands_for()
@wire_shape
class ThinkingBlockDelta(TypedDict):
    """A streamed fragment of a ``thinking_blocks`` entry: text, then the ``signature``
    that ends the block, or a whole ``redacted_thinking`` block (litellm's chunks).
    ``index``: the entry's place in the message's ``thinking_blocks`` (as OpenRouter's
    ``reasoning_details`` fragments carry theirs), which chatcodec writes so that two
    unsigned blocks in a row, which no signature ends, stay two."""

    type: NotRequired[Literal["thinking", "redacted_thinking"]]
    thinking: NotRequired[str]
    signature: NotRequired[str | None]
    data: NotRequired[str]
    index: NotRequired[int]


# --- messages --------------------------------------------------------------------------


@stands_for("ChatCompletionSystemMessageParam", "ChatCompletionDeveloperMessageParam")
@wire_shape
class SystemMessage(TypedDict):
    role: Literal["system", "developer"]
    content: str | list[TextOnlyPart]
    name: NotRequired[str | None]


@stands_for("ChatCompletionUserMessageParam")
@wire_shape
class UserMessage(TypedDict):
    role: Literal["user"]
    content: str | list[UserPart]
    name: NotRequired[str | None]


@stands_for("ChatCompletionAssistantMessageParam", "ChatCompletionMessage")
@wire_shape
class AssistantMessage(TypedDict):
    role: Literal["assistant"]
    content: NotRequired[str | list[AssistantPart] | None]
    refusal: NotRequired[str | None]
    name: NotRequired[str | None]
    tool_calls: NotRequired[list[AnyToolCall] | None]
    function_call: NotRequired[FunctionCall | None]
    reasoning_content: NotRequired[str | None]
    reasoning: NotRequired[str | None]
    reasoning_details: NotRequired[list[ReasoningDetail] | None]
    thinking_blocks: NotRequired[list[AnyThinkingBlock] | None]


@stands_for("ChatCompletionToolMessageParam")
@wire_shape
class ToolMessage(TypedDict):
    role: Literal["tool"]
    tool_call_id: str
    content: str | list[TextOnlyPart]


@stands_for("ChatCompletionFunctionMessageParam")
@wire_shape
class FunctionMessage(TypedDict):
    """The deprecated ``function`` role: the result of an assistant's ``function_call``."""

    role: Literal["function"]
    name: str
    content: str | None


@stands_for()
@wire_shape
class UnknownRoleMessage(TypedDict):
    """Catch-all so an unknown or missing role is reported at ``.role``."""

    role: Literal["system", "developer", "user", "assistant", "tool", "function"]


Message = Annotated[
    Annotated[SystemMessage, union_tag("system")]
    | Annotated[SystemMessage, union_tag("developer")]
    | Annotated[UserMessage, union_tag("user")]
    | Annotated[AssistantMessage, union_tag("assistant")]
    | Annotated[ToolMessage, union_tag("tool")]
    | Annotated[FunctionMessage, union_tag("function")]
    | Annotated[UnknownRoleMessage, union_tag("unknown")],
    tagged(ROLES, key="role"),
]


# --- request ---------------------------------------------------------------------------


@stands_for("FunctionDefinition")
@wire_shape
class FunctionDefinition(TypedDict):
    name: NonEmpty
    description: NotRequired[str | None]
    parameters: NotRequired[dict[str, Any] | None]
    strict: NotRequired[bool | None]


@stands_for("ChatCompletionFunctionToolParam")
@wire_shape
class FunctionTool(TypedDict):
    type: Literal["function"]
    function: FunctionDefinition


@stands_for()
@wire_shape
class UnknownTool(TypedDict):
    """A custom tool (``type: custom``) or another kind: kept whole."""

    type: str


Tool = Annotated[
    Annotated[FunctionTool, union_tag("function")] | Annotated[UnknownTool, union_tag("unknown")],
    tagged(("function",)),
]


@stands_for("chat_completion_named_tool_choice_param.Function")
@wire_shape
class NamedFunction(TypedDict):
    name: str


@stands_for("ChatCompletionNamedToolChoiceParam")
@wire_shape
class NamedToolChoice(TypedDict):
    type: Literal["function"]
    function: NamedFunction


@stands_for()
@wire_shape
class OtherToolChoice(TypedDict):
    """``allowed_tools``, a named custom tool, or a future kind: kept as it is."""

    type: str


ToolChoice = (
    Literal["none", "auto", "required"]
    | Annotated[
        Annotated[NamedToolChoice, union_tag("function")] | Annotated[OtherToolChoice, union_tag("unknown")],
        tagged(("function",)),
    ]
)


@stands_for("JSONSchema")
@wire_shape
class JsonSchema(TypedDict):
    name: str
    description: NotRequired[str | None]
    schema: NotRequired[dict[str, Any] | None]
    strict: NotRequired[bool | None]


@stands_for("ResponseFormatJSONSchema")
@wire_shape
class JsonSchemaFormat(TypedDict):
    type: Literal["json_schema"]
    json_schema: JsonSchema


@stands_for("ResponseFormatText", "ResponseFormatJSONObject")
@wire_shape
class SimpleFormat(TypedDict):
    type: Literal["text", "json_object"]


@stands_for()
@wire_shape
class OtherFormat(TypedDict):
    type: str


def _response_format_tag(value: Any) -> str:
    kind = (as_dict(value) or {}).get("type")
    if kind == "json_schema":
        return "json_schema"
    return "simple" if kind in ("text", "json_object") else "unknown"


ResponseFormat = Annotated[
    Annotated[JsonSchemaFormat, union_tag("json_schema")]
    | Annotated[SimpleFormat, union_tag("simple")]
    | Annotated[OtherFormat, union_tag("unknown")],
    union_discriminator(_response_format_tag),
]


@stands_for("CompletionCreateParamsNonStreaming", "CompletionCreateParamsStreaming")
@wire_shape
class Request(TypedDict):
    model: NotRequired[str]
    messages: list[Message]
    tools: NotRequired[list[Tool] | None]
    tool_choice: NotRequired[ToolChoice | None]
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
    response_format: NotRequired[ResponseFormat | None]
    stream: NotRequired[bool | None]
    metadata: NotRequired[dict[str, Any] | None]


# --- response --------------------------------------------------------------------------

Count = Annotated[int, constrained(ge=0)]
"""A token count: the canonical ``Usage`` refuses negative counts, so the wire does too,
and the error names the wire path, not a canonical one the input does not have."""

ChoiceIndex = Annotated[int, constrained(ge=0)]
"""A choice's ``index``: canonical choices and stream events refuse negative ones, so the
wire does too (a negative one escaped as a bare pydantic error from a stream event)."""


@stands_for("PromptTokensDetails")
@wire_shape
class PromptTokensDetails(TypedDict):
    cached_tokens: NotRequired[Count | None]
    cache_write_tokens: NotRequired[Count | None]


@stands_for("CompletionTokensDetails")
@wire_shape
class CompletionTokensDetails(TypedDict):
    reasoning_tokens: NotRequired[Count | None]


@stands_for("CompletionUsage")
@wire_shape
class Usage(TypedDict):
    prompt_tokens: NotRequired[Count | None]
    completion_tokens: NotRequired[Count | None]
    total_tokens: NotRequired[int | None]
    prompt_tokens_details: NotRequired[PromptTokensDetails | None]
    completion_tokens_details: NotRequired[CompletionTokensDetails | None]


@stands_for("Choice")
@wire_shape
class Choice(TypedDict):
    index: ChoiceIndex
    message: AssistantMessage
    finish_reason: NotRequired[str | None]


@stands_for("ChatCompletion")
@wire_shape
class Response(TypedDict):
    id: NotRequired[str]
    object: NotRequired[str]
    created: NotRequired[int]
    model: NotRequired[str]
    choices: list[Choice]
    usage: NotRequired[Usage | None]


# --- stream ----------------------------------------------------------------------------


@stands_for("ChoiceDeltaToolCallFunction")
@wire_shape
class FunctionDelta(TypedDict):
    name: NotRequired[str | None]
    arguments: NotRequired[str | None]


@stands_for("ChoiceDeltaToolCall")
@wire_shape
class ToolCallDelta(TypedDict):
    index: int
    id: NotRequired[str | None]
    type: NotRequired[str | None]
    function: NotRequired[FunctionDelta | None]


@stands_for("ChoiceDelta")
@wire_shape
class Delta(TypedDict):
    role: NotRequired[str | None]
    content: NotRequired[str | list[AssistantPart] | None]  # a list: Mistral streams thinking parts
    refusal: NotRequired[str | None]
    reasoning_content: NotRequired[str | None]
    reasoning: NotRequired[str | None]
    reasoning_details: NotRequired[list[ReasoningDetail] | None]
    thinking_blocks: NotRequired[list[ThinkingBlockDelta] | None]
    tool_calls: NotRequired[list[ToolCallDelta] | None]


@stands_for("chat_completion_chunk.Choice")
@wire_shape
class ChunkChoice(TypedDict):
    index: ChoiceIndex
    delta: Delta
    finish_reason: NotRequired[str | None]


@stands_for("ChatCompletionChunk")
@wire_shape
class Chunk(TypedDict):
    id: NotRequired[str]
    object: NotRequired[str]
    created: NotRequired[int]
    model: NotRequired[str]
    choices: list[ChunkChoice]
    usage: NotRequired[Usage | None]
