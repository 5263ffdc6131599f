"""The OpenAI Responses API on HTTP: its edge's facts (``_providers/openai_responses/edge.py``)."""

from __future__ import annotations

import chatcodec
from chatcodec._registry import get_edge

EDGE = get_edge("openai-responses")


def test_routes_and_upstream_url() -> None:
    assert EDGE.front is not None
    assert EDGE.front.routes == ("/v1/responses", "/responses")
    call = EDGE.front.read_call({"model": "gpt-5", "stream": True}, None, {})
    assert (call.model, call.stream, call.options) == ("gpt-5", True, None)
    assert EDGE.upstream is not None
    assert EDGE.upstream.url("https://api.openai.com/v1", "gpt-5", False) == "https://api.openai.com/v1/responses"
    assert EDGE.upstream.headers("k", {"openai-project": "p"}) == {"authorization": "Bearer k", "openai-project": "p"}


def test_events_are_named_and_a_stream_error_is_an_error_event_in_both_published_shapes() -> None:
    """OpenAI's fields on the event, the Open Responses spec's in its ``error`` object."""
    event = {"type": "response.created", "sequence_number": 0}
    assert "".join(chatcodec.to_sse("openai-responses", [event])).startswith("event: response.created\ndata: ")
    assert chatcodec.error_event("openai-responses", "boom", 429) == {
        "type": "error",
        "code": "rate_limit_error",
        "message": "boom",
        "param": None,
        "error": {"type": "rate_limit_error", "code": "rate_limit_error", "message": "boom", "param": None},
        "sequence_number": 0,
    }
    assert chatcodec.error_body("openai-responses", "boom", 429)["error"]["type"] == "rate_limit_error"
