"""The edge as the core reaches it: through the registry, and never
another provider's facts standing in for a missing edge."""

from __future__ import annotations

from typing import Any, cast

import pytest

import chatcodec
from chatcodec import _detect as detect
from chatcodec._codec_protocols import Codec
from chatcodec._providers.contract.edge import Edge, ErrorShape, Front, StreamFraming
from chatcodec._registry import get_edge, get_framing


class _EdgelessCodec:
    """A codec a caller wrote with no edge: its HTTP facts are unknown."""

    name = "edgeless"

    def __getattr__(self, name: str) -> Any:
        return getattr(chatcodec.get_codec("openai-chat"), name) if name != "edge" else None


@pytest.fixture
def edgeless() -> Any:
    chatcodec.register_codec("edgeless", lambda: cast("Codec", _EdgelessCodec()))
    yield "edgeless"
    chatcodec.unregister_codec("edgeless")


def test_a_codec_without_an_edge_is_refused_not_given_another_providers_facts(edgeless: str) -> None:
    with pytest.raises(chatcodec.ProviderLookupError, match="has no edge"):
        chatcodec.error_body(edgeless, "boom", 500)
    with pytest.raises(chatcodec.ProviderLookupError, match="has no edge"):
        chatcodec.to_sse(edgeless, [{"a": 1}])
    with pytest.raises(chatcodec.ProviderLookupError, match="has no edge"):
        chatcodec.StreamConverter("openai-chat", edgeless)
    with pytest.raises(chatcodec.ProviderLookupError, match="has no edge"):
        chatcodec.read_error(edgeless, {"error": {"message": "m"}})


def test_canonical_has_no_edge() -> None:
    with pytest.raises(chatcodec.ProviderLookupError, match="'canonical' has no edge"):
        get_edge("canonical")


def test_a_codec_registered_under_another_name_brings_its_edge() -> None:
    chatcodec.register_codec("anthropic-gateway", lambda: chatcodec.get_codec("anthropic"))
    try:
        assert get_edge("anthropic-gateway") is get_edge("anthropic")
        assert chatcodec.error_body("anthropic-gateway", "m", 529)["error"]["type"] == "overloaded_error"
    finally:
        chatcodec.unregister_codec("anthropic-gateway")


@pytest.mark.parametrize("name", chatcodec.PROVIDER_NAMES)
def test_the_framing_a_stream_reads_without_the_edge_is_the_edges_own(name: str) -> None:
    """``get_framing`` reads a folder's ``stream_framing.py`` (a stream imports no edge);
    the edge holds that same object, so the framing is described once."""
    assert get_framing(name) is get_edge(name).framing


def test_a_codec_registered_under_a_built_in_name_brings_its_own_framing() -> None:
    chatcodec.register_codec("openai-chat", lambda: chatcodec.get_codec("anthropic"))
    try:
        assert get_framing("openai-chat") == StreamFraming("sse", named_events=True)
    finally:
        chatcodec.unregister_codec("openai-chat")
    assert get_framing("openai-chat").done == "[DONE]"


def test_detection_knows_the_formats_whose_edges_list_marks_and_canonical_last() -> None:
    known = detect.known_formats()
    assert known[-1] == detect.CANONICAL
    assert set(known[:-1]) == {name for name in chatcodec.registered_providers() if get_edge(name).detection}


def _flat_error(message: str, status: int, kind: str) -> dict[str, Any]:
    return {"error": message}


def _read_flat_error(body: object) -> tuple[str, str | None]:
    error = body.get("error") if isinstance(body, dict) else None
    return (error if isinstance(error, str) else ""), None


_JSON_LINES_EDGE = Edge(
    "json-lines-api",
    response_name="a JSON Lines response",
    framing=StreamFraming("jsonl"),
    errors=ErrorShape({}, "server_error", _flat_error, _read_flat_error),
    front=Front(("/api/chat",)),
)
"""An API that streams JSON Lines and answers errors as ``{"error": "..."}`` (as Ollama's
``/api/chat`` does: https://github.com/ollama/ollama/blob/main/docs/api.md)."""


class _JsonLinesCodec:
    name = "json-lines-api"
    edge = _JSON_LINES_EDGE

    def __getattr__(self, name: str) -> Any:
        return getattr(chatcodec.get_codec("openai-chat"), name)


def test_an_edge_describes_a_json_lines_api_with_a_flat_error_body() -> None:
    chatcodec.register_codec("json-lines-api", lambda: cast("Codec", _JsonLinesCodec()))
    try:
        assert "".join(chatcodec.to_sse("json-lines-api", [{"a": 1}, {"b": 2}])) == '{"a":1}\n{"b":2}\n'
        converter = chatcodec.StreamConverter("anthropic", "json-lines-api", on_loss="ignore")
        assert converter.media_type == "application/jsonl"
        written = converter.feed(b'event: ping\ndata: {"type":"ping"}\n\n') + converter.fail("upstream gone", 502)
        assert written.decode().splitlines()[-1] == '{"error":"upstream gone"}'
        assert chatcodec.error_body("json-lines-api", "no model", 404) == {"error": "no model"}
        assert chatcodec.read_error("json-lines-api", {"error": "no model"}, 404).message == "no model"
    finally:
        chatcodec.unregister_codec("json-lines-api")


def test_plain_part_readers_are_a_built_in_folders_own_and_no_one_elses(edgeless: str) -> None:
    """The dialect readers ask the registry for the openai-chat format's plain-part readers by
    name (the reader's own functions, loaded without its codec); a format without them, or one a
    caller registered, is refused rather than given another format's readers."""
    from chatcodec._providers.openai_chat import plain_parts
    from chatcodec._registry import get_plain_parts

    readers = get_plain_parts("openai-chat")
    assert readers.plain_call is plain_parts.plain_call
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    assert readers.plain_call(call) == plain_parts.plain_call(call)
    assert set(readers.STRING_FIELD_PARTS) == {"reasoning_content", "reasoning"}
    for name in ("canonical", edgeless, "anthropic"):
        with pytest.raises(chatcodec.ProviderLookupError, match="plain-part readers"):
            get_plain_parts(name)
