"""Anthropic Messages API wire shapes, keys spelled as the API spells them: the one
description of the wire, in two forms read by the one reader (``request.py``).

- The ``TypedDict`` shapes below are every shape the decoders read, nothing more: every object
  allows extra keys (the API adds fields often, and the decoders keep them for the round
  trip), and block unions fall back to :class:`OtherBlock` for block types added after
  this was written, which decode to opaque parts. Validation is strict (no ``"1"`` ->
  ``1`` coercion), so once a payload validates the decoders can read the original dicts
  without re-checking types; errors carry wire JSON paths (``$.messages[2].content[0]``).
  Their adapters are built on first use (:func:`validated`): pydantic is imported then,
  not when this module is.
- :data:`COMMON_REQUEST` is the request as Claude agents send it, written closed in
  pydantic-core (:mod:`chatcodec._providers.kit.closed_schema` builds it): one Rust pass validates
  a body made of the common shapes, checking every untyped value as JSON. What it
  accepts, the ``TypedDict`` shapes accept too and validate to the same copy, so the reading
  after either is one set of functions; what it refuses (a ``null``, an unknown block
  type, a server-tool block, a system turn in ``messages``, citations) is validated by
  the ``TypedDict`` shapes, whose errors name the wire path and the rule.

The closed schema is written by hand beside the shapes it narrows, not derived from them:
deriving it would take a walk over the ``TypedDict`` annotations that knows which fields
are common (left for the kit, with the other providers' closed schemas).
"""

from functools import cache
from typing import Annotated, Any, Literal, NotRequired

from pydantic_core import core_schema as cs
from typing_extensions import TypedDict

from chatcodec.codec_kit import as_dict, constrained, deeper_than, stands_for, tagged, too_deep, union_tag, wire_shape
from chatcodec.codec_kit import closed_schema as sc

Text = Annotated[str, constrained(max_length=2**31)]
"""Text canonical keeps where it requires text (a tool name, a URL, a media type, a file
id): a length bound no text reaches makes pydantic-core read it as UTF-8, so a lone
surrogate is refused here, at its wire path (rule ``string_unicode``), as canonical would
refuse it; empty text is read (an empty source keeps its block whole)."""


@stands_for("CacheControlEphemeralParam")
@wire_shape
class CacheControl(TypedDict):
    """``{"type": "ephemeral", "ttl": "5m" | "1h"}``."""

    type: str
    ttl: NotRequired[str]


@stands_for(
    "Base64ImageSourceParam",
    "URLImageSourceParam",
    "FileImageSourceParam",
    "Base64PDFSourceParam",
    "URLPDFSourceParam",
    "FileDocumentSourceParam",
    "PlainTextSourceParam",
)
@wire_shape
class Source(TypedDict):
    """A media source; which keys it needs depends on ``type`` and is checked on mapping."""

    type: str
    media_type: NotRequired[Text]
    data: NotRequired[str]
    url: NotRequired[Text]
    file_id: NotRequired[Text]


@stands_for("TextBlockParam", "TextBlock")
@wire_shape
class TextBlock(TypedDict):
    type: Literal["text"]
    text: str
    cache_control: NotRequired[CacheControl | None]
    citations: NotRequired[list[dict[str, Any]] | None]


@stands_for("ImageBlockParam")
@wire_shape
class ImageBlock(TypedDict):
    type: Literal["image"]
    source: Source
    cache_control: NotRequired[CacheControl | None]


@stands_for("DocumentBlockParam", "DocumentBlock")
@wire_shape
class DocumentBlock(TypedDict):
    type: Literal["document"]
    source: Source
    cache_control: NotRequired[CacheControl | None]
    title: NotRequired[str | None]


@stands_for("ThinkingBlockParam", "ThinkingBlock")
@wire_shape
class ThinkingBlock(TypedDict):
    type: Literal["thinking"]
    thinking: str
    signature: NotRequired[str]


@stands_for("RedactedThinkingBlockParam", "RedactedThinkingBlock")
@wire_shape
class RedactedThinkingBlock(TypedDict):
    type: Literal["redacted_thinking"]
    data: str


@stands_for("ToolUseBlockParam", "ToolUseBlock")
@wire_shape
class ToolUseBlock(TypedDict):
    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, Any]
    cache_control: NotRequired[CacheControl | None]


@stands_for()
@wire_shape
class OtherBlock(TypedDict):
    """Any other block (server-tool calls and results, search results, future types)."""

    type: str


