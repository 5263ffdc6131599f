"""The gateway's direct route (issue 107): where no step needs a request's canonical data, step 5
converts it by the library's direct path; what the upstream receives (body, API version) and what
the caller gets (status, body, the losses header) is what the canonical route gives, on every
recorded request of the pairs the direct table holds and on the bench's generated agent sessions
(``bench/feature_shapes.py``: each feature alone, the agent's, all), under ``--on-loss report``
and ``error``. The canonical route is the same app with the direct paths off
(:func:`chatcodec._direct.table.canonical_only`, the differential's oracle)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from bench import feature_shapes

from chatcodec._direct.table import DIRECT_PATHS, canonical_only
from chatcodec.serve import ServeConfig, create_app
from chatcodec.serve._steps import fit

FIXTURES = Path(__file__).parent.parent / "fixtures"
PATHS = {"openai-chat": "/v1/chat/completions", "anthropic": "/v1/messages", "openai-responses": "/v1/responses"}
ANSWERS = {
    "anthropic": FIXTURES / "anthropic" / "response" / "thinking_text_tool_use.json",
    "openai-chat": FIXTURES / "openai-chat" / "response" / "finish_length_max_tokens.json",
    "openai-responses": FIXTURES / "openai-responses" / "response" / "function_call_no_reasoning.json",
}
PAIRS = sorted(DIRECT_PATHS)
GENERATED = re.compile(r"(msg|chatcmpl|resp|call|toolu|rs|fc)_?[A-Za-z0-9]{16,}")
"""An id the gateway generates for an answer (as ``tools/differential.py`` blanks them)."""


def _cases(source: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for path in sorted((FIXTURES / source / "request").glob("*.json")):
        body = json.loads(path.read_text())
        if isinstance(body, dict):
            yield path.name, body
    for name, features in feature_shapes.combinations():
        target = "anthropic" if source == "openai-chat" else "openai-chat"
        yield f"shape {name}", feature_shapes.body(source, target, 3, features)
    for name, broken in BROKEN.items():  # the canonical path's refusal, in its own words
        yield name, broken


BROKEN = {
    "unknown role": {"model": "m", "max_tokens": 9, "messages": [{"role": "nobody", "content": "x"}]},
    "content of no type": {"model": "m", "max_tokens": 9, "messages": [{"role": "user", "content": 3}]},
    "messages no list": {"model": "m", "max_tokens": 9, "messages": "hello", "input": 4},
}


class Upstream:
    """A mock upstream answering one recorded answer, keeping what it received."""

    def __init__(self, upstream: str) -> None:
        self.answer = ANSWERS[upstream].read_bytes()
        self.received: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.received.append(request)
        return httpx.Response(200, headers={"content-type": "application/json"}, content=self.answer)


async def _through(source: str, target: str, bodies: list[dict[str, Any]], policy: str) -> list[tuple[object, ...]]:
    upstream = Upstream(target)
    config = ServeConfig(api=source, upstream=target, upstream_url="http://upstream.invalid", on_loss=policy)
    app = create_app(config, client=httpx.AsyncClient(transport=httpx.MockTransport(upstream)))
    seen: list[tuple[object, ...]] = []
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://proxy") as caller:
        for body in bodies:
            count = len(upstream.received)
            answer = await caller.post(PATHS[source], json=body, headers={"authorization": "Bearer k"})
            sent = upstream.received[count:]
            caller_body = answer.json() if answer.headers.get("content-type", "").startswith("application/json") else {}
            if isinstance(caller_body, dict):
                caller_body.pop("id", None)
                caller_body.pop("created", None)
                caller_body.pop("created_at", None)
            seen.append(
                (
                    answer.status_code,
                    GENERATED.sub("<id>", json.dumps(caller_body, sort_keys=True)),
                    answer.headers.get("chatcodec-losses"),
                    [(json.loads(request.content), sorted(request.headers.items())) for request in sent],
                )
            )
    return seen


@pytest.mark.parametrize("policy", ["report", "error"])
@pytest.mark.parametrize(("source", "target"), [pair for pair in PAIRS if pair[1] in ANSWERS])
def test_the_direct_route_answers_as_the_canonical_route(
    source: str, target: str, policy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = list(_cases(source))
    taken: list[bool] = []
    convert = fit.directly_written

    def counted(*arguments: Any, **settings: Any) -> Any:
        found = convert(*arguments, **settings)
        taken.append(found is not None)
        return found

    monkeypatch.setattr(fit, "directly_written", counted)
    bodies = [body for _, body in cases]
    direct = asyncio.run(_through(source, target, bodies, policy))
    assert any(taken), "no request took the direct path"
    with canonical_only():
        canonical = asyncio.run(_through(source, target, bodies, policy))
    for (name, _), by_direct, by_canonical in zip(cases, direct, canonical, strict=True):
        assert by_direct == by_canonical, name


def test_a_configuration_that_needs_canonical_data_takes_the_canonical_route(monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[object] = []
    convert = fit.directly_written

    def counted(*arguments: Any) -> Any:
        found = convert(*arguments)
        if found is not None:
            taken.append(found)
        return found

    monkeypatch.setattr(fit, "directly_written", counted)
    body = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "Hi"}]}

    async def run(**settings: Any) -> int:
        upstream = Upstream("anthropic")
        config = ServeConfig(api="openai-chat", upstream="anthropic", upstream_url="http://u.invalid", **settings)
        app = create_app(config, client=httpx.AsyncClient(transport=httpx.MockTransport(upstream)))
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://proxy") as caller:
            answer = await caller.post("/v1/chat/completions", json=body, headers={"authorization": "Bearer k"})
        return answer.status_code

    for settings in ({"validate": True}, {"store": "memory"}, {"options": {"max_tokens": 20}}):
        assert asyncio.run(run(**settings)) == 200, settings
    assert taken == []
    assert asyncio.run(run()) == 200
    assert len(taken) == 1  # the same request, where nothing needs its canonical data


@pytest.mark.parametrize(("source", "target"), [pair for pair in PAIRS if pair[1] in ANSWERS])
def test_a_span_reads_the_request_the_direct_path_converted_as_the_canonical_route_read_it(
    source: str, target: str
) -> None:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    body = feature_shapes.body(
        source, "anthropic" if source == "openai-chat" else "openai-chat", 3, feature_shapes.AGENT
    )
    body.pop("stream", None)

    async def attributes() -> dict[str, object]:
        exporter = InMemorySpanExporter()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        config = ServeConfig(api=source, upstream=target, upstream_url="http://u.invalid", otel=True, otel_content=True)
        client = httpx.AsyncClient(transport=httpx.MockTransport(Upstream(target)))
        app = create_app(config, client=client, tracer_provider=provider)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://proxy") as caller:
            answer = await caller.post(PATHS[source], json=body, headers={"authorization": "Bearer k"})
        assert answer.status_code == 200
        (span,) = exporter.get_finished_spans()
        found = dict(span.attributes or {})
        return {key: value for key, value in found.items() if "id" not in key.split(".")[-1]}

    direct = asyncio.run(attributes())
    assert any(key.startswith("gen_ai.input") for key in direct)  # the request's messages, read for the span
    with canonical_only():
        assert asyncio.run(attributes()) == direct


def test_a_loss_is_named_in_the_callers_body_whichever_route_converts_it() -> None:
    """Anthropic's top-level ``system`` is no message of the caller's, but the canonical request's
    first: the text's citations OpenAI Chat cannot carry are the caller's ``messages[1]`` on the
    direct route and on the canonical route a server's options send it (``--validate``, a writer
    option, a store that puts nothing back), as the library's conversion names them."""
    citation = {
        "type": "char_location",
        "cited_text": "x",
        "document_index": 0,
        "document_title": "a",
        "start_char_index": 0,
    }
    text = {"type": "text", "text": "ok", "citations": [{**citation, "end_char_index": 1}]}
    body = {
        "model": "m",
        "max_tokens": 10,
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": [text]},
            {"role": "user", "content": "go"},
        ],
    }

    async def losses(**settings: Any) -> str:
        upstream = Upstream("openai-chat")
        config = ServeConfig(api="anthropic", upstream="openai-chat", upstream_url="http://u.invalid", **settings)
        app = create_app(config, client=httpx.AsyncClient(transport=httpx.MockTransport(upstream)))
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://proxy") as caller:
            answer = await caller.post("/v1/messages", json=body, headers={"x-api-key": "k"})
        assert answer.status_code == 200, answer.text
        return answer.headers["chatcodec-losses"]

    named = asyncio.run(losses())
    assert "$.messages[1].content[0]: anthropic data ['citations']" in named
    for settings in (
        {"validate": True},
        {"options": {"include_usage": True}},
        {"store": "memory", "keep_thinking": False},
    ):
        assert asyncio.run(losses(**settings)) == named, settings
