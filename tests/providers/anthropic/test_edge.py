"""The Anthropic Messages API on HTTP: its edge's facts (``_providers/anthropic/edge.py``)."""

from __future__ import annotations

import chatcodec
from chatcodec._providers.anthropic.rules import RULES
from chatcodec._registry import get_edge

EDGE = get_edge("anthropic")


def test_the_caller_key_is_x_api_key_or_a_bearer_token() -> None:
    assert EDGE.front is not None
    assert EDGE.front.routes == ("/v1/messages",)
    assert EDGE.front.caller_key({"x-api-key": "k1", "authorization": "Bearer k2"}, {}) == "k1"
    assert EDGE.front.caller_key({"authorization": "Bearer k2"}, {}) == "k2"


def test_every_upstream_request_carries_an_api_version_and_the_callers_beta() -> None:
    assert EDGE.upstream is not None
    assert EDGE.upstream.url("https://api.anthropic.com", "claude", True) == "https://api.anthropic.com/v1/messages"
    assert EDGE.upstream.headers("k", {}) == {"anthropic-version": RULES.default_version, "x-api-key": "k"}
    caller = {"anthropic-version": "2026-10-21", "anthropic-beta": "b1", "openai-project": "p"}
    assert EDGE.upstream.headers(None, caller) == {"anthropic-version": "2026-10-21", "anthropic-beta": "b1"}
    assert EDGE.upstream.body({"model": "claude"}, True) == {"model": "claude", "stream": True}


def test_events_are_named_and_an_overload_is_a_529() -> None:
    assert "".join(chatcodec.to_sse("anthropic", [{"type": "ping"}])) == 'event: ping\ndata: {"type":"ping"}\n\n'
    assert chatcodec.error_body("anthropic", "busy", 529) == {
        "type": "error",
        "error": {"type": "overloaded_error", "message": "busy"},
    }
    assert chatcodec.error_event("anthropic", "busy", 529) == chatcodec.error_body("anthropic", "busy", 529)


def test_strict_reading_takes_the_sampling_parameters_of_2023_06_01() -> None:
    versioned = [row for row in EDGE.extensions if row.api_version == "2023-06-01"]
    assert {field for row in versioned for field in row.fields} == {"temperature", "top_p", "top_k"}


def test_the_default_api_version_is_the_one_the_writer_applies() -> None:
    """One default with one home (issue 87): the version sent when the caller and the
    operator name none is the rules' default (what every current SDK sends), or the one a
    server running Claude requires; a server with its own models takes the rules' default."""
    assert EDGE.upstream is not None
    assert EDGE.upstream.default_version is not None
    assert EDGE.upstream.default_version({}) == RULES.default_version == "2026-10-21"
    assert EDGE.upstream.default_version({"server": "bedrock-mantle"}) == "2023-06-01"
    assert EDGE.upstream.default_version({"server": "deepseek"}) == RULES.default_version