_BLOCK_TAGS = frozenset({"text", "image", "document", "thinking", "redacted_thinking", "tool_use", "tool_result"})

ToolResultContentBlock = Annotated[
    Annotated[TextBlock, union_tag("text")]
    | Annotated[ImageBlock, union_tag("image")]
    | Annotated[DocumentBlock, union_tag("document")]
    | Annotated[ThinkingBlock, union_tag("thinking")]
    | Annotated[RedactedThinkingBlock, union_tag("redacted_thinking")]
    | Annotated[ToolUseBlock, union_tag("tool_use")]
    | Annotated[OtherBlock, union_tag("tool_result")]
    | Annotated[OtherBlock, union_tag("other")],
    tagged(_BLOCK_TAGS, fallback="other"),
]
"""A block inside a ``tool_result``'s content list."""


@stands_for("ToolResultBlockParam")
@wire_shape
class ToolResultBlock(TypedDict):
    type: Literal["tool_result"]
    tool_use_id: str
    content: NotRequired[str | list[ToolResultContentBlock]]
    is_error: NotRequired[bool]
    cache_control: NotRequired[CacheControl | None]


ContentBlock = Annotated[
    Annotated[TextBlock, union_tag("text")]
    | Annotated[ImageBlock, union_tag("image")]
    | Annotated[DocumentBlock, union_tag("document")]
    | Annotated[ThinkingBlock, union_tag("thinking")]
    | Annotated[RedactedThinkingBlock, union_tag("redacted_thinking")]
    | Annotated[ToolUseBlock, union_tag("tool_use")]
    | Annotated[ToolResultBlock, union_tag("tool_result")]
    | Annotated[OtherBlock, union_tag("other")],
    tagged(_BLOCK_TAGS, fallback="other"),
]
"""Any content block, in a request message or a response."""


@stands_for("UserMessageParam", "AssistantMessageParam")
@wire_shape
class Message(TypedDict):
    """One turn. ``system`` turns inside ``messages`` exist in the API since 2026
    (``SystemMessageParam`` in the SDK); some clients sent them earlier anyway."""

    role: Literal["user", "assistant", "system"]
    content: str | list[ContentBlock]


@stands_for("ToolParam")
@wire_shape
class Tool(TypedDict):
    """A client tool (``input_schema``) or a server tool (``type`` like ``web_search_20250305``).
    A toolset entry (``computer_toolset_20260801``, ``browser_toolset_20260801``: the
    SDK's ``ComputerToolset20260801Param``, its ``configs``) has no ``name``; a client tool
    without one is refused by the reader."""

    name: NotRequired[Text]
    type: NotRequired[str | None]
    description: NotRequired[str]
    input_schema: NotRequired[dict[str, Any]]
    cache_control: NotRequired[CacheControl | None]
    strict: NotRequired[bool]


@stands_for("ToolChoiceAutoParam", "ToolChoiceAnyParam", "ToolChoiceToolParam", "ToolChoiceNoneParam")
@wire_shape
class ToolChoice(TypedDict):
    type: Literal["auto", "any", "tool", "none"]
    name: NotRequired[str]
    disable_parallel_tool_use: NotRequired[bool]


@stands_for("ThinkingConfigEnabledParam", "ThinkingConfigDisabledParam", "ThinkingConfigAdaptiveParam")
@wire_shape
class Thinking(TypedDict):
    """``enabled`` (with ``budget_tokens``), ``adaptive``, ``disabled``, or a newer type."""

    type: str
    budget_tokens: NotRequired[int]


@stands_for("OutputConfigParam")
@wire_shape
class OutputConfig(TypedDict):
    effort: NotRequired[str | None]
    format: NotRequired[dict[str, Any] | None]


@stands_for("MessageCreateParamsNonStreaming", "MessageCreateParamsStreaming")
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
    temperature: NotRequired[int | float]  # int first: 2**53 + 1 stays exact
    top_p: NotRequired[int | float]
    top_k: NotRequired[int]
    metadata: NotRequired[dict[str, Any]]
    stream: NotRequired[bool]
    cache_control: NotRequired[CacheControl | None]


BlockIndex = Annotated[int, constrained(ge=0)]
"""A content block's ``index``: canonical stream events refuse negative ones, so the wire
does too (a negative one escaped as a bare pydantic error from a stream event)."""

Count = Annotated[int, constrained(ge=0)]
"""A token count: the canonical ``Usage`` refuses negative counts, so the wire does too,
and the error names the wire path, not a canonical one the input does not have."""


