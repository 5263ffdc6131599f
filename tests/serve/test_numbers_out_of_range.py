"""A number out of range (``1e999``, which JSON parsers read as infinity) anywhere in a request
body is a 400 naming its JSON path, and nothing is sent upstream: refused where the request's
numbers are read (the library's readers, on the direct route and the canonical one alike), not
by writing the whole parsed body out again to look for one (issue 107)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from chatcodec.serve import ServeConfig, create_app

PATHS = {"openai-chat": "/v1/chat/completions", "anthropic": "/v1/messages", "openai-responses": "/v1/responses"}
UPSTREAM = {"openai-chat": "anthropic", "anthropic": "openai-chat", "openai-responses": "openai-chat"}
SCHEMA = '{"type": "object", "properties": {"a": {"type": "number", "maximum": 1e999}}}'
BODIES = {
    "openai-chat": {
        "temperature": ('"temperature": 1e999', "$.temperature"),
        "tool schema": (
            f'"tools": [{{"type": "function", "function": {{"name": "f", "parameters": {SCHEMA}}}}}]',
            "$.tools[0].function.parameters.properties.a.maximum",
        ),
        "a field of its own": ('"metadata": {"x": [1, -1e999]}', "$.metadata.x[1]"),
    },
    "anthropic": {
        "temperature": ('"temperature": 1e999', "$.temperature"),
        "tool schema": (
            f'"tools": [{{"name": "f", "input_schema": {SCHEMA}}}]',
            "$.tools[0].input_schema.properties.a.maximum",
        ),
        "a field of its own": ('"metadata": {"x": [1, -1e999]}', "$.metadata.x[1]"),
    },
    "openai-responses": {
        "temperature": ('"temperature": 1e999', "$.temperature"),
        "tool schema": (
            f'"tools": [{{"type": "function", "name": "f", "strict": false, "parameters": {SCHEMA}}}]',
            "$.tools[0].parameters.properties.a.maximum",
        ),
        "a field of its own": ('"metadata": {"x": [1, -1e999]}', "$.metadata.x[1]"),
    },
}
MESSAGES = {
    "openai-chat": '"messages": [{"role": "user", "content": "hi"}]',
    "anthropic": '"max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]',
    "openai-responses": '"input": "hi"',
}


def _sent(api: str, text: str, **settings: Any) -> tuple[httpx.Response, int]:
    calls: list[httpx.Request] = []

    def upstream(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(500)

    async def run() -> httpx.Response:
        config = ServeConfig(api=api, upstream=UPSTREAM[api], upstream_url="http://u.invalid", **settings)
        app = create_app(config, client=httpx.AsyncClient(transport=httpx.MockTransport(upstream)))
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://proxy") as caller:
            headers = {"authorization": "Bearer k", "x-api-key": "k", "content-type": "application/json"}
            return await caller.post(PATHS[api], content=text.encode(), headers=headers)

    return asyncio.run(run()), len(calls)


@pytest.mark.parametrize("settings", [{}, {"store": "memory"}], ids=["direct route", "canonical route"])
@pytest.mark.parametrize(("api", "where"), [(api, where) for api, shapes in BODIES.items() for where in shapes])
def test_a_number_out_of_range_is_a_400_naming_its_path(api: str, where: str, settings: dict[str, Any]) -> None:
    field, path = BODIES[api][where]
    answer, calls = _sent(api, f'{{"model": "m", {MESSAGES[api]}, {field}}}', **settings)
    assert answer.status_code == 400, answer.text
    message = answer.json()["error"]["message"]
    assert f"at {path}: a number is out of range (it would be read as infinity" in message
    assert calls == 0


@pytest.mark.parametrize(("api", "where"), [(api, where) for api in BODIES for where in ("temperature", "tool schema")])
def test_under_validate_a_number_out_of_range_is_refused_by_the_strict_reading(api: str, where: str) -> None:
    """``--validate`` reads strictly, the number's range first where it has one (``temperature``)."""
    field, path = BODIES[api][where]
    answer, calls = _sent(api, f'{{"model": "m", {MESSAGES[api]}, {field}}}', validate=True)
    assert answer.status_code == 400, answer.text
    message = answer.json()["error"]["message"]
    assert f"at {path}: " in message
    assert "out of range" in message or "[rule: out_of_range]" in message
    assert calls == 0
