"""Several upstreams in one ``chatcodec serve`` process, chosen by model; the model
lists and token counting of each front, driven by the official clients."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import anthropic
import httpx
import openai
import pytest
from google import genai
from google.genai import types

from chatcodec.serve import ServeConfig
from chatcodec.serve._config import Route, parse_route, read_config_file
from serve.harness import FakeUpstream, fixture_json, serving_config

HELLO: list[Any] = [{"role": "user", "content": "Hello"}]


pytestmark = pytest.mark.usefixtures("fresh_fake")


def _two_upstreams(api: str, fake: FakeUpstream, **settings: Any) -> ServeConfig:
    """Claude models to the Anthropic API, anything else to an OpenAI Chat one."""
    routes = (Route("claude-*", "anthropic", fake.base, models=("claude-sonnet-4-6",)),)
    return ServeConfig(api, "openai-chat", f"{fake.base}/v1", routes=routes, **settings)


def test_one_process_serves_two_providers_by_model_to_the_openai_client(fake: FakeUpstream) -> None:
    with (
        serving_config(_two_upstreams("openai-chat", fake, model_map={"fast": "gpt-4o-mini"})) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
        claude = client.chat.completions.create(model="claude-sonnet-4-6", messages=HELLO)
        assert fake.last.path == "/v1/messages"
        fake.reply(fixture_json("openai-chat", "response", "text_stop.json"))
        mapped = client.chat.completions.create(model="fast", messages=HELLO)
        assert (fake.last.path, fake.last.body["model"]) == ("/v1/chat/completions", "gpt-4o-mini")
        listed = [model.id for model in client.models.list()]
    assert claude.choices[0].message.content
    assert mapped.choices[0].message.content
    assert listed == ["fast", "claude-sonnet-4-6"]


def test_one_process_serves_two_providers_by_model_to_the_anthropic_client(fake: FakeUpstream) -> None:
    with (
        serving_config(_two_upstreams("anthropic", fake)) as origin,
        anthropic.Anthropic(base_url=origin, api_key="k", max_retries=0) as client,
    ):
        fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
        client.messages.create(model="claude-sonnet-4-6", max_tokens=50, messages=HELLO)
        assert fake.last.path == "/v1/messages"
        fake.reply(fixture_json("openai-chat", "response", "text_stop.json"))
        message = client.messages.create(model="gpt-4o", max_tokens=50, messages=HELLO)
        assert fake.last.path == "/v1/chat/completions"
        listed = [model.id for model in client.models.list()]
    assert message.content
    assert listed == ["claude-sonnet-4-6"]


def test_a_model_no_route_matches_is_a_404_in_the_fronts_shape(fake: FakeUpstream) -> None:
    config = ServeConfig("openai-chat", routes=(Route("claude-*", "anthropic", fake.base),))
    with serving_config(config) as origin:
        answer = httpx.post(
            f"{origin}/v1/chat/completions",
            json={"model": "gpt-4o", "messages": HELLO},
            headers={"authorization": "Bearer k"},
        )
    assert answer.status_code == 404
    assert answer.json()["error"]["type"] == "not_found_error"
    assert fake.received == []


def test_the_gemini_client_lists_the_routed_models(fake: FakeUpstream) -> None:
    with serving_config(_two_upstreams("gemini", fake)) as origin:
        client = genai.Client(api_key="k", http_options=types.HttpOptions(base_url=origin))
        names = [model.name for model in client.models.list()]
    assert names == ["models/claude-sonnet-4-6"]


def test_anthropic_token_counting_is_passed_to_an_upstream_that_counts(fake: FakeUpstream) -> None:
    with (
        serving_config(_two_upstreams("anthropic", fake)) as origin,
        anthropic.Anthropic(base_url=origin, api_key="k", max_retries=0) as client,
    ):
        fake.reply({"input_tokens": 12})
        counted = client.messages.count_tokens(model="claude-sonnet-4-6", messages=HELLO, system="Be brief")
    assert counted.input_tokens == 12
    assert fake.last.path == "/v1/messages/count_tokens"
    assert fake.last.body == {"model": "claude-sonnet-4-6", "messages": HELLO, "system": "Be brief"}


@pytest.mark.parametrize(
    ("upstream", "base", "answer", "path"),
    [
        ("gemini", "", {"totalTokens": 5}, "/v1beta/models/gemini-2.5-flash:countTokens"),
        ("bedrock-converse", "", {"inputTokens": 5}, "/model/gemini-2.5-flash/count-tokens"),
        (
            "openai-responses",
            "/v1",
            {"object": "response.input_tokens", "input_tokens": 5},
            "/v1/responses/input_tokens",
        ),
    ],
)
def test_token_counting_reaches_each_upstreams_own_endpoint(
    fake: FakeUpstream, upstream: str, base: str, answer: dict[str, Any], path: str
) -> None:
    with (
        serving_config(ServeConfig("anthropic", upstream, fake.base + base)) as origin,
        anthropic.Anthropic(base_url=origin, api_key="k", max_retries=0) as client,
    ):
        fake.reply(answer)
        counted = client.messages.count_tokens(model="gemini-2.5-flash", messages=HELLO, system="Be brief")
    assert counted.input_tokens == 5
    assert fake.last.path == path
    assert "Be brief" in json.dumps(fake.last.body)
    assert "max_tokens" not in json.dumps(fake.last.body)


def test_token_counting_on_an_upstream_without_it_is_a_501_in_the_fronts_shape_not_retried(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    """The SDK's retries on (two, its default): ``x-should-retry: false`` says asking again would
    answer the same, so it asks once (the gateway logs one line a request)."""
    with (
        caplog.at_level(logging.INFO, logger="chatcodec.serve"),
        serving_config(_two_upstreams("anthropic", fake)) as origin,
        anthropic.Anthropic(base_url=origin, api_key="k", max_retries=2) as client,
        pytest.raises(anthropic.APIStatusError) as raised,
    ):
        client.messages.count_tokens(model="gpt-4o", messages=HELLO)
    assert raised.value.status_code == 501
    assert raised.value.response.headers["x-should-retry"] == "false"
    assert "no token counting endpoint" in raised.value.message
    assert fake.received == []
    asked = [entry for entry in caplog.records if "/v1/messages/count_tokens" in entry.getMessage()]
    assert len(asked) == 1, [entry.getMessage() for entry in asked]


def test_gemini_count_tokens_goes_to_an_anthropic_upstream(fake: FakeUpstream) -> None:
    with serving_config(_two_upstreams("gemini", fake)) as origin:
        client = genai.Client(api_key="k", http_options=types.HttpOptions(base_url=origin))
        fake.reply({"input_tokens": 7})
        counted = client.models.count_tokens(model="claude-sonnet-4-6", contents="Hello")
    assert counted.total_tokens == 7
    assert fake.last.path == "/v1/messages/count_tokens"
    assert fake.last.body["messages"] == [{"role": "user", "content": [{"type": "text", "text": "Hello"}]}]


def test_responses_input_tokens_go_to_the_routed_upstream(fake: FakeUpstream) -> None:
    with (
        serving_config(_two_upstreams("openai-responses", fake)) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        fake.reply({"input_tokens": 9})
        counted = client.responses.input_tokens.count(model="claude-sonnet-4-6", input="Hello", instructions="Brief")
    assert counted.input_tokens == 9
    assert fake.last.path == "/v1/messages/count_tokens"
    assert fake.last.body["system"] == "Brief"
    assert "max_tokens" not in fake.last.body


def test_health_answers_without_a_key(fake: FakeUpstream) -> None:
    with serving_config(_two_upstreams("openai-chat", fake, client_keys=frozenset({"secret"}))) as origin:
        health = httpx.get(f"{origin}/health")
        models = httpx.get(f"{origin}/v1/models")
    assert (health.status_code, health.json()) == (200, {"status": "ok"})
    assert models.status_code == 401


def test_routes_from_the_command_line_and_a_toml_file(tmp_path: Path) -> None:
    route = parse_route("claude-*=anthropic@https://api.anthropic.com")
    assert (route.pattern, route.upstream, route.url) == ("claude-*", "anthropic", "https://api.anthropic.com")
    with pytest.raises(ValueError, match="PATTERN=FORMAT@URL"):
        parse_route("claude-*=anthropic")
    (tmp_path / "keys.txt").write_text("key-a\n", encoding="utf-8")
    path = tmp_path / "serve.toml"
    path.write_text(
        'api = "openai-chat"\nclient_key_file = "keys.txt"\nmax_connections = 8\n'
        '[model_map]\nfast = "gemini-2.5-flash"\n'
        '[[route]]\npattern = "gemini-*"\nupstream = "gemini"\nurl = "https://generativelanguage.googleapis.com"\n',
        encoding="utf-8",
    )
    config = ServeConfig(**read_config_file(path))
    assert config.client_keys == frozenset({"key-a"})
    assert config.max_connections == 8
    assert config.route_for("gemini-2.5-flash") == Route(
        "gemini-*", "gemini", "https://generativelanguage.googleapis.com"
    )
    assert config.route_for("gpt-4o") is None
    path.write_text('api = "openai-chat"\nupstreams = 2\n', encoding="utf-8")
    with pytest.raises(ValueError, match="unknown setting 'upstreams'"):
        read_config_file(path)


def test_the_command_line_adds_to_its_config_file_and_wins_over_it(tmp_path: Path) -> None:
    from chatcodec.cli._commands import _parser  # the parser main() uses
    from chatcodec.cli._serve import settings_from
    from chatcodec.serve import _config as config_module

    path = tmp_path / "serve.toml"
    path.write_text(
        'api = "anthropic"\nmax_connections = 8\n[model_map]\nfast = "gpt-4o-mini"\n'
        '[[route]]\npattern = "gemini-*"\nupstream = "gemini"\nurl = "https://generativelanguage.googleapis.com"\n',
        encoding="utf-8",
    )
    arguments = _parser().parse_args(
        [
            "serve",
            "--config",
            str(path),
            "--api",
            "openai-chat",
            "--route",
            "claude-*=anthropic@https://api.anthropic.com",
            "--client-key",
            "key-a",
            "--model-map",
            "big=gpt-4o",
        ]
    )
    config = ServeConfig(**settings_from(arguments, config_module))
    assert config.api == "openai-chat"
    assert config.max_connections == 8
    assert [route.pattern for route in config.all_routes] == ["claude-*", "gemini-*"]
    assert dict(config.model_map) == {"fast": "gpt-4o-mini", "big": "gpt-4o"}
    assert config.client_keys == frozenset({"key-a"})
    assert not config.allow_anonymous


def test_writer_options_stay_with_their_route() -> None:
    """``--option`` is the default upstream's; a route's URL and its own ``options`` are its own."""
    claude = Route("claude-*", "anthropic", "https://api.anthropic.com")
    deepseek = Route("deepseek-*", "openai-chat", "https://api.deepseek.com")
    tuned = Route("local-*", "openai-chat", "http://localhost:8000/v1", options={"server": "vllm"})
    config = ServeConfig(
        "anthropic",
        "openai-chat",
        "https://api.groq.com/openai/v1",
        routes=(claude, deepseek, tuned),
        options={"server": "openai"},
    )
    assert config.writer_options(claude) == {}
    assert config.writer_options(deepseek) == {"server": "deepseek"}
    assert config.writer_options(tuned) == {"server": "vllm"}
    assert config.writer_options() == {"server": "openai"}
