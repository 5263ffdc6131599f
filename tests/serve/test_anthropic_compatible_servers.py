"""``chatcodec serve --upstream anthropic`` writes for the Anthropic-compatible server its
URL points at (DeepSeek, Kimi, Z.ai, MiniMax), or the one ``--option server=...`` names."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from chatcodec.serve import ServeConfig
from serve.harness import FakeUpstream, fixture_json, proxy, serving_fake


@pytest.mark.parametrize(
    ("url", "options", "writer_options"),
    [
        ("https://api.deepseek.com/anthropic", {}, {"server": "deepseek"}),
        ("https://api.moonshot.ai/anthropic", {}, {"server": "kimi"}),
        ("https://api.z.ai/api/anthropic", {}, {"server": "zai"}),
        ("https://api.minimax.io/anthropic", {}, {"server": "minimax"}),
        ("https://api.anthropic.com", {}, {}),
        ("https://api.z.ai/api/anthropic", {"server": "kimi"}, {"server": "kimi"}),  # the option wins
    ],
)
def test_the_upstream_url_names_the_anthropic_compatible_server(
    url: str, options: dict[str, object], writer_options: dict[str, object]
) -> None:
    config = ServeConfig(api="openai-chat", upstream="anthropic", upstream_url=url, options=options)
    assert config.writer_options() == writer_options


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


def test_an_openai_clients_request_reaches_minimax_with_only_what_it_takes(fake: FakeUpstream) -> None:
    request = {
        "model": "MiniMax-M2.7",
        "max_tokens": 64,
        "stop": ["END"],
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is in this picture?"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                ],
            }
        ],
    }
    with proxy("openai-chat", "anthropic", fake.base, options={"server": "minimax"}) as origin:
        fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
        answer = httpx.post(
            f"{origin}/v1/chat/completions", json=request, headers={"authorization": "Bearer k"}, timeout=30
        )
        assert answer.status_code == 200
    sent = fake.last.body
    assert "stop_sequences" not in sent  # MiniMax ignores it
    assert [block["type"] for block in sent["messages"][0]["content"]] == ["text"]  # and takes no image