@stands_for("OutputTokensDetails")
@wire_shape
class OutputTokensDetails(TypedDict):
    thinking_tokens: NotRequired[Count | None]


@stands_for("Usage", "MessageDeltaUsage")
@wire_shape
class Usage(TypedDict):
    """Token counts. ``input_tokens`` excludes cache reads and writes."""

    input_tokens: NotRequired[Count | None]
    output_tokens: NotRequired[Count | None]
    cache_creation_input_tokens: NotRequired[Count | None]
    cache_read_input_tokens: NotRequired[Count | None]
    output_tokens_details: NotRequired[OutputTokensDetails | None]


@stands_for("Message")
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


@stands_for()
@wire_shape
class ErrorObject(TypedDict):
    type: NotRequired[str]
    message: NotRequired[str]


@stands_for()
@wire_shape
class ErrorBody(TypedDict):
    """``{"type": "error", "error": {"type": ..., "message": ...}}``, in a body or a stream."""

    type: Literal["error"]
    error: ErrorObject


@stands_for("RawMessageStartEvent")
@wire_shape
class MessageStart(TypedDict):
    type: Literal["message_start"]
    message: Response


@stands_for("RawContentBlockStartEvent")
@wire_shape
class BlockStart(TypedDict):
    type: Literal["content_block_start"]
    index: BlockIndex
    content_block: ContentBlock


@stands_for("TextDelta", "InputJSONDelta", "ThinkingDelta", "SignatureDelta", "CitationsDelta")
@wire_shape
class Delta(TypedDict):
    """A block delta; which text field it carries depends on ``type``."""

    type: str
    text: NotRequired[str]
    partial_json: NotRequired[str]
    thinking: NotRequired[str]
    signature: NotRequired[str]
    citation: NotRequired[dict[str, Any]]


@stands_for("RawContentBlockDeltaEvent")
@wire_shape
class BlockDelta(TypedDict):
    type: Literal["content_block_delta"]
    index: BlockIndex
    delta: Delta


@stands_for("RawContentBlockStopEvent")
@wire_shape
class BlockStop(TypedDict):
    type: Literal["content_block_stop"]
    index: BlockIndex


@stands_for("Delta")
@wire_shape
class MessageDeltaFields(TypedDict):
    stop_reason: NotRequired[str | None]
    stop_sequence: NotRequired[str | None]


@stands_for("RawMessageDeltaEvent")
@wire_shape
class MessageDelta(TypedDict):
    type: Literal["message_delta"]
    delta: MessageDeltaFields
    usage: NotRequired[Usage | None]


@stands_for()
@wire_shape
class OtherEvent(TypedDict):
    """``message_stop``, ``ping`` and event types added later (ignored when decoding)."""

    type: str


