"""Overload (:mod:`chatcodec.serve._admission`): at most ``max_connections`` upstream calls
at once, at most ``max_queued`` requests waiting for one, each at most ``pool_timeout``
seconds; past either bound a 503 with ``Retry-After`` in the front's own error shape,
counted in the metrics, never a 502 or 504 the upstream did not cause. And a stream its
caller's side ended is logged with why."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import anthropic
import httpx
import ollama
import openai
import pytest
from google import genai
from google.genai import errors as genai_errors
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from chatcodec.serve import ServeConfig
from chatcodec.serve._admission import QUEUE_FULL, QUEUE_WAIT, Admission
from chatcodec.serve._refusal import RefusalError
from chatcodec.serve._steps.stream import LOST
from chatcodec.serve._telemetry import ADMISSION_REFUSED
from serve.harness import FakeUpstream, fixture_bytes, fixture_json, proxy, serving_config

pytestmark = pytest.mark.usefixtures("fresh_fake")

SSE = "text/event-stream"
KEY = {"authorization": "Bearer sk-caller"}
HELLO: list[Any] = [{"role": "user", "content": "Hello"}]
STREAM = {"model": "claude-sonnet-4-6", "stream": True, "messages": HELLO}


def _answered(fake: FakeUpstream, count: int, **settings: Any) -> None:
    for _ in range(count):
        fake.reply(fixture_bytes("anthropic", "stream", "text_basic.sse"), content_type=SSE, **settings)


def _refused_counts(reader: InMemoryMetricReader) -> dict[str, int]:
    data = reader.get_metrics_data()
    assert data is not None
    return {
        str(point.attributes["chatcodec.serve.admission.reason"]): int(point.value)
        for resource in data.resource_metrics
        for scope in resource.scope_metrics
        for metric in scope.metrics
        if metric.name == ADMISSION_REFUSED
        for point in metric.data.data_points
        if point.attributes is not None
    }


async def _one_stream(client: httpx.AsyncClient, origin: str, *, leaves: bool) -> tuple[int, str, str | None]:
    """A caller's stream: its status, what its body came to, and its ``Retry-After``;
    ``leaves``: the caller goes away after the stream's first bytes."""
    async with client.stream("POST", f"{origin}/v1/chat/completions", json=STREAM, headers=KEY) as answer:
        if answer.status_code == 200 and leaves:
            await anext(answer.aiter_raw())
            return 200, "left", None
        body = await answer.aread()
    if answer.status_code == 200:
        whole = body.endswith(b"data: [DONE]\n\n") and b'"error"' not in body
        return 200, "complete" if whole else f"broken: {body[-300:]!r}", None
    error = json.loads(body)["error"]
    assert set(error) == {"message", "type", "param", "code"}, body  # OpenAI's error shape
    return answer.status_code, error["message"], answer.headers.get("retry-after")


def test_64_concurrent_streams_on_a_slow_upstream_are_answered_or_refused_503_never_502_or_504(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    """Every eighth caller leaves after its stream's first bytes: its line says why."""
    _answered(fake, 64, delay=0.3, chunk_size=40, stall=1.5)  # slow to answer, slow to end
    reader = InMemoryMetricReader()
    config = ServeConfig(
        "openai-chat", "anthropic", fake.base, otel=True, max_connections=8, max_queued=16, pool_timeout=2.0
    )
    caplog.set_level(logging.INFO, logger="chatcodec.serve")

    async def callers(origin: str) -> list[tuple[int, str, str | None]]:
        async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=64)) as client:
            return await asyncio.gather(*(_one_stream(client, origin, leaves=index % 8 == 7) for index in range(64)))

    with serving_config(config, meter_provider=MeterProvider(metric_readers=[reader])) as origin:
        answers = asyncio.run(callers(origin))
        deadline = time.monotonic() + 10
        while len(lines := _log_lines(caplog)) < 64:
            assert time.monotonic() < deadline, f"{len(lines)} log lines for 64 requests"
            time.sleep(0.05)
        refused = _refused_counts(reader)
    statuses = Counter(status for status, _, _ in answers)
    assert set(statuses) <= {200, 503}, answers
    assert statuses[200] >= 8, statuses  # every slot served, and the queue as it drained
    assert statuses[503] > 0, statuses  # 64 callers at once: past 8 calls and 16 waiting, refused
    left = sum(1 for status, what, _ in answers if (status, what) == (200, "left"))
    assert left > 0, answers  # callers 7 and 15 come among the first 24: admitted, then gone
    assert Counter(what for status, what, _ in answers if status == 200) == {"complete": statuses[200] - left} | (
        {"left": left} if left else {}
    )
    for status, message, retry_after in answers:
        if status == 503:
            assert retry_after == "1"
            assert message.endswith("this server is overloaded; try again"), message
    assert len(fake.received) == statuses[200]  # a refused request never reached the upstream
    assert sum(refused.values()) == statuses[503]
    assert set(refused) <= {QUEUE_FULL, QUEUE_WAIT}
    assert refused.get(QUEUE_FULL, 0) > 0
    logged = Counter((line["status"], line.get("error", "")[:40]) for line in lines)
    # each stream lost says why; a caller that read its first bytes only once the whole stream was
    # written (a loaded machine can hold its task past the upstream's stall) lost nothing: a 200
    assert 0 < logged[499, LOST[:40]] <= left
    assert sum(count for (status, _), count in logged.items() if status in (502, 504)) == 0


