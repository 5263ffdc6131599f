"""``GET /v1/models`` lists what the routes reach even without ``--model-map``: a pattern
route asks its upstream's own list and lists the names it serves."""

from __future__ import annotations

from collections.abc import Iterator

import anthropic
import httpx
import openai
import pytest

from chatcodec.serve import ServeConfig
from chatcodec.serve._config import Route
from serve.harness import FakeUpstream, serving_config, serving_fake

CLAUDE_MODELS = {
    "data": [
        {
            "type": "model",
            "id": "claude-sonnet-4-6",
            "display_name": "Claude Sonnet 4.6",
            "created_at": "2026-01-01T00:00:00Z",
        },
        {
            "type": "model",
            "id": "claude-haiku-4-5",
            "display_name": "Claude Haiku 4.5",
            "created_at": "2026-01-01T00:00:00Z",
        },
    ],
    "has_more": False,
    "first_id": "claude-sonnet-4-6",
    "last_id": "claude-haiku-4-5",
}
GEMINI_MODELS = {"models": [{"name": "models/gemini-2.5-flash"}, {"name": "models/claude-lookalike"}]}


@pytest.fixture
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


def test_the_model_list_holds_the_upstreams_models_without_a_model_map(fake: FakeUpstream) -> None:
    fake.reply(CLAUDE_MODELS)
    config = ServeConfig("openai-chat", "anthropic", fake.base)
    with (
        serving_config(config) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="caller-key", max_retries=0) as client,
    ):
        listed = [model.id for model in client.models.list()]
    assert listed == ["claude-sonnet-4-6", "claude-haiku-4-5"]
    asked = fake.last
    assert asked.path == "/v1/models"
    assert (asked.headers["x-api-key"], asked.headers["anthropic-version"]) == ("caller-key", "2026-10-21")


def test_a_model_name_echoing_the_key_is_listed_without_it(fake: FakeUpstream) -> None:
    """The listing relays the upstream's names: one holding the key it was sent holds it no more."""
    key = "sk-ant-caller-0123456789"
    echoed = {**CLAUDE_MODELS, "data": [{**CLAUDE_MODELS["data"][0], "id": f"claude-{key}"}]}
    fake.reply(echoed)
    with (
        serving_config(ServeConfig("openai-chat", "anthropic", fake.base)) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key=key, max_retries=0) as client,
    ):
        listed = [model.id for model in client.models.list()]
    assert listed == ["claude-[redacted]"]


def test_a_pattern_route_lists_only_the_upstream_models_it_serves(fake: FakeUpstream) -> None:
    """Gemini's list holds a name the ``claude-*`` route would take: it is not listed as Gemini's."""
    fake.reply(CLAUDE_MODELS)
    fake.reply(GEMINI_MODELS)
    routes = (Route("claude-*", "anthropic", fake.base), Route("gemini-*", "gemini", fake.base))
    config = ServeConfig("anthropic", routes=routes, model_map={"fast": "gemini-2.5-flash"})
    with (
        serving_config(config) as origin,
        anthropic.Anthropic(base_url=origin, api_key="k", max_retries=0) as client,
    ):
        listed = [model.id for model in client.models.list()]
    assert listed == ["fast", "claude-sonnet-4-6", "claude-haiku-4-5", "gemini-2.5-flash"]


def test_an_upstream_that_cannot_list_leaves_the_listing_answering(fake: FakeUpstream) -> None:
    fake.reply({"type": "error", "error": {"type": "not_found_error", "message": "no"}}, 404)
    routes = (Route("claude-*", "anthropic", fake.base, models=("claude-opus-5",)), Route("*", "anthropic", fake.base))
    with serving_config(ServeConfig("openai-chat", routes=routes)) as origin:
        answer = httpx.get(f"{origin}/v1/models", headers={"authorization": "Bearer k"}, timeout=30)
    assert answer.status_code == 200
    assert [model["id"] for model in answer.json()["data"]] == ["claude-opus-5"]
