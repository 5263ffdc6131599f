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
