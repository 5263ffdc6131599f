"""Reading a body into canonical data, and the door where a model is built from it: a value
nested too deeply, or a number JSON cannot write, refused at its place in the input; what
a reader without a closed front kept, checked the canonical model would hold it.
(:class:`~chatcodec._providers.contract.provider_codec.ProviderCodec`'s readers.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import pydantic_core

from chatcodec._errors import ValidationError
from chatcodec._payloads import refuse_unwritable_numbers, too_deep
from chatcodec._providers.contract.context import DecodeContext
from chatcodec._providers.kit.depth_guard import refused, too_deep_error

if TYPE_CHECKING:  # a codec loads no canonical model until one is asked for (first use)
    from chatcodec._model.request import ChatRequest
    from chatcodec._model.response import ChatResponse

InputT = TypeVar("InputT")
ResultT = TypeVar("ResultT")
ModelT = TypeVar("ModelT", "ChatRequest", "ChatResponse")


def validated(
    model: type[ModelT], read: Callable[[dict[str, Any]], dict[str, Any]]
) -> Callable[[dict[str, Any], DecodeContext], ModelT]:
    """A decode that reads canonical data with ``read`` and validates it as ``model``
    (the door where a model is built: errors name the canonical place)."""
    from chatcodec._canonical_validation import validate_canonical

    def decode(payload: dict[str, Any], context: DecodeContext) -> ModelT:
        del context  # ``read`` builds its own
        return validate_canonical(model, read(payload))

    return decode


def held(
    canonical: dict[str, Any],
    decode: Callable[[dict[str, Any]], object],
    fields: dict[str, Any],
    model: type[ChatRequest] | None = None,
) -> dict[str, Any]:
    """``canonical``, once it is sure the canonical model would hold it, so a conversion
    refuses what ``decode_*`` refuses: a reader builds no model, and where it keeps a
    value whole (a bag, a tool schema, Bedrock's ``outputConfig``) a value nested past
    pydantic-core's depth limit, or a Python object that is not JSON, passed the reader;
    with ``model``, any value the model refuses too (a ``maxTokens: 0`` an outside codec's
    reader passed on). pydantic-core writes ``canonical`` first (its depth limit is a few
    levels stricter than validation's), then ``model`` validates it; only when either
    refuses is ``decode(fields)`` asked, which raises as ``decode_*`` does (the route into
    the deepest value). Each costs a quarter of a plain agent session's conversion, so a
    provider's reader asks only for a body its closed front did not take
    (``DecodeContext.closed``); a response is written, always."""
    try:
        pydantic_core.to_json(canonical)
        if model is not None:
            model.model_validate(canonical)
    except (pydantic_core.PydanticSerializationError, ValueError, RecursionError):  # a ValidationError is a ValueError
        decode(fields)
    return canonical


def reading(decode: Callable[[InputT, DecodeContext], ResultT], payload: InputT, context: DecodeContext) -> ResultT:
    """``decode(payload)``, with a value nested too deeply for Python or for pydantic
    refused at its place in ``payload``.

    pydantic-core refuses a value nested past its depth limit only when the canonical
    model is built, at the value's canonical place (``provider_metadata[...]``), which the
    input does not have; the route into the input's deepest value is where it is."""
    try:
        return decode(payload, context)
    except RecursionError:
        raise too_deep(payload) from None
    except ValidationError as error:
        if too_deep_error(error):
            raise too_deep(payload) from None
        if refused(error, "finite_number"):  # a NaN the wire shapes took as a value: named where it is
            refuse_unwritable_numbers(payload)
        raise
