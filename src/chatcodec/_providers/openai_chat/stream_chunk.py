"""The common ``chat.completion.chunk`` shapes as one closed pydantic-core schema: the
stream decoder checks a chunk its fast path leaves (the first, a tool call's
start, the finish, the usage chunk) with it, about half the wire adapter's cost, and
asks the wire adapter only when it refuses, so errors are the adapter's as ever; and an
error object inside a stream as the canonical error event.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, cast

import pydantic_core
from pydantic_core import core_schema as cs

from chatcodec import StreamError, ValidationError
from chatcodec._providers.openai_chat import wire
from chatcodec._providers.openai_chat.wire_validators import chunk_adapter
from chatcodec.codec_kit import as_dict, closed_schema, unwritable_number, validate_with
from chatcodec.contract import ErrorRecord

if TYPE_CHECKING:
    from chatcodec import PartEvent, Usage


def common_chunk(json_input: bool) -> cs.CoreSchema:
    """The common chunk shapes, closed: text, refusal and reasoning text, function-call
    fragments, a finish word, plain counts, the usual envelope. Every value it accepts the
    wire adapter accepts unchanged (strict types, the chunk ``object``, no unknown keys),
    so the chunk itself is what the adapter would have given, keys read in the same way."""
    maybe_text = cs.nullable_schema(closed_schema.text())
    count = cs.int_schema(strict=True, ge=0)
    function = closed_schema.closed_like(wire.FunctionDelta, {}, {"name": maybe_text, "arguments": maybe_text})
    fragment_fields = {"id": maybe_text, "type": maybe_text, "function": cs.nullable_schema(function)}
    fragment = closed_schema.closed_like(wire.ToolCallDelta, {"index": cs.int_schema(strict=True)}, fragment_fields)
    texts = {key: maybe_text for key in ("role", "content", "refusal", "reasoning_content", "reasoning")}
    calls = cs.nullable_schema(cs.list_schema(fragment, strict=True))
    delta = closed_schema.closed_like(wire.Delta, {}, {**texts, "tool_calls": calls})
    choice = closed_schema.closed_like(
        wire.ChunkChoice,
        {"index": count, "delta": delta},
        {"finish_reason": maybe_text},
        beyond={"logprobs": cs.none_schema()},
    )
    counts = {"prompt_tokens": cs.nullable_schema(count), "completion_tokens": cs.nullable_schema(count)}
    usage = closed_schema.closed_like(
        wire.Usage, {}, {**counts, "total_tokens": cs.nullable_schema(cs.int_schema(strict=True))}
    )
    envelope = {
        "id": closed_schema.text(),
        "object": closed_schema.literal("chat.completion.chunk"),
        "created": cs.int_schema(strict=True),
        "model": closed_schema.text(),
    }
    beyond = {"system_fingerprint": maybe_text, "service_tier": maybe_text}
    choices = {"choices": cs.list_schema(choice, strict=True)}
    return closed_schema.closed_like(
        wire.Chunk, choices, {**envelope, "usage": cs.nullable_schema(usage)}, beyond=beyond
    )


COMMON_CHUNK = closed_schema.LazyValidator(common_chunk)
"""Built on first use; about half the wire adapter's cost on a chunk the fast path leaves
(the first, a tool call's start, the finish, the usage chunk): a stream's fixed cost."""


def validated_chunk(event: dict[str, Any], event_index: int) -> dict[str, Any]:
    """``event`` as the wire adapter gives it back (the chunk itself when the closed schema
    accepts it), or the adapter's first error as a :class:`~chatcodec.StreamError` at
    ``event_index``."""
    if event.__class__ is dict:
        try:
            COMMON_CHUNK.python().validate_python(event)
            # Accepted: the adapter's copy would equal the chunk, its unknown keys (the
            # only ones the decoder iterates, through ``rest``) in the same order.
            return event
        except pydantic_core.ValidationError:
            pass  # a rarer shape, or an error: the wire adapter says which
    try:
        validated = cast("dict[str, Any]", chunk_adapter().validator.validate_python(event))  # the adapter's core
    except pydantic_core.ValidationError:
        pass
    else:
        found = unwritable_number(event)  # a float field of the wire shapes takes NaN; no JSON does
        if found is not None:
            raise StreamError(*found, event_index)
        return validated
    try:  # again, for chatcodec's error with its path
        validate_with(chunk_adapter(), event, "OpenAI Chat stream chunk")
    except ValidationError as error:
        detail = error.errors(include_url=False)[0]
        raise StreamError(f"{detail['msg']} [rule: {detail['type']}]", error.paths[0], event_index) from None
    raise AssertionError("unreachable: the adapter refused the chunk once")  # pragma: no cover


def error_event(error: object) -> ErrorRecord:
    """An ``error`` object inside a 200 stream (or an ``event: error``) as a canonical
    event: the same fields :func:`~chatcodec._providers.openai_chat.response.decode_response`
    reads from an error body."""
    fields = as_dict(error)
    if fields is not None:
        message = fields.get("message")
        kind = fields.get("type") or fields.get("code")
        return ErrorRecord(
            message=message if isinstance(message, str) else json.dumps(error),
            error_type=str(kind) if kind is not None else None,
            body=fields,
        )
    return ErrorRecord(message=str(error), body=error if isinstance(error, str | int | float | bool) else None)


def part_event(fields: dict[str, Any]) -> PartEvent:
    """A part that arrives whole, checked by its model where it arrives (reasoning that
    comes redacted or encrypted, a custom call): the rare events that load the models."""
    from chatcodec import PartEvent

    return PartEvent.model_validate(fields)


def usage_model(counts: dict[str, Any]) -> Usage:
    """Usage that is not plain counts, validated here, so a refusal is the same event error as ever."""
    from chatcodec import UsageEvent

    return UsageEvent.model_validate({"usage": counts}).usage
