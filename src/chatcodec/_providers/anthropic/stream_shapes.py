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
from chatcodec.codec_kit import closed_schema as sc


def _maybe(schema: cs.CoreSchema) -> cs.CoreSchema:
    return cs.nullable_schema(schema)


def _usage() -> cs.CoreSchema:
    count = _maybe(cs.int_schema(strict=True, ge=0))  # wire.Count | None
    details = sc.closed_like(wire.OutputTokensDetails, {}, {"thinking_tokens": count}, extra=True)
    counts = {
        "input_tokens": count,
        "output_tokens": count,
        "cache_creation_input_tokens": count,
        "cache_read_input_tokens": count,
        "output_tokens_details": _maybe(details),
    }
    return sc.closed_like(wire.Usage, {}, counts, extra=True)


def _blocks() -> cs.CoreSchema:
    """The blocks a stream starts: text, thinking and client tool calls (any other type,
    a server tool's block included, is the wire adapter's)."""
    cache = {
        "cache_control": _maybe(sc.closed_like(wire.CacheControl, {"type": sc.text()}, {"ttl": sc.text()}, extra=True))
    }
    citations = {"citations": _maybe(cs.list_schema(sc.json_object(), strict=True))}
    choices = {
        "text": sc.closed_like(
            wire.TextBlock,
            {"type": sc.literal("text"), "text": sc.text()},
            {**cache, **citations},
            extra=True,
        ),
        "thinking": sc.closed_like(
            wire.ThinkingBlock,
            {"type": sc.literal("thinking"), "thinking": sc.text()},
            {"signature": sc.text()},
            extra=True,
        ),
        "tool_use": sc.closed_like(
            wire.ToolUseBlock,
            {
                "type": sc.literal("tool_use"),
                "id": sc.text(),
                "name": sc.text(),
                "input": sc.json_object(),
            },
            cache,
            extra=True,
        ),
    }
    return sc.tagged(choices, "type")


def common_event(json_input: bool) -> cs.CoreSchema:
    """The common event shapes by ``type`` (see the module docstring)."""
    del json_input  # events are read from dicts: one form serves
    index = cs.int_schema(strict=True, ge=0)  # wire.BlockIndex
    maybe_text = _maybe(sc.text())
    blocks = _blocks()
    message = sc.closed_like(
        wire.Response,
        {"content": cs.list_schema(blocks, strict=True)},
        {
            "id": maybe_text,
            "type": sc.text(),
            "role": sc.text(),
            "model": maybe_text,
            "stop_reason": maybe_text,
            "stop_sequence": maybe_text,
            "usage": _maybe(_usage()),
        },
        extra=True,
    )
    deltas = {key: sc.text() for key in ("text", "partial_json", "thinking", "signature")}
    delta = sc.closed_like(wire.Delta, {"type": sc.text()}, {**deltas, "citation": sc.json_object()}, extra=True)
    late = sc.closed_like(
        wire.MessageDeltaFields, {}, {"stop_reason": maybe_text, "stop_sequence": maybe_text}, extra=True
    )
    error = sc.closed_like(wire.ErrorObject, {}, {"type": sc.text(), "message": sc.text()}, extra=True)
    choices = {
        "message_start": sc.closed_like(
            wire.MessageStart, {"type": sc.literal("message_start"), "message": message}, extra=True
        ),
        "content_block_start": sc.closed_like(
            wire.BlockStart,
            {"type": sc.literal("content_block_start"), "index": index, "content_block": blocks},
            extra=True,
        ),
        "content_block_delta": sc.closed_like(
            wire.BlockDelta,
            {"type": sc.literal("content_block_delta"), "index": index, "delta": delta},
            extra=True,
        ),
        "message_delta": sc.closed_like(
            wire.MessageDelta,
            {"type": sc.literal("message_delta"), "delta": late},
            {"usage": _maybe(_usage())},
            extra=True,
        ),
        "error": sc.closed_like(wire.ErrorBody, {"type": sc.literal("error"), "error": error}, extra=True),
    }
    return sc.tagged(choices, "type")


COMMON_EVENT = sc.LazyValidator(common_event)
"""The common events' validator, built on a stream's first event that needs it."""
