"""The validators of OpenAI Chat Completions' wire shapes (:mod:`.wire`): pydantic
``TypeAdapter``s, each built on first need, so importing the codec loads no pydantic. A
reader validates with the closed front schema first (:mod:`.common_shapes`) and asks these
for a shape it refuses, so errors name the wire path and rule."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from pydantic import JsonValue, TypeAdapter

    from chatcodec._providers.openai_chat.wire import Chunk, Message, Request, Response

ShapeT = TypeVar("ShapeT")


@cache
def request_adapter() -> TypeAdapter[Request]:
    """Validates a request body (any shape the wire allows; see :data:`COMMON_REQUEST`)."""
    from pydantic import TypeAdapter

    from chatcodec._providers.openai_chat.wire import Request

    return TypeAdapter(Request)


@cache
def messages_adapter() -> TypeAdapter[list[Message]]:
    """Validates a bare ``messages`` list (conversation logs without a request around them)."""
    from pydantic import TypeAdapter

    from chatcodec._providers.openai_chat.wire import Message

    return TypeAdapter(list[Message])


def fully_validated(adapter: TypeAdapter[ShapeT], payload: object, title: str) -> ShapeT:
    """``payload`` validated by a full wire ``adapter`` (errors name the wire path and
    rule), its ``Any`` values then checked as JSON values (:func:`json_adapter`), which
    refuses ``NaN`` and the infinities where it reads each number (and a value that holds
    itself): only a refused payload is then searched, so the refusal is named at its path in
    ``payload`` as ``validate_with`` names it (``refuse_unwritable_numbers``); a payload it
    takes is never written to JSON to look for one."""
    import pydantic_core

    from chatcodec.codec_kit import as_chatcodec_error, refuse_unwritable_numbers, validate_with

    if payload.__class__ is not dict and payload.__class__ is not list:  # JSON text: validate_with's own reading
        validated = validate_with(adapter, payload, title)
        validate_with(json_adapter(), payload, title)
        return validated
    try:
        validated = adapter.validate_python(payload)
    except pydantic_core.ValidationError as error:
        raise as_chatcodec_error(error, title, payload) from None
    try:
        json_adapter().validate_python(payload)
    except pydantic_core.ValidationError as error:
        refuse_unwritable_numbers(payload)  # a NaN, an infinity or a value holding itself: named at its path
        raise as_chatcodec_error(error, title, payload) from None
    return validated


@cache
def json_adapter() -> TypeAdapter[JsonValue]:
    """Validates JSON values as a canonical field holds them (pydantic's ``JsonValue``):
    what the wire shapes take as ``Any`` (unknown keys, schemas, metadata) a reader checks
    with it after them, so canonical data holds no other value, and none nested past
    what the canonical models read (refused as too deep, at its place in the payload), and no
    ``NaN`` or infinity (``finite_number``: :func:`fully_validated` names it at its path)."""
    from pydantic import ConfigDict, JsonValue, TypeAdapter

    return TypeAdapter(JsonValue, config=ConfigDict(allow_inf_nan=False))  # no JSON holds NaN or an infinity


@cache
def response_adapter() -> TypeAdapter[Response]:
    """Validates a ``chat.completion`` response body."""
    from pydantic import TypeAdapter

    from chatcodec._providers.openai_chat.wire import Response

    return TypeAdapter(Response)


@cache
def chunk_adapter() -> TypeAdapter[Chunk]:
    """Validates one ``chat.completion.chunk``."""
    from pydantic import TypeAdapter

    from chatcodec._providers.openai_chat.wire import Chunk

    return TypeAdapter(Chunk)