def _log_lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(record.getMessage()) for record in caplog.records if record.getMessage().startswith("{")]


CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "openai-chat": ("/v1/chat/completions", {"model": "claude-sonnet-4-6", "messages": HELLO}),
    "openai-responses": ("/v1/responses", {"model": "claude-sonnet-4-6", "input": "Hello"}),
    "anthropic": ("/v1/messages", {"model": "claude-sonnet-4-6", "max_tokens": 10, "messages": HELLO}),
    "gemini": ("/v1beta/models/claude-sonnet-4-6:generateContent", {"contents": [{"parts": [{"text": "Hello"}]}]}),
    "ollama": ("/api/chat", {"model": "claude-sonnet-4-6", "messages": HELLO, "stream": False}),
}


@contextmanager
def _slot_held(fake: FakeUpstream, origin: str, api: str) -> Iterator[None]:
    """The proxy at ``origin`` (one upstream call slot) with its slot held by a request the
    upstream answers in 2 s."""
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"), delay=2)
    path, body = CALLS[api]
    holder = threading.Thread(target=lambda: httpx.post(f"{origin}{path}", json=body, headers=KEY, timeout=10))
    holder.start()
    deadline = time.monotonic() + 5
    try:
        while not fake.received:
            assert time.monotonic() < deadline, "the first request never reached the upstream"
            time.sleep(0.01)
        yield
    finally:
        holder.join()


Refusal = tuple[int, str, str | None]
"""A refusal's status, message and ``Retry-After``, as a client read it."""


@pytest.mark.parametrize("api", CALLS)
def test_a_request_past_the_queue_is_the_fronts_overload_with_retry_after_read_by_its_own_client(
    fake: FakeUpstream, api: str
) -> None:
    """Each front's official client (its SDK's retries off) reads the refusal as its provider's
    own overload: 503, and Anthropic's 529 (its client's ``OverloadedError``)."""
    with proxy(api, "anthropic", fake.base, max_connections=1, max_queued=0) as origin:
        call = _client_call(api, origin)  # the client made first: a slow first make does not outlast the hold
        with _slot_held(fake, origin, api):
            status, message, retry_after = call()
    assert (status, retry_after) == (529 if api == "anthropic" else 503, "1")
    assert "all 1 upstream calls are busy and 0 wait already: this server is overloaded" in message
    assert len(fake.received) == 1  # the refused calls never reached the upstream


def _client_call(api: str, origin: str) -> Callable[[], Refusal]:
    """A call by ``api``'s official client on the proxy at ``origin``, refused."""
    if api in ("openai-chat", "openai-responses"):
        client = openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0)

        def create() -> object:
            if api == "openai-chat":
                return client.chat.completions.create(model="claude-sonnet-4-6", messages=HELLO)
            return client.responses.create(model="claude-sonnet-4-6", input="Hello")

        def by_openai() -> Refusal:
            with client, pytest.raises(openai.InternalServerError) as raised:
                create()
            return raised.value.status_code, raised.value.message, raised.value.response.headers.get("retry-after")

        return by_openai
    if api == "anthropic":
        claude = anthropic.Anthropic(base_url=origin, api_key="k", max_retries=0)

        def by_anthropic() -> Refusal:
            with claude, pytest.raises(anthropic.OverloadedError) as failed:
                claude.messages.create(model="claude-sonnet-4-6", max_tokens=10, messages=HELLO)
            body = failed.value.body
            assert isinstance(body, dict)
            assert body["type"] == "error"
            assert body["error"]["type"] == "overloaded_error"
            return failed.value.status_code, failed.value.message, failed.value.response.headers.get("retry-after")

        return by_anthropic
    if api == "gemini":
        gemini = genai.Client(api_key="k", http_options={"base_url": origin, "retry_options": {"attempts": 1}})

        def by_genai() -> Refusal:
            with gemini, pytest.raises(genai_errors.ServerError) as unavailable:
                gemini.models.generate_content(model="claude-sonnet-4-6", contents="Hello")
            assert unavailable.value.status == "UNAVAILABLE"
            headers = unavailable.value.response.headers if unavailable.value.response is not None else {}
            return unavailable.value.code, unavailable.value.message or "", headers.get("retry-after")

        return by_genai

    chat = ollama.Client(host=origin, headers=KEY)

    def by_ollama() -> Refusal:
        with chat, pytest.raises(ollama.ResponseError) as failed:
            chat.chat(model="claude-sonnet-4-6", messages=HELLO)
        path, body = CALLS["ollama"]  # the Ollama client keeps no headers of an error: asked again for them
        again = httpx.post(f"{origin}{path}", json=body, headers=KEY)
        assert again.status_code == 503
        return failed.value.status_code, failed.value.error, again.headers.get("retry-after")

    return by_ollama


