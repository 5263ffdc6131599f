"""Ollama's ``/api/chat`` on HTTP: its edge's facts (``_providers/ollama/edge.py``)."""

from __future__ import annotations

import json

import chatcodec
from chatcodec import _detect as detect
from chatcodec._registry import get_edge
from providers.ollama.ollama_support import FIXTURES

EDGE = get_edge("ollama")


def test_a_body_without_stream_streams_and_an_upstream_body_always_says_which() -> None:
    assert EDGE.front is not None
    assert EDGE.front.routes == ("/api/chat",)
    call = EDGE.front.read_call({"model": "qwen3", "messages": []}, None, {})
    assert (call.model, call.stream, call.framing) == ("qwen3", True, "jsonl")
    assert EDGE.front.read_call({"model": "qwen3", "stream": False}, None, {}).stream is False
    assert EDGE.upstream is not None
    assert EDGE.upstream.url("http://localhost:11434", "qwen3", True) == "http://localhost:11434/api/chat"
    assert EDGE.upstream.body({"model": "qwen3"}, False) == {"model": "qwen3", "stream": False}
    assert EDGE.upstream.headers(None, {}) == {}
    assert EDGE.upstream.headers("k", {}) == {"authorization": "Bearer k"}
    assert EDGE.upstream.key_env == "OLLAMA_API_KEY"


def test_a_stream_is_json_lines_and_an_error_is_a_flat_object_plain_or_in_the_stream() -> None:
    assert "".join(chatcodec.to_sse("ollama", [{"done": False}, {"done": True}])) == '{"done":false}\n{"done":true}\n'
    assert chatcodec.error_body("ollama", "model 'x' not found", 404) == {"error": "model 'x' not found"}
    assert chatcodec.error_event("ollama", "boom", 500) == {"error": "boom"}
    read = chatcodec.read_error("ollama", {"error": "model 'x' not found"}, 404)
    assert (read.message, read.status_code) == ("model 'x' not found", 404)


def test_detection_knows_ollama_bodies_and_tells_them_from_openai_chat() -> None:
    request = {"model": "qwen3", "messages": [{"role": "user", "content": "q"}], "options": {"num_ctx": 8192}}
    assert detect.detect(request) == "ollama"
    assert detect.mismatch("ollama", {"model": "m", "messages": [], "max_completion_tokens": 5}) is not None
    for kind in ("request", "response"):
        for path in sorted((FIXTURES / kind).glob("*.json")):
            assert detect.mismatch("ollama", json.loads(path.read_text(encoding="utf-8"))) is None, path.name
