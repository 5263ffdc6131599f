"""Error types by HTTP status, namespaced per codec (issue 64, item 6).

A wire whose error body is only ``{"message"}`` (Cohere's) says its type comes from the
HTTP status (``ErrorShape.typed_by_status``), and the ``ProviderAPIError`` read from it
carries the status and the codec. A codec registered from outside may name a type a
built-in names with another status: read with its codec, each type means what its own
codec says, and the built-in's meaning (and its laws) stay as they were."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pytest

import chatcodec
from chatcodec import Codec
from chatcodec._error_shapes import read_error
from chatcodec._error_statuses import error_status
from chatcodec._providers.contract.detection import Detection
from chatcodec._providers.contract.edge import Edge, ErrorShape, StreamFraming, read_nested_error

_OUTSIDE = "outside-messages"


def _write_error(message: str, status: int, kind: str) -> dict[str, Any]:
    return {"message": message}


class _OutsideCodec:
    """A codec holding only its name and edge: errors read nothing else of it."""

    name = _OUTSIDE
    edge = Edge(
        _OUTSIDE,
        response_name="an outside response",
        framing=StreamFraming(),
        errors=ErrorShape(
            {400: "bad_request", 422: "invalid_request_error", 429: "too_many_requests"},
            "internal_server_error",
            _write_error,
            read_nested_error,
            typed_by_status=True,
        ),
        detection=Detection(keys=("outside_only_key",), roles=("user", "assistant")),
    )


@pytest.fixture
def outside() -> Iterator[str]:
    chatcodec.register_codec(_OUTSIDE, lambda: cast("Codec", _OutsideCodec()))
    try:
        yield _OUTSIDE
    finally:
        chatcodec.unregister_codec(_OUTSIDE)


def test_a_message_only_error_gets_its_type_from_the_status(outside: str) -> None:
    error = read_error(outside, {"message": "Slow down"}, 429)
    assert (error.message, error.error_type, error.status_code, error.provider) == (
        "Slow down",
        "too_many_requests",
        429,
        outside,
    )
    unlisted = read_error(outside, {"message": "boom"}, 503)
    assert (unlisted.error_type, unlisted.status_code) == ("internal_server_error", 503)


def test_without_a_status_a_message_only_error_has_no_type(outside: str) -> None:
    error = read_error(outside, {"message": "boom"})
    assert (error.error_type, error.status_code) == (None, 500)


def test_a_shape_not_typed_by_status_invents_no_type() -> None:
    """Ollama's ``{"error": "..."}`` names no type and its shape says nothing of status."""
    error = read_error("ollama", {"error": "model not found"}, 404)
    assert (error.error_type, error.status_code, error.provider) == (None, 404, "ollama")


def test_an_outside_codecs_type_is_its_own_and_leaves_the_built_ins_alone(outside: str) -> None:
    """``invalid_request_error`` is a 400 for Anthropic and OpenAI, a 422 for the outside codec."""
    assert error_status("invalid_request_error", provider=outside) == 422
    assert error_status("invalid_request_error", provider="anthropic") == 400
    assert error_status("invalid_request_error") == 400  # read without its codec: the first registered meaning
    assert chatcodec.ProviderAPIError("m", "invalid_request_error", provider=outside).status_code == 422
    assert chatcodec.ProviderAPIError("m", "invalid_request_error").status_code == 400
    assert read_error(outside, {"message": "m"}, None, "invalid_request_error").status_code == 422
    assert (
        read_error(
            "anthropic", {"type": "error", "error": {"type": "invalid_request_error", "message": "m"}}
        ).status_code
        == 400
    )
