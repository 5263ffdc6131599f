"""The common shapes of a Chat Completions request, closed: the front of the reader
(``request.py``). The request as an agent sends it, written closed in pydantic-core and
validated in one pass in Rust, with no pydantic loaded. A body it refuses is not an
error: the reader validates it with the wire adapters (:mod:`.wire`), which read every
shape and name the wire path and rule of an error. So this schema accepts only what they
accept, and gives the same validated copy; the reading after is one.

It takes its fields from the wire shapes of :mod:`.wire`, the one description of the
wire (each naming its SDK kinds): every closed object is built with
:func:`~chatcodec._providers.kit.closed_schema.closed_like` from the shape it is the
common form of, so it takes only that shape's fields (or ones the shape leaves to its
extras, named as ``beyond``), in its order. What it adds is the common *values* (no
``null`` where a field may be left out, the common choices of a tagged union); the
conformance laws hold the two forms together (every recorded body round-trips; mutated
bodies decode the same or fail the same either way).
"""

from __future__ import annotations

from pydantic_core import core_schema as cs

from chatcodec._providers.openai_chat import wire
from chatcodec._providers.openai_chat.null_spelling import SPELLED_EMPTY
from chatcodec.codec_kit import closed_schema, shape_fields

IMAGE_DETAILS = ("auto", "low", "high")
"""The image ``detail`` values canonical has (``ImagePart.detail``): a part with another
(``"original"``) keeps it in a bag, read after the full wire validation."""


def _content(kinds: tuple[str, ...]) -> cs.CoreSchema:
    # a gateway's cache marker on a part: an extra key the full shapes keep as it is
    cached = {"cache_control": closed_schema.json_object()}
    choices = {
        "text": closed_schema.closed_like(
            wire.TextPart, {"type": closed_schema.literal("text"), "text": closed_schema.text()}, beyond=cached
        )
    }
    if "image_url" in kinds:
        image = closed_schema.closed_like(
            wire.ImageUrl,
            {"url": closed_schema.non_empty(long=True)},
            {"detail": closed_schema.literal(*IMAGE_DETAILS)},
        )
        choices["image_url"] = closed_schema.closed_like(
            wire.ImagePart, {"type": closed_schema.literal("image_url"), "image_url": image}, beyond=cached
        )
    if "file" in kinds:  # a document (a PDF) as OpenAI documents it: its data URL or Files-API id, a file name
        file = closed_schema.closed_like(
            wire.File,
            {},
            {"file_data": closed_schema.text(), "file_id": closed_schema.non_empty(), "filename": closed_schema.text()},
        )
        choices["file"] = closed_schema.closed_like(
            wire.FilePart, {"type": closed_schema.literal("file"), "file": file}, beyond=cached
        )
    return closed_schema.either(
        closed_schema.text(), cs.list_schema(closed_schema.tagged(choices, "type"), strict=True)
    )


SDK_NULLS = ("refusal", "function_call", "annotations", "audio")
"""What the OpenAI SDK's ``ChatCompletionMessage.model_dump()`` adds to an assistant message
it appends to the history, all ``null`` (and ``"name": null`` on any message): taken by the
closed schema as ``null`` only, which the reader keeps as spelling whatever their order
(:data:`~chatcodec._providers.kit.bags.NULLS_MARKER`, sorted), as after the full validation."""


def _message(shape: type, required: dict[str, cs.CoreSchema], name: cs.CoreSchema) -> cs.CoreSchema:
    """A message of the common shapes: its ``name`` (a field of the shape, or beyond it: a tool
    result's, the tool's name litellm's clients send; a participant's name on the others, or
    an SDK dump's ``null``), a message-level cache marker (an extra key of the full shapes,
    after their declared ones) an object."""
    name_field = {"name": name}
    if "name" in shape_fields(shape):
        return closed_schema.closed_like(
            shape, required, name_field, beyond={"cache_control": closed_schema.json_object()}
        )
    return closed_schema.closed_like(
        shape, required, beyond={**name_field, "cache_control": closed_schema.json_object()}
    )


