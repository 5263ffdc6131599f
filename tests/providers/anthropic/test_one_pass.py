"""The one-pass path for openai-chat -> Anthropic requests as the bench uses it (issue 25)."""

from __future__ import annotations

from chatcodec import one_pass


def test_the_bench_options_take_the_one_pass() -> None:
    """The bench converts with ``api_version`` given (its anchors' version): the one pass,
    not the general path, must be what it times."""
    payload = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 5}
    assert one_pass.convert_request(payload, "openai-chat", "anthropic", {"api_version": "2023-06-01"}) is not None
    assert one_pass.convert_request(payload, "openai-chat", "anthropic", {"unsigned_thinking": "text"}) is None
