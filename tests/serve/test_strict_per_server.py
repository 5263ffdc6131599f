"""``chatcodec serve --validate`` reads a caller's body for the upstream's compatible server
when the caller speaks the upstream's own format."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from serve.harness import FakeUpstream, fixture_json, proxy, serving_fake

KEY = {"authorization": "Bearer k"}
BODY = {"model": "deepseek-reasoner", "messages": [{"role": "user", "content": "Hi"}], "thinking": {"type": "enabled"}}


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


def test_validating_serve_reads_a_body_for_its_routes_server(fake: FakeUpstream) -> None:
    with proxy("openai-chat", "openai-chat", fake.base, validate=True, options={"server": "deepseek"}) as origin:
        fake.reply(fixture_json("openai-chat", "response", "deepseek_reasoner.json"))
        taken = httpx.post(f"{origin}/v1/chat/completions", json=BODY, headers=KEY, timeout=30)
    with proxy("openai-chat", "openai-chat", fake.base, validate=True, options={"server": "groq"}) as origin:
        refused = httpx.post(f"{origin}/v1/chat/completions", json=BODY, headers=KEY, timeout=30)
    assert taken.status_code == 200
    assert refused.status_code == 400
    assert "thinking" in refused.json()["error"]["message"]


def test_validating_serve_refuses_two_anthropic_tools_of_one_name(fake: FakeUpstream) -> None:
    """Issue 76: ``serve --validate`` holds an Anthropic body to the API's "tools: Tool names
    must be unique." before sending it (the strict reading ``decode_request`` does)."""
    tool = {"name": "lookup", "input_schema": {"type": "object"}}
    body = {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [{"role": "user", "content": "Hi"}]}
    headers = {"x-api-key": "k", "anthropic-version": "2023-06-01"}
    with proxy("anthropic", "anthropic", fake.base, validate=True) as origin:
        refused = httpx.post(f"{origin}/v1/messages", json={**body, "tools": [tool, tool]}, headers=headers, timeout=30)
    assert refused.status_code == 400
    assert "Tool names must be unique." in refused.json()["error"]["message"]