def test_a_request_that_waits_past_the_pool_timeout_is_a_503_not_a_504(fake: FakeUpstream) -> None:
    with (
        proxy("openai-chat", "anthropic", fake.base, max_connections=1, max_queued=4, pool_timeout=0.3) as origin,
        _slot_held(fake, origin, "openai-chat"),
    ):
        started = time.monotonic()
        answer = httpx.post(
            f"{origin}/v1/chat/completions", json={"model": "m", "messages": HELLO}, headers=KEY, timeout=10
        )
        waited = time.monotonic() - started
    assert (answer.status_code, answer.headers["retry-after"]) == (503, "1")
    assert answer.json()["error"]["message"] == (
        "all 1 upstream calls stayed busy for 0.3 s (--pool-timeout): this server is overloaded; try again"
    )
    assert 0.3 <= waited < 2.5


def test_a_queued_request_is_served_when_a_slot_frees(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"), delay=0.5)
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    body = {"model": "claude-sonnet-4-6", "messages": HELLO}

    async def both(origin: str) -> list[int]:
        async with httpx.AsyncClient(timeout=10) as client:
            first = asyncio.ensure_future(client.post(f"{origin}/v1/chat/completions", json=body, headers=KEY))
            await asyncio.sleep(0.1)
            second = await client.post(f"{origin}/v1/chat/completions", json=body, headers=KEY)
            return [(await first).status_code, second.status_code]

    with proxy("openai-chat", "anthropic", fake.base, max_connections=1, max_queued=1) as origin:
        assert asyncio.run(both(origin)) == [200, 200]
    assert len(fake.received) == 2


def test_a_stream_its_caller_leaves_is_logged_with_why_and_frees_its_slot(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    head = fixture_bytes("anthropic", "stream", "text_basic.sse").split(b"event: message_delta")[0]
    fake.reply(head, content_type=SSE, endless=True)
    _answered(fake, 1)
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    with (
        proxy("openai-chat", "anthropic", fake.base, max_connections=1, max_queued=0) as origin,
        httpx.Client(timeout=10) as http,
    ):
        with http.stream("POST", f"{origin}/v1/chat/completions", json=STREAM, headers=KEY) as response:
            assert response.status_code == 200
            next(response.iter_bytes())
        assert fake.stream_closed.wait(10), "the upstream stream was not closed after its caller left"
        deadline = time.monotonic() + 10
        while not (lines := [json.loads(r.getMessage()) for r in caplog.records if r.getMessage()[:1] == "{"]):
            assert time.monotonic() < deadline, "no log line for the stream its caller left"
            time.sleep(0.05)
        after = http.post(f"{origin}/v1/chat/completions", json=STREAM, headers=KEY)  # the one slot is free
    (line,) = lines
    assert (line["status"], line["headers"], line["cancelled"], line["error"]) == (499, 200, True, LOST)
    assert after.status_code == 200


def test_admission_is_first_come_and_a_wait_given_up_passes_its_slot_on() -> None:
    refusals: list[str] = []

    async def scenario() -> None:
        admission = Admission(1, 2, 5.0, refusals.append)
        await admission.enter()
        served: list[str] = []

        async def waiter(name: str) -> None:
            await admission.enter()
            served.append(name)

        first = asyncio.ensure_future(waiter("first"))
        second = asyncio.ensure_future(waiter("second"))
        await asyncio.sleep(0)
        assert admission.waiting == 2
        with pytest.raises(RefusalError, match="2 wait already"):
            await admission.enter()  # the queue is full
        first.cancel()  # its caller went away while it waited
        await asyncio.gather(first, return_exceptions=True)
        admission.leave()  # the slot goes to the next still waiting
        await second
        assert (served, admission.busy, admission.waiting) == (["second"], 1, 0)
        admission.leave()
        assert admission.busy == 0

        admission.busy = 1  # a slot handed over as its waiter is cancelled is passed on, never lost
        late = asyncio.ensure_future(admission.enter())
        await asyncio.sleep(0)
        admission.leave()
        late.cancel()
        await asyncio.gather(late, return_exceptions=True)
        assert (admission.busy, admission.waiting) == (0, 0)

    asyncio.run(scenario())
    assert refusals == [QUEUE_FULL]


def test_a_model_list_asked_upstream_takes_a_slot_and_past_the_queue_is_left_out(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    """``GET /v1/models`` asks a pattern route's upstream for its list as a call would, so a
    listing never takes a connection an admitted call counts on; overloaded, the upstream's
    names are left out (and the log says why), the listing still answered."""
    caplog.set_level(logging.WARNING, logger="chatcodec.serve")
    with (
        proxy("openai-chat", "anthropic", fake.base, max_connections=1, max_queued=0) as origin,
        _slot_held(fake, origin, "openai-chat"),
    ):
        listing = httpx.get(f"{origin}/v1/models", headers=KEY, timeout=10)
    assert (listing.status_code, listing.json()["data"]) == (200, [])
    assert [received.path for received in fake.received] == ["/v1/messages"]  # the held call only
    assert any("model list is left out: all 1 upstream calls are busy" in r.getMessage() for r in caplog.records)