def _messages() -> cs.CoreSchema:
    function = closed_schema.closed_like(  # the SDK's parse and stream helpers' ParsedFunction: its null
        wire.FunctionCall,
        {"name": closed_schema.text(), "arguments": closed_schema.text()},
        beyond={"parsed_arguments": cs.none_schema()},
    )
    call = closed_schema.closed_like(
        wire.ToolCall,
        {"id": closed_schema.text(), "type": closed_schema.literal("function"), "function": function},
        beyond={"index": cs.int_schema(strict=True)},  # the SDK's accumulated index, as OpenRouter sends it back
    )
    detail = closed_schema.closed_like(  # OpenRouter's reasoning details, sent back
        wire.ReasoningDetail,
        {},
        {
            **{key: closed_schema.text() for key in ("type", "text", "summary", "data", "signature", "format", "id")},
            "index": cs.int_schema(strict=True),
        },
    )
    typed_nulls = [key for key in SDK_NULLS if key in shape_fields(wire.AssistantMessage)]
    signed = closed_schema.closed_like(
        wire.ThinkingBlock,
        {"type": closed_schema.literal("thinking"), "thinking": closed_schema.text()},
        {"signature": closed_schema.text()},
    )
    redacted = closed_schema.closed_like(
        wire.RedactedThinkingBlock, {"type": closed_schema.literal("redacted_thinking"), "data": closed_schema.text()}
    )
    blocks = closed_schema.tagged({"thinking": signed, "redacted_thinking": redacted}, "type")
    assistant = closed_schema.closed_like(
        wire.AssistantMessage,
        {"role": closed_schema.literal("assistant")},
        {
            "content": cs.nullable_schema(_content(("text",))),  # a client's text parts too
            "reasoning_content": closed_schema.text(),
            "reasoning": closed_schema.text(),
            "reasoning_details": cs.list_schema(detail, strict=True, min_length=1),
            "thinking_blocks": cs.list_schema(blocks, strict=True, min_length=1),  # litellm's, sent back
            "tool_calls": cs.nullable_schema(cs.list_schema(call, strict=True)),  # the SDK dump's null, a client's []
            "name": cs.none_schema(),  # (a turn's name: the full shapes, whose reading reports it)
            **{key: _sdk_null(key) for key in typed_nulls},
        },
        beyond={
            **{key: _sdk_null(key) for key in SDK_NULLS if key not in typed_nulls},
            "provider_specific_fields": cs.none_schema(),  # litellm's Message.model_dump(), sent back: spelling
            "parsed": cs.none_schema(),  # the SDK's parse and stream helpers' message (ParsedChatCompletionMessage)
            "cache_control": closed_schema.json_object(),
        },
    )
    system, user = wire.SystemMessage, wire.UserMessage
    named = cs.nullable_schema(closed_schema.text())  # a participant's name, or an SDK dump's null
    choices = {
        "system": _message(system, {"role": closed_schema.literal("system"), "content": _content(("text",))}, named),
        "developer": _message(
            system, {"role": closed_schema.literal("developer"), "content": _content(("text",))}, named
        ),
        "user": _message(
            user, {"role": closed_schema.literal("user"), "content": _content(("text", "image_url", "file"))}, named
        ),
        "assistant": assistant,
        "tool": _message(
            wire.ToolMessage,
            {
                "role": closed_schema.literal("tool"),
                "tool_call_id": closed_schema.text(),
                "content": _content(("text", "image_url", "file")),  # a screenshot tool's image, a document
            },
            cs.nullable_schema(closed_schema.text()),  # the tool's name (litellm's clients), or an SDK dump's null
        ),
    }
    return cs.list_schema(closed_schema.tagged(choices, "role"), strict=True)


def _sdk_null(key: str) -> cs.CoreSchema:
    """An SDK dump's field that says nothing: ``null``, or ``[]`` where a list says nothing
    (:data:`SPELLED_EMPTY`: OpenAI answers every message with ``"annotations": []``, which the
    SDK's ``model_dump()`` keeps in the history)."""
    if key in SPELLED_EMPTY:
        return cs.nullable_schema(cs.list_schema(cs.any_schema(), strict=True, max_length=0))
    return cs.none_schema()


def _response_format() -> cs.CoreSchema:
    optional = {"description": closed_schema.text(), "schema": closed_schema.json_object(), "strict": strict_bool()}
    schema = closed_schema.closed_like(wire.JsonSchema, {"name": closed_schema.text()}, optional)
    return closed_schema.tagged(
        {
            "text": closed_schema.closed_like(wire.SimpleFormat, {"type": closed_schema.literal("text")}),
            "json_object": closed_schema.closed_like(wire.SimpleFormat, {"type": closed_schema.literal("json_object")}),
            "json_schema": closed_schema.closed_like(
                wire.JsonSchemaFormat, {"type": closed_schema.literal("json_schema"), "json_schema": schema}
            ),
        },
        "type",
    )


def _fields(json_input: bool) -> dict[str, cs.CoreSchema]:
    """The top-level fields :data:`COMMON_REQUEST` reads, besides ``messages``."""
    function = closed_schema.closed_like(
        wire.FunctionDefinition,
        {"name": closed_schema.non_empty()},
        {"description": closed_schema.text(), "parameters": closed_schema.json_object(), "strict": strict_bool()},
    )
    tool = closed_schema.closed_like(  # litellm's clients mark a tool for Anthropic's prompt cache: an extra key
        wire.FunctionTool,
        {"type": closed_schema.literal("function"), "function": function},
        beyond={"cache_control": closed_schema.json_object()},
    )
    chosen = closed_schema.closed_like(wire.NamedFunction, {"name": closed_schema.text()})
    named = closed_schema.closed_like(
        wire.NamedToolChoice, {"type": closed_schema.literal("function"), "function": chosen}
    )
    count = cs.int_schema(strict=True)
    return {
        "model": closed_schema.text(),
        "tools": cs.list_schema(tool, strict=True),
        "tool_choice": closed_schema.either(closed_schema.literal("auto", "none", "required"), named),
        "max_completion_tokens": count,
        "max_tokens": count,
        "temperature": closed_schema.number(json_input=json_input),
        "top_p": closed_schema.number(json_input=json_input),
        "frequency_penalty": closed_schema.number(json_input=json_input),
        "presence_penalty": closed_schema.number(json_input=json_input),
        "seed": count,
        "stop": closed_schema.either(closed_schema.text(), cs.list_schema(closed_schema.text(), strict=True)),
        "stream": strict_bool(),
        "parallel_tool_calls": strict_bool(),
        "metadata": closed_schema.json_object(),
        "reasoning_effort": closed_schema.text(),
        "response_format": _response_format(),
    }


def strict_bool() -> cs.CoreSchema:
    """``true`` or ``false``, nothing read as one."""
    return cs.bool_schema(strict=True)


def _request(json_input: bool) -> cs.CoreSchema:
    # fields with no canonical home (any JSON value) are kept in the request's bag
    fields = _fields(json_input)
    return closed_schema.closed_like(wire.Request, {"messages": _messages()}, fields, extra=True)


COMMON_REQUEST = closed_schema.LazyValidator(_request)
"""The common request shapes, for dicts and for JSON text or bytes."""

COMMON_MESSAGES = closed_schema.LazyValidator(lambda json_input: closed_schema.closed({"messages": _messages()}))
"""The common messages, as a request's ``messages`` (a bare list is validated as
``{"messages": [...]}``: the validator reads objects)."""