_EVENT_TAGS = frozenset(
    {"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "error"}
)

StreamEvent = Annotated[
    Annotated[MessageStart, union_tag("message_start")]
    | Annotated[BlockStart, union_tag("content_block_start")]
    | Annotated[BlockDelta, union_tag("content_block_delta")]
    | Annotated[BlockStop, union_tag("content_block_stop")]
    | Annotated[MessageDelta, union_tag("message_delta")]
    | Annotated[ErrorBody, union_tag("error")]
    | Annotated[OtherEvent, union_tag("other")],
    tagged(_EVENT_TAGS, fallback="other"),
]
"""One server-sent event's JSON."""


@cache
def adapter(shape: Any) -> Any:
    """The strict adapter of a wire shape (``Request``, ``list[Message]``, ``StreamEvent``),
    built on first use: the first payload the closed schema refuses imports pydantic."""
    from pydantic import TypeAdapter

    return TypeAdapter(shape)


def validated(shape: Any, payload: object, title: str) -> Any:
    """``payload`` checked as ``shape`` (errors carry wire paths): a validated copy."""
    from chatcodec.codec_kit import validate_with

    return validate_with(adapter(shape), payload, title)


DEEPEST = 250
"""How deep canonical data read from a body may nest: pydantic-core refuses a value
nested past about 255 levels in a canonical model (a little less inside a bag). The one
reader builds no model, so where a value can sit whole in what it reads (a bag, a tool
schema), it refuses one nested deeper itself (:func:`refuse_too_deep`)."""


def refuse_too_deep(canonical: object, payload: object, *, limit: int = DEEPEST) -> None:
    """Raise ``payloads.too_deep`` (naming the route into ``payload``'s deepest value)
    when ``canonical`` nests deeper than ``limit``."""
    if deeper_than(canonical, limit):
        raise too_deep(payload)


def validated_object(shape: Any, payload: object, title: str) -> dict[str, Any]:
    """:func:`validated` for a shape that is a ``TypedDict``, as a plain dict."""
    checked = as_dict(validated(shape, payload, title))
    assert checked is not None  # a TypedDict validates to a dict
    return checked


# --- the common request shapes, closed (see the module docstring) -------------------------


def _list(item: cs.CoreSchema) -> cs.CoreSchema:
    return cs.list_schema(item, strict=True)


def _tagged(choices: dict[str, cs.CoreSchema], key: str = "type") -> cs.CoreSchema:
    return sc.tagged(choices, key)


def _text() -> cs.CoreSchema:
    """:data:`Text` in pydantic-core: read as UTF-8, a lone surrogate refused."""
    return cs.str_schema(strict=True, max_length=2**31)


def _cache_marker() -> cs.CoreSchema:
    return sc.closed_like(CacheControl, {"type": sc.literal("ephemeral")}, {"ttl": sc.text()})


def _call_input() -> cs.CoreSchema:  # a JSON object, marked when it holds a float (parts.decode_parts)
    return sc.json_value_to_write(whole=sc.json_object())


def _common_blocks() -> dict[str, cs.CoreSchema]:
    """The block shapes of requests, by type: closed, so citations refuse them; a cache
    marker on any block that takes one."""
    cached = {"cache_control": _cache_marker()}
    sources = {
        "base64": sc.closed_like(
            Source, {"type": sc.literal("base64"), "media_type": sc.non_empty(), "data": sc.text()}
        ),
        "url": sc.closed_like(Source, {"type": sc.literal("url"), "url": sc.non_empty()}),
        "file": sc.closed_like(Source, {"type": sc.literal("file"), "file_id": sc.non_empty()}),
    }
    text_source = sc.closed_like(Source, {"type": sc.literal("text"), "media_type": _text(), "data": sc.text()})
    text_block = sc.closed_like(TextBlock, {"type": sc.literal("text"), "text": sc.text()}, cached)
    image = sc.closed_like(ImageBlock, {"type": sc.literal("image"), "source": _tagged(sources)}, cached)
    document = sc.closed_like(
        DocumentBlock,
        {"type": sc.literal("document"), "source": _tagged({**sources, "text": text_source})},
        {"title": sc.text(), **cached},
    )
    result_content = sc.either(sc.text(), _list(_tagged({"text": text_block, "image": image, "document": document})))
    return {
        "text": text_block,
        "image": image,
        "document": document,
        "tool_result": sc.closed_like(
            ToolResultBlock,
            {"type": sc.literal("tool_result"), "tool_use_id": sc.text()},
            {"content": result_content, "is_error": cs.bool_schema(strict=True), **cached},
        ),
        "thinking": sc.closed_like(
            ThinkingBlock, {"type": sc.literal("thinking"), "thinking": sc.text()}, {"signature": sc.text()}
        ),
        "redacted_thinking": sc.closed_like(
            RedactedThinkingBlock, {"type": sc.literal("redacted_thinking"), "data": sc.text()}
        ),
        "tool_use": sc.closed_like(
            ToolUseBlock,
            {"type": sc.literal("tool_use"), "id": sc.text(), "name": sc.text(), "input": _call_input()},
            cached,
        ),
    }


def _common_messages(blocks: dict[str, cs.CoreSchema]) -> cs.CoreSchema:
    user = _tagged({kind: blocks[kind] for kind in ("text", "image", "document", "tool_result")})
    assistant = _tagged({kind: blocks[kind] for kind in ("text", "thinking", "redacted_thinking", "tool_use")})
    choices = {
        "user": sc.closed_like(Message, {"role": sc.literal("user"), "content": sc.either(sc.text(), _list(user))}),
        "assistant": sc.closed_like(
            Message, {"role": sc.literal("assistant"), "content": sc.either(sc.text(), _list(assistant))}
        ),
    }
    return _list(_tagged(choices, "role"))


def _common_tools() -> cs.CoreSchema:
    """Client tools, and server tools (a ``type`` such as ``web_search_20250305``, their
    own fields as JSON beside the fields every tool has, typed as :class:`Tool` types them)."""
    shared = {"description": sc.text(), "strict": cs.bool_schema(strict=True), "cache_control": _cache_marker()}
    client = sc.closed_like(Tool, {"name": sc.non_empty(), "input_schema": sc.json_object()}, shared)
    server = sc.closed_like(
        Tool, {"type": sc.text()}, {"name": _text(), **shared, "input_schema": sc.json_object()}, extra=True
    )
    return _list(sc.either(client, server))


def _common_choice() -> cs.CoreSchema:
    parallel = {"disable_parallel_tool_use": cs.bool_schema(strict=True)}
    choices = {
        kind: sc.closed_like(ToolChoice, {"type": sc.literal(kind)}, parallel) for kind in ("auto", "any", "none")
    }
    choices["tool"] = sc.closed_like(ToolChoice, {"type": sc.literal("tool"), "name": sc.text()}, parallel)
    return _tagged(choices)


def _common_request(json_input: bool) -> cs.CoreSchema:
    blocks = _common_blocks()
    count = cs.int_schema(strict=True)
    thinking = {
        "enabled": sc.closed_like(Thinking, {"type": sc.literal("enabled")}, {"budget_tokens": count}),
        "adaptive": sc.closed_like(Thinking, {"type": sc.literal("adaptive")}),
        "disabled": sc.closed_like(Thinking, {"type": sc.literal("disabled")}),
    }
    root = sc.closed_like(
        Request,
        {"messages": _common_messages(blocks)},
        {
            "model": sc.text(),
            "max_tokens": count,
            "system": sc.either(sc.text(), _list(blocks["text"])),
            "tools": _common_tools(),
            "tool_choice": _common_choice(),
            "stop_sequences": _list(sc.text()),
            "temperature": sc.number(json_input=json_input),
            "top_p": sc.number(json_input=json_input),
            "top_k": count,
            "metadata": sc.json_object(),
            "stream": cs.bool_schema(strict=True),
            "thinking": _tagged(thinking),
            "output_config": sc.closed_like(OutputConfig, {}, {"effort": sc.text(), "format": sc.json_object()}),
            "cache_control": _cache_marker(),
        },
        extra=True,  # fields with no canonical home, kept in the request's bag
    )
    return cs.definitions_schema(root, [sc.json_without_floats(json_input=json_input)])


COMMON_REQUEST = sc.LazyValidator(_common_request)
"""The common request shapes (built on first use; the one reader validates dicts with it)."""

COMMON_MESSAGES = sc.LazyValidator(
    lambda json_input: cs.definitions_schema(
        sc.closed_like(Request, {"messages": _common_messages(_common_blocks())}),
        [sc.json_without_floats(json_input=json_input)],
    )
)
"""The common request's ``messages`` alone, as ``{"messages": [...]}``: the same copy
:data:`COMMON_REQUEST` gives them (a direct path's front, :mod:`chatcodec._direct`)."""

COMMON_INPUTS = sc.LazyValidator(
    lambda json: cs.definitions_schema(
        sc.closed({"inputs": _list(_call_input())}), [sc.json_without_floats(json_input=json)]
    )
)
"""``tool_use`` inputs alone, ``{"inputs": [...]}``: each :data:`COMMON_MESSAGES`' copy (a direct path's)."""


def _common_response(json_input: bool) -> cs.CoreSchema:
    """A response of the request's assistant blocks and counted usage; its other fields
    (``container``, ``stop_details``, usage's cache, tier and geography) kept as JSON values
    in their order, as the wire shapes keep extras. A ``null`` where the wire shape takes one."""
    blocks = _common_blocks()
    assistant = _tagged({kind: blocks[kind] for kind in ("text", "thinking", "redacted_thinking", "tool_use")})
    count = cs.nullable_schema(cs.int_schema(strict=True, ge=0))
    details = sc.closed_like(OutputTokensDetails, {}, {"thinking_tokens": count}, every_field=True)
    counts = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    usage = sc.closed_like(
        Usage,
        {},
        {**dict.fromkeys(counts, count), "output_tokens_details": cs.nullable_schema(details)},
        extra=True,
        every_field=True,
    )
    maybe_text = cs.nullable_schema(sc.text())
    named = {key: maybe_text for key in ("id", "model", "stop_reason", "stop_sequence")}
    root = sc.closed_like(
        Response,
        {"content": _list(assistant)},
        {**named, "type": sc.text(), "role": sc.text(), "usage": cs.nullable_schema(usage)},
        extra=True,
        every_field=True,
    )
    return cs.definitions_schema(root, [sc.json_without_floats(json_input=json_input)])


COMMON_RESPONSE = sc.LazyValidator(_common_response)
"""The common response shapes: the reader of an answer validates it with this first, as the
request reader does (a ``TypeAdapter`` of the wire shapes cost a third of reading one)."""
