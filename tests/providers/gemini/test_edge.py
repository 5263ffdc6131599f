"""The Gemini API on HTTP: its edge's facts (``_providers/gemini/edge.py``)."""

from __future__ import annotations

import pytest

import chatcodec
from chatcodec._providers.contract.edge import RouteError
from chatcodec._registry import get_edge

EDGE = get_edge("gemini")


def test_the_model_and_the_stream_flag_are_in_the_path() -> None:
    assert EDGE.front is not None
    assert EDGE.front.routes == ("/v1beta/models/{target}", "/v1/models/{target}")
    call = EDGE.front.read_call({"contents": []}, "gemini-2.5-flash:streamGenerateContent", {"alt": "sse"})
    assert (call.payload["model"], call.model, call.stream, call.framing) == (
        "gemini-2.5-flash",
        "gemini-2.5-flash",
        True,
        "sse",
    )
    assert EDGE.front.read_call({}, "m:streamGenerateContent", {}).framing == "json-array"
    assert EDGE.front.read_call({}, "m:generateContent", {}).stream is False
    with pytest.raises(RouteError, match="countTokens"):
        EDGE.front.read_call({}, "m:countTokens", {})


def test_the_caller_key_is_x_goog_api_key_or_the_key_query() -> None:
    assert EDGE.front is not None
    assert EDGE.front.caller_key({"x-goog-api-key": "k1"}, {"key": "k2"}) == "k1"
    assert EDGE.front.caller_key({}, {"key": "k2"}) == "k2"


def test_the_upstream_url_carries_the_model_and_the_body_does_not() -> None:
    assert EDGE.upstream is not None
    base = "https://generativelanguage.googleapis.com"
    assert EDGE.upstream.url(base, "models/gemini-2.5-flash", True) == (
        f"{base}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    )
    assert EDGE.upstream.url(base, "a/b", False) == f"{base}/v1beta/models/a%2Fb:generateContent"
    assert EDGE.upstream.body({"model": "m", "stream": True, "contents": []}, True) == {"contents": []}
    assert EDGE.upstream.headers("k", {}) == {"x-goog-api-key": "k"}
    assert EDGE.upstream.headers(None, {}) == {}


def test_sse_lines_end_with_crlf_and_an_array_error_is_read() -> None:
    assert "".join(chatcodec.to_sse("gemini", [{"a": 1}])) == 'data: {"a":1}\r\n\r\n'
    body = chatcodec.error_body("gemini", "quota", 429)
    assert body == {"error": {"code": 429, "message": "quota", "status": "RESOURCE_EXHAUSTED"}}
    error = chatcodec.read_error("gemini", [body])
    assert (error.message, error.error_type, error.status_code) == ("quota", "RESOURCE_EXHAUSTED", 429)
