"""Laws: each side of the one-pass path, alone, agrees with the general path (issue 25 item 6).

``test_one_pass.py`` checks pairs (a source's decode side feeding a target's encode side).
These laws check each side on its own, so a side is held to the general path whatever it
is paired with, and a provider with only one side is checked too:

- **decode side**: when ``decode_request(payload)`` gives a canonical request dict, the
  general decoder accepts the payload and its :class:`~chatcodec.ChatRequest` is the one
  the dict validates to (compared as models and as JSON, so ``1`` against ``1.0`` counts);
- **encode side**: when ``encode_request(request, losses)`` writes a body for a canonical
  request dict, the general encoder writes the same body (as JSON text) with the same
  losses in the same order, and does not refuse the request.

A side may always decline (``None``); an exception inside a side is a decline too, as
:func:`chatcodec.one_pass.convert_request` treats it. The last tests make sure each side
takes some recorded requests, so the laws are not met only by declining.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic_core import PydanticSerializationError

import chatcodec
from chatcodec.losses import LossRecorder
from chatcodec.registry import get_one_pass
from conformance.mutations import mutated
from conformance.one_pass_requests import REQUESTS
from conformance.providers import PROVIDER, PROVIDER_NAMES


def _sides(function: str) -> list[str]:
    return [name for name in PROVIDER_NAMES if hasattr(get_one_pass(name), function)]


DECODERS = _sides("decode_request")
ENCODERS = _sides("encode_request")


def _one_pass_decoded(source: str, payload: object) -> dict[str, Any] | None:
    try:
        decoded: dict[str, Any] | None = get_one_pass(source).decode_request(payload)
    except Exception:  # a decline, as chatcodec.one_pass.convert_request takes it
        return None
    return decoded


def _assert_decodes_as_general(source: str, payload: object) -> bool:
    """The decode law on one payload; whether the one pass took it."""
    decoded = _one_pass_decoded(source, copy.deepcopy(payload))
    if decoded is None:
        return False
    general = chatcodec.decode_request(source, payload)  # must not refuse what the one pass took
    typed = chatcodec.ChatRequest.model_validate(decoded)
    assert typed == general
    assert _as_json(typed) == _as_json(general)
    return True


def _as_json(request: chatcodec.ChatRequest) -> str:
    """The request as JSON text, or the serializer's refusal (a value nested past
    pydantic-core's serialization depth validates but does not serialize: the two
    requests must then be refused alike)."""
    try:
        return request.model_dump_json()
    except PydanticSerializationError as error:
        return f"refused: {error}"


def _forms(payload: dict[str, Any]) -> list[object]:
    text = json.dumps(payload)
    return [payload, text, text.encode()]


@pytest.mark.parametrize("source", DECODERS)
def test_decode_side_equals_the_general_decoder_on_recorded_requests(source: str) -> None:
    provider = PROVIDER[source]
    taken = 0
    for name in provider.recorded["request"]:
        for payload in _forms(provider.load("request", name)):
            taken += _assert_decodes_as_general(source, payload)
    assert taken, f"the {source} one-pass decoder takes no recorded request"


SIDE_SETTINGS = settings(
    max_examples=max(60, settings.default.max_examples),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.parametrize("source", DECODERS)
@SIDE_SETTINGS
@given(data=st.data())
def test_decode_side_equals_the_general_decoder_on_mutated_requests(source: str, data: st.DataObject) -> None:
    provider = PROVIDER[source]
    name = data.draw(st.sampled_from(provider.recorded["request"]))
    payload = data.draw(mutated(provider.load("request", name)))
    try:
        text = json.dumps(payload)
    except (ValueError, RecursionError):
        text = None
    for form in [payload] if text is None else [payload, text]:
        try:
            _assert_decodes_as_general(source, form)
        except chatcodec.ChatcodecError as error:
            pytest.fail(f"the one pass took a payload the general decoder refuses: {error}")


@pytest.mark.parametrize("source", DECODERS)
@SIDE_SETTINGS
@given(request=REQUESTS)
def test_decode_side_equals_the_general_decoder_on_generated_requests(
    source: str, request: chatcodec.ChatRequest
) -> None:
    try:
        payload = chatcodec.encode_request(source, request, on_loss="ignore")
    except chatcodec.ChatcodecError:
        return  # a request the source format cannot write
    for form in _forms(payload):
        _assert_decodes_as_general(source, form)


def _general_encoded(target: str, request: chatcodec.ChatRequest) -> tuple[Any, ...]:
    losses: list[chatcodec.Loss] = []
    try:
        body = chatcodec.encode_request(target, request, on_loss="ignore", losses=losses)
    except chatcodec.ChatcodecError as error:
        return ("error", type(error).__name__, str(error))
    return ("body", json.dumps(body), losses)


def _assert_encodes_as_general(target: str, canonical: dict[str, Any]) -> bool:
    """The encode law on one canonical request dict; whether the one pass took it."""
    request = chatcodec.ChatRequest.model_validate(canonical)
    recorder = LossRecorder()
    try:
        body = get_one_pass(target).encode_request(copy.deepcopy(canonical), recorder)
    except Exception:  # a decline, as chatcodec.one_pass.convert_request takes it
        return False
    if body is None:
        return False
    losses: list[chatcodec.Loss] = []
    recorder.settle("ignore", losses)
    assert ("body", json.dumps(body), losses) == _general_encoded(target, request)
    return True


def _recorded_canonical() -> list[dict[str, Any]]:
    """Every provider's recorded requests as canonical dicts: as the general decoder's
    model dumps them, and as each one-pass decoder gives them (what a pair hands over)."""
    canonical: list[dict[str, Any]] = []
    for source in PROVIDER_NAMES:
        provider = PROVIDER[source]
        for name in provider.recorded["request"]:
            payload = provider.load("request", name)
            canonical.append(chatcodec.decode_request(source, payload).model_dump(exclude_unset=True))
            decoded = _one_pass_decoded(source, payload) if source in DECODERS else None
            if decoded is not None:
                canonical.append(decoded)
    return canonical


@pytest.mark.parametrize("target", ENCODERS)
def test_encode_side_equals_the_general_encoder_on_recorded_requests(target: str) -> None:
    taken = sum(_assert_encodes_as_general(target, canonical) for canonical in _recorded_canonical())
    assert taken, f"the {target} one-pass encoder takes no recorded request"


@pytest.mark.parametrize("target", ENCODERS)
@SIDE_SETTINGS
@given(request=REQUESTS)
def test_encode_side_equals_the_general_encoder_on_generated_requests(
    target: str, request: chatcodec.ChatRequest
) -> None:
    explicit = request.model_dump(exclude_none=True)  # every tag written: an unset default tag is not dumped
    _assert_encodes_as_general(target, explicit)
    _assert_encodes_as_general(target, chatcodec.ChatRequest.model_validate(explicit).model_dump(exclude_unset=True))
