"""Bedrock Converse wire shapes, keys spelled as botocore's ``bedrock-runtime`` model spells them,
and the closed schema of a request's common shapes that the one reader validates first.

Converse blocks are *unions by member name* (``{"text": ...}``, ``{"toolUse": {...}}``),
not tagged by a ``type`` key, so a block is one ``TypedDict`` with every known member
optional: each member present is checked strictly, and the decoders treat a block with
no known member, or several, as one they keep whole (an opaque part). Every object allows
extra keys (AWS adds members often; the decoders keep them for the round trip). Binary
members (``bytes``, ``redactedContent``) are base64 text, as the REST API and the
fixtures carry them. Errors carry wire JSON paths (``$.messages[2].content[0]``).

One description of the wire, in two forms:

* the ``TypedDict`` shapes below are the whole wire as botocore has it (extra keys kept,
  untyped members where the API is open); their pydantic adapters (:func:`adapters`) are
  built on first use, with the kit's :func:`~chatcodec._providers.kit.wire_shape` config,
  so a request read through the closed schema loads no pydantic (first use);
* :data:`REQUEST` and :data:`MESSAGES` are the closed pydantic-core schema of the shapes
  requests are made of (every block one member, no key outside the list), checked in one
  Rust pass, with tool input that holds no float settled there
  (:func:`~chatcodec._providers.kit.closed_schema.json_value_to_write`; a block of several members,
  which the reader keeps whole, gets its input back as it came). Whatever it accepts the
  ``TypedDict`` shapes accept too (a test holds the closed schema inside the wire on
  mutated recordings); what it refuses is validated by the adapters, whose errors name
  the wire path and rule. Each closed object is built from the shape it narrows
  (:func:`~chatcodec._providers.kit.closed_schema.closed_like`: that shape's fields only,
  in its order), adding what the shapes do not say: literal tags, closed objects, JSON
  values where the wire says ``Any``.

Each shape names the botocore shapes it stands for (``stands_for``), checked against the
generated ``known_fields.json`` (``tests/providers/test_wire_description.py``).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, NotRequired, cast

from pydantic_core import core_schema as cs
from typing_extensions import TypedDict

from chatcodec._providers.families.aws.blocks import (
    Adapters,
    CachePoint,
    ContentBlock,
    Count,
    DocumentBlock,
    ErrorBody,
    ImageBlock,
    MediaSource,
    Message,
    ReasoningContent,
    ReasoningText,
    S3Location,
    Tool,
    ToolConfig,
    ToolResultBlock,
    ToolResultContentBlock,
    ToolSpec,
    ToolUseBlock,
    build_adapters,
)
from chatcodec.codec_kit import as_dict, closed_schema, stands_for

if TYPE_CHECKING:  # the adapters are built on first use (a request read in Rust needs none)
    from pydantic import TypeAdapter


@stands_for("InferenceConfiguration")
class InferenceConfig(TypedDict):
    maxTokens: NotRequired[int]
    temperature: NotRequired[int | float]  # int first: 2**53 + 1 stays exact
    topP: NotRequired[int | float]
    stopSequences: NotRequired[list[str]]


@stands_for("ConverseRequest", "ConverseStreamRequest")
class Request(TypedDict):
    """The ``Converse`` / ``ConverseStream`` input: the REST body, plus ``modelId`` as
    boto3 takes it (the REST API puts it in the URL)."""

    messages: NotRequired[list[Message]]
    modelId: NotRequired[str]
    system: NotRequired[list[ContentBlock]]
    inferenceConfig: NotRequired[InferenceConfig]
    toolConfig: NotRequired[ToolConfig]
    additionalModelRequestFields: NotRequired[dict[str, Any]]
    outputConfig: NotRequired[dict[str, Any]]


@stands_for("TokenUsage")
class Usage(TypedDict):
    """``TokenUsage``. ``inputTokens`` excludes cache reads and writes; ``totalTokens``
    includes them (see ``usage.py``)."""

    inputTokens: NotRequired[Count]
    outputTokens: NotRequired[Count]
    totalTokens: NotRequired[Count]
    cacheReadInputTokens: NotRequired[Count]
    cacheWriteInputTokens: NotRequired[Count]


@stands_for("ConverseOutput")
class Output(TypedDict):
    message: Message


@stands_for("ConverseResponse")
class Response(TypedDict):
    """The ``Converse`` output."""

    output: Output
    stopReason: NotRequired[str]
    usage: NotRequired[Usage]


@stands_for("ConverseStreamMetadataEvent")
class Metadata(TypedDict):
    usage: NotRequired[Usage]


OWN_SHAPES: tuple[type, ...] = (InferenceConfig, Request, Usage, Output, Response, Metadata)
"""The shapes Converse has of its own, beside the family's
(:data:`~chatcodec._providers.families.aws.blocks.SHAPES`)."""


@cache
def adapters() -> Adapters:
    """The adapters, built once, on first use (they load pydantic)."""
    from chatcodec.codec_kit import deferred_adapter

    return build_adapters(
        OWN_SHAPES,
        request=Request,
        response=Response,
        error=ErrorBody,
        metadata=Metadata,
        messages=deferred_adapter(list[Message]),
    )


def validated(adapter: TypeAdapter[Any], payload: object, title: str) -> dict[str, Any]:
    """``payload`` checked by ``adapter`` (errors carry wire paths), as a plain dict."""
    from chatcodec.codec_kit import validate_with

    checked = as_dict(validate_with(adapter, payload, title))
    assert checked is not None  # every adapter here validates a TypedDict
    return checked


DEPTH_LIMIT = 254
"""Containers nested this deep from a body's root are refused: the canonical models refuse a
JSON value 254 levels deep (pydantic-core's recursion limit), and the reader keeps values
the wire leaves open (``Any``: bags, blocks kept whole, schemas) as they came. The closed
schema refuses them itself (its JSON values recurse in Rust); behind the wire adapter,
which does not look inside them, they are counted here (a value deep inside a body is
refused a few levels before the models would refuse it: the body's own levels count)."""


def refuse_too_deep(payload: object) -> None:
    """Raise the error for a value nested too deeply (naming the route into it) when a
    container in ``payload`` is :data:`DEPTH_LIMIT` levels deep; a linear walk, no recursion."""
    stack: list[tuple[Any, int]] = [(payload, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, depth = pop()
        if depth >= DEPTH_LIMIT:
            from chatcodec.codec_kit import too_deep

            raise too_deep(payload)
        for child in node.values() if node.__class__ is dict else node:
            if child.__class__ is dict or child.__class__ is list:
                push((child, depth + 1))


# --- the closed schema of the common request shapes --------------------------------------


def _list(item: cs.CoreSchema) -> cs.CoreSchema:
    return cs.list_schema(item, strict=True)


def _blocks(shape: type, **members: cs.CoreSchema) -> cs.CoreSchema:
    """A list of ``shape`` blocks, each with some of ``members`` (a block of none or several
    is kept whole by the reader, which then gives back the tool input written ahead as it came)."""
    return _list(closed_schema.closed_like(shape, {}, members))


def _cache_point() -> cs.CoreSchema:
    """A ``cachePoint`` canonical reads as a marker (``families/aws/blocks.cache_marker``)."""
    return closed_schema.closed_like(
        CachePoint, {"type": closed_schema.literal("default")}, {"ttl": closed_schema.text()}
    )


def _source(*members: str) -> cs.CoreSchema:
    """A media source of one of ``members`` (several: kept whole by the reader)."""
    location = closed_schema.closed_like(
        S3Location, {"uri": closed_schema.text()}, {"bucketOwner": closed_schema.text()}
    )
    kinds = {"bytes": closed_schema.text(), "text": closed_schema.text(), "s3Location": location}
    return closed_schema.closed_like(MediaSource, {}, {member: kinds[member] for member in members})


def _messages() -> cs.CoreSchema:
    json_value = closed_schema.json_value_to_write()
    image = closed_schema.closed_like(
        ImageBlock, {"format": closed_schema.text(), "source": _source("bytes", "s3Location")}
    )
    document = closed_schema.closed_like(
        DocumentBlock,
        {"source": _source("bytes", "text", "s3Location")},
        {"name": closed_schema.text(), "format": closed_schema.text()},
    )
    result_content = _blocks(
        ToolResultContentBlock, text=closed_schema.text(), json=json_value, image=image, document=document
    )
    result = closed_schema.closed_like(
        ToolResultBlock,
        {"toolUseId": closed_schema.text(), "content": result_content},
        {"status": closed_schema.text()},
    )
    call = closed_schema.closed_like(
        ToolUseBlock, {"toolUseId": closed_schema.text(), "name": closed_schema.text(), "input": json_value}
    )
    thought = closed_schema.closed_like(
        ReasoningText, {"text": closed_schema.text()}, {"signature": closed_schema.text()}
    )
    reasoning = closed_schema.closed_like(
        ReasoningContent, {}, {"reasoningText": thought, "redactedContent": closed_schema.text()}
    )
    user = _blocks(
        ContentBlock,
        text=closed_schema.text(),
        image=image,
        document=document,
        toolResult=result,
        cachePoint=_cache_point(),
    )
    assistant = _blocks(
        ContentBlock, text=closed_schema.text(), toolUse=call, reasoningContent=reasoning, cachePoint=_cache_point()
    )
    choices = {
        "user": closed_schema.closed_like(Message, {"role": closed_schema.literal("user"), "content": user}),
        "assistant": closed_schema.closed_like(
            Message, {"role": closed_schema.literal("assistant"), "content": assistant}
        ),
    }
    return _list(closed_schema.tagged(choices, "role"))


def _request(json_input: bool) -> cs.CoreSchema:
    spec = closed_schema.closed_like(
        ToolSpec,
        {
            "name": closed_schema.non_empty(),
            "inputSchema": closed_schema.closed({"json": closed_schema.json_object()}),
        },  # ToolSpec types it as any object
        {"description": closed_schema.text(), "strict": cs.bool_schema(strict=True)},
    )
    choice = closed_schema.either(  # ToolConfig types it as any object
        closed_schema.closed({"auto": closed_schema.closed({})}),
        closed_schema.closed({"any": closed_schema.closed({})}),
        closed_schema.closed({"tool": closed_schema.closed({"name": closed_schema.text()})}),
    )
    inference = closed_schema.closed_like(
        InferenceConfig,
        {},
        {
            "maxTokens": cs.int_schema(strict=True),
            "temperature": closed_schema.number(json_input=json_input),
            "topP": closed_schema.number(json_input=json_input),
            "stopSequences": _list(closed_schema.text()),
        },
    )
    tools = _blocks(Tool, toolSpec=spec, cachePoint=_cache_point())
    root = closed_schema.closed_like(
        Request,
        {},
        {
            "messages": _messages(),
            "modelId": closed_schema.text(),
            "system": _blocks(ContentBlock, text=closed_schema.text(), cachePoint=_cache_point()),
            "inferenceConfig": inference,
            "toolConfig": closed_schema.closed_like(ToolConfig, {"tools": tools}, {"toolChoice": choice}),
            "additionalModelRequestFields": closed_schema.json_object(),
            "outputConfig": closed_schema.json_object(),
        },
        extra=True,  # fields with no canonical home, kept in the request's bag
    )
    return cs.definitions_schema(root, [closed_schema.json_without_floats(json_input=json_input)])


def _message_list(json_input: bool) -> cs.CoreSchema:
    return cs.definitions_schema(_messages(), [closed_schema.json_without_floats(json_input=json_input)])


REQUEST = closed_schema.LazyValidator(_request)
"""The common request shapes (see the module docstring), for dicts and JSON text."""

MESSAGES = closed_schema.LazyValidator(_message_list)
"""The common shapes of a stored ``messages`` list (read by :func:`closed_messages`)."""


def closed_messages(messages: object) -> list[dict[str, Any]] | None:
    """The validated copy of a stored ``messages`` list of the common shapes, or ``None``."""
    try:
        checked: object = MESSAGES.python().validate_python(messages)
    except (ValueError, RecursionError):  # pydantic_core.ValidationError is a ValueError
        return None
    return cast("list[dict[str, Any]]", checked)
