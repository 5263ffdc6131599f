"""The common Messages stream events as one pydantic-core schema, built on first use: the
stream decoder checks an event its fast path leaves (the message's start, a block's start,
a signature, the message's delta, an error) with it, and asks the wire adapters
(``wire.BlockStart`` ...) only when it refuses, so errors are the adapters' as ever.

A stream's first events otherwise built a ``TypeAdapter`` of each event's ``TypedDict``
(the whole block union inside ``message_start`` and ``content_block_start``): pydantic's
schema generation for them was most of a first stream's conversion (issue 60). Every
event this accepts the wire adapters accept: each object here types the fields its shape
types, as the shape types them (a text block's ``citations``, a usage's
``output_tokens_details``), and takes any other key only holding a JSON value, where the
shape takes any value. The decoder reads the event itself either way (it keeps no copy).
"""

from __future__ import annotations

from pydantic_core import core_schema as cs

from chatcodec._providers.anthropic import wire
from chatcodec.contract import closed_schema


def _maybe(schema: cs.CoreSchema) -> cs.CoreSchema:
    return cs.nullable_schema(schema)


def _usage() -> cs.CoreSchema:
    count = _maybe(cs.int_schema(strict=True, ge=0))  # wire.Count | None
    details = closed_schema.closed_like(wire.OutputTokensDetails, {}, {"thinking_tokens": count}, extra=True)
    counts = {
        "input_tokens": count,
        "output_tokens": count,
        "cache_creation_input_tokens": count,
        "cache_read_input_tokens": count,
        "output_tokens_details": _maybe(details),
    }
    return closed_schema.closed_like(wire.Usage, {}, counts, extra=True)


def _blocks() -> cs.CoreSchema:
    """The blocks a stream starts: text, thinking and client tool calls (any other type,
    a server tool's block included, is the wire adapter's)."""
    cache = {
        "cache_control": _maybe(
            closed_schema.closed_like(
                wire.CacheControl, {"type": closed_schema.text()}, {"ttl": closed_schema.text()}, extra=True
            )
        )
    }
    citations = {"citations": _maybe(cs.list_schema(closed_schema.json_object(), strict=True))}
    choices = {
        "text": closed_schema.closed_like(
            wire.TextBlock,
            {"type": closed_schema.literal("text"), "text": closed_schema.text()},
            {**cache, **citations},
            extra=True,
        ),
        "thinking": closed_schema.closed_like(
            wire.ThinkingBlock,
            {"type": closed_schema.literal("thinking"), "thinking": closed_schema.text()},
            {"signature": closed_schema.text()},
            extra=True,
        ),
        "tool_use": closed_schema.closed_like(
            wire.ToolUseBlock,
            {
                "type": closed_schema.literal("tool_use"),
                "id": closed_schema.text(),
                "name": closed_schema.text(),
                "input": closed_schema.json_object(),
            },
            cache,
            extra=True,
        ),
    }
    return closed_schema.tagged(choices, "type")


def common_event(json_input: bool) -> cs.CoreSchema:
    """The common event shapes by ``type`` (see the module docstring)."""
    del json_input  # events are read from dicts: one form serves
    index = cs.int_schema(strict=True, ge=0)  # wire.BlockIndex
    maybe_text = _maybe(closed_schema.text())
    blocks = _blocks()
    message = closed_schema.closed_like(
        wire.Response,
        {"content": cs.list_schema(blocks, strict=True)},
        {
            "id": maybe_text,
            "type": closed_schema.text(),
            "role": closed_schema.text(),
            "model": maybe_text,
            "stop_reason": maybe_text,
            "stop_sequence": maybe_text,
            "usage": _maybe(_usage()),
        },
        extra=True,
    )
    deltas = {key: closed_schema.text() for key in ("text", "partial_json", "thinking", "signature")}
    delta = closed_schema.closed_like(
        wire.Delta, {"type": closed_schema.text()}, {**deltas, "citation": closed_schema.json_object()}, extra=True
    )
    late = closed_schema.closed_like(
        wire.MessageDeltaFields, {}, {"stop_reason": maybe_text, "stop_sequence": maybe_text}, extra=True
    )
    error = closed_schema.closed_like(
        wire.ErrorObject, {}, {"type": closed_schema.text(), "message": closed_schema.text()}, extra=True
    )
    choices = {
        "message_start": closed_schema.closed_like(
            wire.MessageStart, {"type": closed_schema.literal("message_start"), "message": message}, extra=True
        ),
        "content_block_start": closed_schema.closed_like(
            wire.BlockStart,
            {"type": closed_schema.literal("content_block_start"), "index": index, "content_block": blocks},
            extra=True,
        ),
        "content_block_delta": closed_schema.closed_like(
            wire.BlockDelta,
            {"type": closed_schema.literal("content_block_delta"), "index": index, "delta": delta},
            extra=True,
        ),
        "message_delta": closed_schema.closed_like(
            wire.MessageDelta,
            {"type": closed_schema.literal("message_delta"), "delta": late},
            {"usage": _maybe(_usage())},
            extra=True,
        ),
        "error": closed_schema.closed_like(
            wire.ErrorBody, {"type": closed_schema.literal("error"), "error": error}, extra=True
        ),
    }
    return closed_schema.tagged(choices, "type")


COMMON_EVENT = closed_schema.LazyValidator(common_event)
"""The common events' validator, built on a stream's first event that needs it."""
