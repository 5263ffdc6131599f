"""Validating canonical data, with chatcodec's errors: the core every layer above uses.

Codecs build canonical data by construction and validate it here; the API boundary
(:mod:`chatcodec._validation`) reads the accepted dialects first, then validates here too.
This module imports the canonical vocabulary only, never a provider or a dialect reader,
so validating canonical messages loads no codec (the import layers are
a law in ``tests/test_layers.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import pydantic_core

from chatcodec._errors import as_chatcodec_error
from chatcodec._payloads import parse_json, refuse_unwritable_numbers
from chatcodec._public_label import shown_as

if TYPE_CHECKING:  # only named: the models and adapters given are the caller's (a stream imports no pydantic)
    from pydantic import BaseModel, TypeAdapter

ModelT = TypeVar("ModelT", bound="BaseModel")
ValueT = TypeVar("ValueT")


def validate_with(adapter: TypeAdapter[ValueT], data: object, title: str) -> ValueT:
    """Validate ``data`` (Python, JSON text or bytes) with ``adapter``, as it is; Python
    data holding ``NaN`` or an infinity is refused at its path, as JSON text holding one
    is (:func:`~chatcodec._payloads.refuse_unwritable_numbers`: a wire shape's ``float``
    and ``Any`` take one, and no JSON can carry it on)."""
    try:
        if isinstance(data, str | bytes | bytearray):
            return adapter.validate_json(data)
        validated = adapter.validate_python(data)
    except pydantic_core.ValidationError as error:
        root = parse_json(data) if isinstance(data, str | bytes | bytearray) else data
        raise as_chatcodec_error(error, title, root) from None
    refuse_unwritable_numbers(data)
    return validated


def validate_canonical(model: type[ModelT], data: object) -> ModelT:
    """Validate canonical ``data`` as ``model``, reading no dialect (codecs build canonical data)."""
    try:
        if isinstance(data, str | bytes | bytearray):
            return model.model_validate_json(data)
        return model.model_validate(data)
    except pydantic_core.ValidationError as error:
        root = parse_json(data) if isinstance(data, str | bytes | bytearray) else data
        raise as_chatcodec_error(error, model.__name__, root) from None


shown_as("chatcodec.codec_kit", validate_canonical, validate_with)
