"""Error types by HTTP status, namespaced per codec (issue 64, item 6).

A wire whose error body is only ``{"message"}`` (Cohere's) says its type comes from the
HTTP status (``ErrorShape.typed_by_status``), and the ``ProviderAPIError`` read from it
carries the status and the codec. A codec registered from outside may name a type a
built-in names with another status: read with its codec, each type means what its own
codec says, and the built-in's meaning (and its laws) stay as they were."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

import chatcodec
from chatcodec import Codec
from chatcodec._error_shapes import read_error
from chatcodec._error_statuses import error_status
from chatcodec._providers._template import response as template_response
from chatcodec._providers.contract.detection import Detection
from chatcodec._providers.contract.edge import Edge, ErrorShape, StreamFraming, read_nested_error

_OUTSIDE = "outside-messages"
_FIXTURES = Path(__file__).parent / "fixtures"


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


def test_a_codecs_kit_makes_its_errors_in_its_own_namespace(outside: str) -> None:
    """``ProviderKit.api_error`` (``markers.KIT``): the error a codec's reader raises names
    the codec, so its type means what its own edge says (a 422 here, a 400 for OpenAI)."""
    from chatcodec.codec_kit import ProviderKit

    error = ProviderKit(outside).api_error("m", "invalid_request_error", {"message": "m"})
    assert (error.provider, error.error_type, error.status_code, error.body) == (
        outside,
        "invalid_request_error",
        422,
        {"message": "m"},
    )
    # the built-in's own kit: a new ProviderKit("openai-chat") would take its place for the rest of
    # the process, without its source keys (a later test in the worker read reasoning as data lost)
    from chatcodec._providers.openai_chat.markers import KIT

    assert KIT.api_error("m", "invalid_request_error").status_code == 400
    assert ProviderKit(outside).api_error("m", "too_many_requests", status_code=503).status_code == 503


def _recorded(provider: str, name: str) -> Any:
    return json.loads((_FIXTURES / provider / "response" / name).read_text(encoding="utf-8"))


_OPENAI_ERROR = {
    "message": "Invalid 'messages[1].role'",
    "type": "invalid_request_error",
    "param": "messages",
    "code": None,
}
"""The ``error`` object of OpenAI's error bodies (``{"error": {message, type, param, code}}``,
https://platform.openai.com/docs/guides/error-codes), as tests/providers/openai_chat has it."""


@pytest.mark.parametrize(
    ("provider", "body", "error_type", "status"),
    [
        ("anthropic", _recorded("anthropic", "error_400_orphan_tool_result.json"), "invalid_request_error", 400),
        ("openai-chat", {"error": _OPENAI_ERROR}, "invalid_request_error", 400),
        (
            "openai-responses",
            _recorded("openai-responses", "error_400_reasoning_without_following_item.json"),
            "invalid_request_error",
            400,
        ),
        ("gemini", _recorded("gemini", "error_404_model_not_found.json"), "NOT_FOUND", 404),
        ("gemini", _recorded("gemini", "error_400_invalid_argument_vertex.json"), "INVALID_ARGUMENT", 400),
        # A body with its ``code`` and no ``status``: the status is the code, not what "429" stands for.
        ("gemini", {"error": {"code": 429, "message": "Resource has been exhausted"}}, "429", 429),
        # Bodies that are only a message (the status came in the HTTP answer, which a body lacks).
        ("bedrock-converse", _recorded("bedrock-converse", "error_400_s3_not_supported.json"), None, None),
        ("bedrock-converse", {"message": "Rate exceeded", "__type": "ThrottlingException"}, "ThrottlingException", 429),
        ("bedrock-nova", {"message": "Malformed input request"}, None, None),
        ("ollama", _recorded("ollama", "error_model_failed.json"), None, None),
    ],
)
def test_a_built_in_decoder_names_its_codec_and_the_status_it_knows(
    provider: str, body: dict[str, Any], error_type: str | None, status: int | None
) -> None:
    """Each built-in decoder's ``ProviderAPIError`` says which codec read it (its types are
    read in that codec's namespace) and carries the status when the body gives it or its
    type stands for one."""
    with pytest.raises(chatcodec.ProviderAPIError) as raised:
        chatcodec.decode_response(provider, body)
    assert (raised.value.provider, raised.value.error_type, raised.value.status_code) == (provider, error_type, status)


def test_a_built_in_decoder_reads_a_type_in_its_own_namespace(outside: str) -> None:
    """An outside codec naming ``invalid_request_error`` a 422 changes nothing for Anthropic's."""
    with pytest.raises(chatcodec.ProviderAPIError) as raised:
        chatcodec.decode_response("anthropic", _recorded("anthropic", "error_400_orphan_tool_result.json"))
    assert (raised.value.provider, raised.value.status_code) == ("anthropic", 400)
    assert error_status("invalid_request_error", provider=outside) == 422


_ANTHROPIC_START: dict[str, Any] = {
    "type": "message_start",
    "message": {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 3, "output_tokens": 1},
    },
}


@pytest.mark.parametrize(
    ("provider", "events", "error_type", "status"),
    [
        # Anthropic's error event (https://docs.anthropic.com/en/api/messages-streaming#error-events).
        (
            "anthropic",
            [_ANTHROPIC_START, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}],
            "overloaded_error",
            529,
        ),
        # Bedrock's ConverseStream exception event (tests/providers/bedrock_converse has it too).
        (
            "bedrock-converse",
            [{"messageStart": {"role": "assistant"}}, {"throttlingException": {"message": "Too many requests"}}],
            "throttlingException",
            429,
        ),
    ],
)
def test_an_error_inside_a_codecs_stream_names_its_codec(
    provider: str, events: list[dict[str, Any]], error_type: str, status: int
) -> None:
    with pytest.raises(chatcodec.ProviderAPIError) as raised:
        chatcodec.accumulate_stream(provider, events)
    assert (raised.value.provider, raised.value.error_type, raised.value.status_code) == (provider, error_type, status)


def test_the_template_a_newcomer_copies_names_its_codec_on_its_errors() -> None:
    """The outside recipe keeps its types in its own namespace, so a copied codec's type
    cannot take a built-in's meaning (or the built-in's its)."""
    with pytest.raises(chatcodec.ProviderAPIError) as raised:
        template_response.raise_if_error({"error": {"message": "No such model", "type": "not_found"}})
    assert (raised.value.provider, raised.value.error_type) == ("template", "not_found")
