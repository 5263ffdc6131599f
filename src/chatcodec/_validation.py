"""Validating data at an API boundary, with chatcodec's errors.

Each function takes Python data, JSON text or bytes, reads the accepted dialects into
canonical data (:mod:`chatcodec._dialects.reader`), validates in one pass through pydantic-core,
and raises :class:`~chatcodec.ValidationError` whose paths point into the caller's input.
Data that is canonical by construction (codec output) is validated by
:mod:`chatcodec._canonical_validation`, which reads no dialect and loads no reader.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

import pydantic_core
from pydantic import BaseModel

from chatcodec._canonical_validation import validate_canonical
from chatcodec._dialects.base import DialectError
from chatcodec._dialects.reader import read_message, read_messages, read_request, read_response
from chatcodec._errors import PayloadError, as_chatcodec_error, rule_error
from chatcodec._model.messages import MESSAGE_ADAPTER, MESSAGES_ADAPTER, AnyMessage
from chatcodec._model.request import ChatRequest
from chatcodec._model.response import ChatResponse
from chatcodec._narrow import as_dict, as_list
from chatcodec._payloads import parse_json
from chatcodec._public_label import shown_as
from chatcodec._sdk_objects import sdk_json_items

if TYPE_CHECKING:
    from chatcodec._model.canonical_types import MessageData

ModelT = TypeVar("ModelT", bound=BaseModel)
ValueT = TypeVar("ValueT")

Reader = Callable[[object], Any]


def _read_then_validate(validate: Callable[[object], ValueT], reader: Reader, data: object, title: str) -> ValueT:
    """Read the dialects of ``data`` (parsed first when it is JSON), then validate."""
    root = _parsed(data)
    try:
        canonical = reader(root)
    except DialectError as error:
        raise rule_error(title, error.location, error.rule, error.message, error.value) from None
    try:
        return validate(canonical)
    except pydantic_core.ValidationError as error:
        raise as_chatcodec_error(error, title, root) from None


def _parsed(data: object) -> object:
    """``data`` parsed when it is JSON; bytes must be UTF-8, as pydantic-core reads them;
    SDK objects (the data itself, a list's items, a mapping's lists' items) become the
    JSON their server sent (:mod:`chatcodec._sdk_objects`)."""
    data = sdk_json_items(data)
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as error:
            raise PayloadError(f"not UTF-8 text: {error.reason} at byte {error.start}") from None
    return parse_json(data) if isinstance(data, str) else data


@cache
def _reader_for(model: type[BaseModel]) -> Reader | None:
    if issubclass(model, ChatRequest):
        return read_request
    if issubclass(model, ChatResponse):
        return read_response
    return None


def validate_model(model: type[ModelT], data: object) -> ModelT:
    """Validate ``data`` as ``model`` (any canonical class), with chatcodec's errors.

    A ``ChatRequest`` or ``ChatResponse`` given as a mapping may use the accepted input
    shapes (:mod:`chatcodec._dialects.reader`); other models take canonical data only.
    """
    reader = _reader_for(model)
    if reader is None:
        return validate_canonical(model, sdk_json_items(data))
    return _read_then_validate(model.model_validate, reader, data, model.__name__)


def validate_messages(data: object) -> list[AnyMessage]:
    """Validate a conversation: a list of messages in any accepted shape, or a stored Vercel
    AI SDK ``UIMessage[]`` (read by the ``ai-sdk-ui`` format: an assistant ``UIMessage`` is
    several canonical messages, so it is read as a whole list, not message by message)."""
    return _read_then_validate(MESSAGES_ADAPTER.validate_python, _read_conversation, data, "Messages")


_UI_FORMAT = "ai-sdk-ui"
"""The framework format whose message lists :func:`validate_messages` also reads."""


def _read_conversation(data: object) -> Any:
    """``data`` read as the dialects are, or as ``UIMessage[]`` when its first message is one
    (an ``id`` and ``parts``, no ``content``: no canonical or provider message looks so)."""
    listed = as_list(data)
    first = as_dict(listed[0]) if listed else None
    if listed and first is not None and "parts" in first and "id" in first and "content" not in first:
        from chatcodec._registry import SupportsMessageDecoding, get_codec

        codec = get_codec(_UI_FORMAT)
        assert isinstance(codec, SupportsMessageDecoding)
        messages: list[dict[str, Any]] = listed  # each checked as a UIMessage by the format's validator
        return codec.decode_messages(messages)
    return read_messages(data)


def validate_message(data: object) -> AnyMessage:
    """Validate one message of any role, in any accepted shape."""
    return _read_then_validate(MESSAGE_ADAPTER.validate_python, read_message, data, "Message")


def dump_messages(messages: list[AnyMessage], **options: Any) -> list[MessageData]:
    """Canonical JSON-ready dicts for ``messages``, typed as :data:`~chatcodec.MessageData`
    (``message["role"] == "tool"`` narrows to a tool message's keys). ``model_dump`` options
    pass through (``context={"content_form": "list"}``); one that leaves keys out
    (``exclude=...``) gives dicts the type no longer describes."""
    dumped: list[MessageData] = MESSAGES_ADAPTER.dump_python(messages, mode="json", **options)
    return dumped


shown_as("chatcodec", dump_messages, validate_message, validate_messages, validate_model)
