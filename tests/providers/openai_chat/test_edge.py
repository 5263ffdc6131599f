"""OpenAI Chat Completions on HTTP: its edge's facts (``_providers/openai_chat/edge.py``)."""

from __future__ import annotations

from typing import Any

import chatcodec
from chatcodec._registry import get_edge

EDGE = get_edge("openai-chat")


def test_routes_with_and_without_v1_and_the_usage_wish_of_the_caller() -> None:
    assert EDGE.front is not None
    assert EDGE.front.routes == ("/v1/chat/completions", "/chat/completions")
    body: dict[str, Any] = {
        "model": "gpt-4o",
        "stream": True,
        "stream_options": {"include_usage": True},
        "messages": [],
    }
    call = EDGE.front.read_call(body, None, {})
    assert (call.model, call.stream, call.framing, call.options) == ("gpt-4o", True, "sse", {"include_usage": True})
    assert EDGE.front.read_call({"messages": []}, None, {}).options == {"include_usage": False}


def test_an_upstream_stream_asks_for_its_usage_chunk_and_passes_the_organization_on() -> None:
    assert EDGE.upstream is not None
    assert (
        EDGE.upstream.url("https://api.openai.com/v1", "gpt-4o", True) == "https://api.openai.com/v1/chat/completions"
    )
    sent = EDGE.upstream.body({"model": "gpt-4o", "stream_options": {"x": 1}}, True)
    assert sent == {"model": "gpt-4o", "stream": True, "stream_options": {"x": 1, "include_usage": True}}
    assert EDGE.upstream.body({"model": "gpt-4o"}, False) == {"model": "gpt-4o"}
    headers = EDGE.upstream.headers("sk-1", {"openai-organization": "org-1", "anthropic-version": "x"})
    assert headers == {"authorization": "Bearer sk-1", "openai-organization": "org-1"}
    assert EDGE.upstream.key_env == "OPENAI_API_KEY"


def test_a_stream_ends_with_done_and_an_error_is_one_more_chunk() -> None:
    assert "".join(chatcodec.to_sse("openai-chat", [{"a": 1}])) == 'data: {"a":1}\n\ndata: [DONE]\n\n'
    body = {"error": {"message": "m", "type": "server_error", "param": None, "code": None}}
    assert chatcodec.error_body("openai-chat", "m", 503) == body
    assert chatcodec.error_event("openai-chat", "m", 503) == body


def test_strict_reading_takes_the_compatible_servers_reasoning_fields() -> None:
    rows = [row for row in EDGE.extensions if "reasoning_content" in row.fields]
    assert {row.kind for row in rows} >= {"ChatCompletionMessage", "ChoiceDelta"}
    assert all(row.provider == "openai-chat" for row in EDGE.extensions)
