"""Who may call ``chatcodec serve``: the server's own client keys, distinct from the
upstream key, and no environment key spent for a caller that sent none unless allowed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import openai
import pytest

from chatcodec.serve._auth import read_key_file
from serve.harness import FakeUpstream, fixture_json, proxy, serving_fake

HELLO: list[Any] = [{"role": "user", "content": "Hello"}]
CHAT = {"model": "claude-sonnet-4-6", "messages": HELLO}
ENVIRONMENT_KEY = "sk-ant-operator"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


@pytest.fixture(autouse=True)
def fresh(fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch) -> None:
    fake.replies.clear()
    fake.received.clear()
    monkeypatch.setenv("ANTHROPIC_API_KEY", ENVIRONMENT_KEY)


def test_a_client_key_holder_is_served_with_the_operators_key_never_its_own(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    with (
        proxy("openai-chat", "anthropic", fake.base, client_keys=frozenset({"proxy-key-1"})) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="proxy-key-1", max_retries=0) as client,
    ):
        client.chat.completions.create(model="claude-sonnet-4-6", messages=HELLO)
    assert fake.last.headers["x-api-key"] == ENVIRONMENT_KEY


@pytest.mark.parametrize("presented", ["wrong-key", None])
def test_without_a_client_key_the_caller_is_refused_401_and_nothing_is_sent(
    fake: FakeUpstream, presented: str | None
) -> None:
    headers = {} if presented is None else {"x-api-key": presented}
    with proxy("anthropic", "anthropic", fake.base, client_keys=frozenset({"proxy-key-1"})) as origin:
        answer = httpx.post(f"{origin}/v1/messages", json={**CHAT, "max_tokens": 5}, headers=headers)
    assert answer.status_code == 401
    assert answer.json()["error"]["type"] == "authentication_error"
    assert fake.received == []


def test_an_anonymous_caller_does_not_spend_the_environments_key_by_default(fake: FakeUpstream) -> None:
    with proxy("openai-chat", "anthropic", fake.base) as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json=CHAT)
    assert answer.status_code == 401
    assert answer.json()["error"]["type"] == "authentication_error"
    assert fake.received == []


def test_an_anonymous_caller_spends_the_environments_key_when_the_operator_allows_it(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    with proxy("openai-chat", "anthropic", fake.base, allow_anonymous=True) as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json=CHAT)
    assert answer.status_code == 200
    assert fake.last.headers["x-api-key"] == ENVIRONMENT_KEY


def test_without_client_keys_a_callers_own_key_goes_upstream(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    with (
        proxy("anthropic", "anthropic", fake.base) as origin,
        anthropic.Anthropic(base_url=origin, api_key="sk-ant-caller", max_retries=0) as client,
    ):
        client.messages.create(model="claude-sonnet-4-6", max_tokens=5, messages=HELLO)
    assert fake.last.headers["x-api-key"] == "sk-ant-caller"


def test_a_key_file_holds_one_key_a_line_with_comments(tmp_path: Path) -> None:
    path = tmp_path / "keys.txt"
    path.write_text("# team a\nkey-a\n\n  key-b  \n", encoding="utf-8")
    assert read_key_file(path) == frozenset({"key-a", "key-b"})
    path.write_text("# none\n", encoding="utf-8")
    with pytest.raises(ValueError, match="holds no client key"):
        read_key_file(path)
