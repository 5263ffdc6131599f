"""The codec under test and the google-genai Interactions oracle.

The oracle is google-genai's own types for the API (``google.genai._gaos.types.interactions``,
first shipped in 3.6.1): a body chatcodec writes must parse as ``CreateModelInteraction``, an
answer as ``Interaction``, each stream event as ``InteractionSSEEvent``, with no ``Unknown*``
stand-in (the SDK's open unions keep a kind they do not know as one) anywhere in the parsed
object (the dev pin is 3.6.1).
"""

from __future__ import annotations

import importlib
from typing import Any

from pydantic import BaseModel, TypeAdapter

from chatcodec import ChatResponse
from chatcodec._losses import Loss, LossRecorder
from chatcodec.contract import ProviderCodec, StreamBuilder

CODEC = ProviderCodec.from_package("chatcodec._providers.gemini_interactions")
"""The folder's codec, built as the registry builds it (typed as the contract's ``ProviderCodec``,
whose roles these tests call directly)."""

TYPES: Any = importlib.import_module("google.genai._gaos.types.interactions")


def _unknowns(value: object, path: str = "$") -> list[str]:
    if isinstance(value, BaseModel):
        found = [path] if type(value).__name__.startswith("Unknown") else []
        for name, item in value.__dict__.items():  # the fields' values (a deprecated one without its warning)
            found += _unknowns(item, f"{path}.{name}")
        return found
    if isinstance(value, (list, tuple)):
        return [hit for index, item in enumerate(value) for hit in _unknowns(item, f"{path}[{index}]")]
    if isinstance(value, dict):
        return [hit for key, item in value.items() for hit in _unknowns(item, f"{path}.{key}")]
    return []


def sdk_checked(kind: str, body: dict[str, Any]) -> bool:
    """Parse ``body`` with the SDK's type ``kind``; fail on any ``Unknown*`` inside."""
    shape = getattr(TYPES, kind)
    parsed = TypeAdapter(shape).validate_python(body)
    unknown = _unknowns(parsed)
    assert not unknown, f"{kind} parsed with Unknown stand-ins at {unknown}"
    return True


def write_request(request: dict[str, Any]) -> tuple[dict[str, Any], list[Loss]]:
    """Canonical request data written as a body, and the losses reported."""
    losses = LossRecorder()
    return CODEC.write_request(request, losses), losses.losses


def write_response(response: dict[str, Any]) -> tuple[dict[str, Any], list[Loss]]:
    """Canonical response data written as an Interaction, and the losses reported."""
    losses = LossRecorder()
    return CODEC.write_response(response, losses), losses.losses


def accumulated(events: list[dict[str, Any]], *, partial: bool = False) -> ChatResponse:
    """The answer the stream's events build (the one accumulation path every codec uses)."""
    builder = StreamBuilder(emit=False)
    decoder = CODEC.stream_decoder(builder)
    decoder.read(events)
    decoder.close()
    if not partial:
        builder.refuse_cut("gemini-interactions")
    return builder.response(allow_errors=partial)


def encoded_stream(response: ChatResponse) -> tuple[list[dict[str, Any]], list[Loss]]:
    """A response replayed as canonical events, written as this wire's events."""
    from chatcodec.streams._replay import events_from_response

    losses = LossRecorder()
    return list(CODEC.encode_stream(events_from_response(response), losses)), losses.losses
