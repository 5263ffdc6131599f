"""Validating canonical data at an API boundary, with chatcodec's errors.

Each function takes Python data, JSON text or bytes, validates in one pass through
pydantic-core, and raises :class:`~chatcodec.ValidationError` whose paths point into
the caller's input.
"""

from __future__ import annotations

from typing import Any, TypeVar

import pydantic_core
from pydantic import BaseModel, TypeAdapter

from chatcodec.errors import as_chatcodec_error
from chatcodec.messages import MESSAGE_ADAPTER, MESSAGES_ADAPTER, AnyMessage
from chatcodec.payloads import parse_json

ModelT = TypeVar("ModelT", bound=BaseModel)
ValueT = TypeVar("ValueT")


def validate_with(adapter: TypeAdapter[ValueT], data: object, title: str) -> ValueT:
    """Validate ``data`` (Python, JSON text or bytes) with ``adapter``."""
    try:
        if isinstance(data, str | bytes | bytearray):
            return adapter.validate_json(data)
        return adapter.validate_python(data)
    except pydantic_core.ValidationError as error:
        root = parse_json(data) if isinstance(data, str | bytes | bytearray) else data
        raise as_chatcodec_error(error, title, root) from None


def validate_model(model: type[ModelT], data: object) -> ModelT:
    """Validate ``data`` as ``model`` (any canonical class), with chatcodec's errors."""
    try:
        if isinstance(data, str | bytes | bytearray):
            return model.model_validate_json(data)
        return model.model_validate(data)
    except pydantic_core.ValidationError as error:
        root = parse_json(data) if isinstance(data, str | bytes | bytearray) else data
        raise as_chatcodec_error(error, model.__name__, root) from None


def validate_messages(data: object) -> list[AnyMessage]:
    """Validate a conversation: a list of messages in any accepted shape."""
    return validate_with(MESSAGES_ADAPTER, data, "Messages")


def validate_message(data: object) -> AnyMessage:
    """Validate one message of any role."""
    return validate_with(MESSAGE_ADAPTER, data, "Message")


def dump_messages(messages: list[AnyMessage], **options: Any) -> list[dict[str, Any]]:
    """Canonical JSON-ready dicts for ``messages`` (``model_dump`` options pass through)."""
    dumped: list[dict[str, Any]] = MESSAGES_ADAPTER.dump_python(messages, mode="json", **options)
    return dumped
