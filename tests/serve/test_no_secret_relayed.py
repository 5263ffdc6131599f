"""No secret relayed (:mod:`chatcodec.serve._secrets`): an upstream that repeats the key it was
sent in its error (``Incorrect API key provided: sk-...``, as some OpenAI-compatible servers
do) reaches no caller, log line or span with it. Client keys stand in front of an operator
key here, so a caller reading the operator's key would be a caller reading what it was never
given: each front's own SDK gets the error with the key replaced, plain and streamed, and
the request log and the span keep no copy."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import anthropic
import ollama
import openai
import pytest
from google import genai
from google.genai import errors as genai_errors
from google.genai import types
from google.genai._interactions_errors import APIStatusError
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from chatcodec.serve import ServeConfig
from chatcodec.serve._secrets import REDACTED, sent_secrets
from serve.harness import FakeUpstream, serving_config

pytestmark = pytest.mark.usefixtures("fresh_fake")

OPERATOR_KEY = "sk-operator-0123456789abcdef"
CLIENT_KEY = "ck-alice-0123456789"
KEY_VARIABLE = "CHATCODEC_TEST_OPERATOR_KEY"
ECHO = f"Incorrect API key provided: {OPERATOR_KEY}. You can find your API key at https://example.invalid."
"""What an upstream that echoes its key answers (OpenAI's 401 text, the key whole)."""
ECHOED_401 = {"error": {"message": ECHO, "type": "invalid_request_error", "param": None, "code": "invalid_api_key"}}
HELLO: list[Any] = [{"role": "user", "content": "Hello"}]
FIRST_CHUNK = {
    "id": "chatcmpl-1",
    "object": "chat.completion.chunk",
    "created": 1,
    "model": "m",
    "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}, "finish_reason": None}],
}
"""An OpenAI Chat stream's first chunk: the caller's headers go once it is converted."""
FRONTS = ("openai-chat", "anthropic", "openai-responses", "gemini", "gemini-interactions", "ollama")


def _echoing_stream() -> bytes:
    """A stream that starts, then fails with the key in its error event."""
    error = {"error": {"message": ECHO, "type": "server_error", "param": None, "code": None}}
    return f"data: {json.dumps(FIRST_CHUNK)}\n\ndata: {json.dumps(error)}\n\n".encode()


@contextmanager
def _gateway(
    fake: FakeUpstream,
    api: str,
    monkeypatch: pytest.MonkeyPatch,
    app_options: dict[str, Any] | None = None,
    **settings: Any,
) -> Iterator[str]:
    """A gateway on ``api`` with a client key in front of the operator's key, before an
    OpenAI Chat upstream (the fake)."""
    monkeypatch.setenv(KEY_VARIABLE, OPERATOR_KEY)
    config = ServeConfig(
        api=api,
        upstream="openai-chat",
        upstream_url=f"{fake.base}/v1",
        api_key_env=KEY_VARIABLE,
        client_keys=frozenset({CLIENT_KEY}),
        **settings,
    )
    with serving_config(config, **(app_options or {})) as origin:
        yield origin


def _plain_error(api: str, origin: str) -> str:
    """What ``api``'s own SDK reports of a plain call's error: its message and body."""
    if api in ("openai-chat", "openai-responses"):
        client = openai.OpenAI(base_url=f"{origin}/v1", api_key=CLIENT_KEY, max_retries=0)
        call: Callable[[], object] = (
            (lambda: client.chat.completions.create(model="m", messages=HELLO))
            if api == "openai-chat"
            else (lambda: client.responses.create(model="m", input="Hello"))
        )
        with client, pytest.raises(openai.AuthenticationError) as failed:
            call()
        return f"{failed.value} {failed.value.response.text}"
    if api == "anthropic":
        claude = anthropic.Anthropic(base_url=origin, api_key=CLIENT_KEY, max_retries=0)
        with claude, pytest.raises(anthropic.AuthenticationError) as refused:
            claude.messages.create(model="m", max_tokens=10, messages=HELLO)
        return f"{refused.value} {refused.value.response.text}"
    if api == "gemini":
        with _genai(origin) as gemini, pytest.raises(genai_errors.ClientError) as denied:
            gemini.models.generate_content(model="m", contents="Hello")
        return f"{denied.value} {denied.value.details}"
    if api == "gemini-interactions":
        with _genai(origin) as gemini, pytest.raises(APIStatusError) as status:
            gemini.interactions.create(model="m", input="Hello")
        return f"{status.value} {status.value.response.text}"
    chat = ollama.Client(host=origin, headers={"authorization": f"Bearer {CLIENT_KEY}"})
    with chat, pytest.raises(ollama.ResponseError) as answered:
        chat.chat(model="m", messages=HELLO)
    return f"{answered.value.error}"


def _streamed_error(api: str, origin: str) -> str:
    """What ``api``'s own SDK reports of the error that ended a stream it had started reading."""
    if api in ("openai-chat", "openai-responses"):
        client = openai.OpenAI(base_url=f"{origin}/v1", api_key=CLIENT_KEY, max_retries=0)
        call: Callable[[], object] = (
            (lambda: list(client.chat.completions.create(model="m", messages=HELLO, stream=True)))
            if api == "openai-chat"
            else (lambda: list(client.responses.create(model="m", input="Hello", stream=True)))
        )
        with client, pytest.raises(openai.APIError) as failed:
            call()
        return f"{failed.value} {failed.value.body}"
    if api == "anthropic":
        claude = anthropic.Anthropic(base_url=origin, api_key=CLIENT_KEY, max_retries=0)
        with claude, pytest.raises(anthropic.APIStatusError) as refused:
            list(claude.messages.create(model="m", max_tokens=10, messages=HELLO, stream=True))
        return f"{refused.value} {refused.value.body}"
    if api == "gemini":
        with _genai(origin) as gemini, pytest.raises(genai_errors.APIError) as denied:
            list(gemini.models.generate_content_stream(model="m", contents="Hello"))
        return f"{denied.value} {denied.value.details}"
    if api == "gemini-interactions":
        with _genai(origin) as gemini:
            events = list(gemini.interactions.create(model="m", input="Hello", stream=True))
        errors = [event for event in events if event.event_type == "error"]
        assert len(errors) == 1, events
        return errors[0].model_dump_json()
    chat = ollama.Client(host=origin, headers={"authorization": f"Bearer {CLIENT_KEY}"})
    with chat, pytest.raises(ollama.ResponseError) as answered:
        list(chat.chat(model="m", messages=HELLO, stream=True))
    return f"{answered.value.error}"


def _genai(origin: str) -> genai.Client:
    options = types.HttpOptions(base_url=origin, retry_options=types.HttpRetryOptions(attempts=1))
    return genai.Client(api_key=CLIENT_KEY, http_options=options)


@pytest.mark.parametrize("api", FRONTS)
def test_an_upstream_401_echoing_the_operators_key_reaches_the_caller_without_it(
    fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch, api: str
) -> None:
    fake.reply(ECHOED_401, status=401)
    with _gateway(fake, api, monkeypatch) as origin:
        seen = _plain_error(api, origin)
    assert fake.last.headers["authorization"] == f"Bearer {OPERATOR_KEY}"  # the operator's key went upstream
    assert OPERATOR_KEY not in seen
    assert f"Incorrect API key provided: {REDACTED}" in seen  # the rest of the message kept


@pytest.mark.parametrize("api", FRONTS)
def test_a_stream_error_event_echoing_the_operators_key_reaches_the_caller_without_it(
    fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch, api: str
) -> None:
    fake.reply(_echoing_stream(), content_type="text/event-stream")
    with _gateway(fake, api, monkeypatch) as origin:
        seen = _streamed_error(api, origin)
    assert OPERATOR_KEY not in seen
    assert f"Incorrect API key provided: {REDACTED}" in seen


def _logged(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(entry.message) for entry in caplog.records if entry.message.startswith("{")]


@pytest.mark.parametrize("stream", [False, True])
def test_the_request_log_keeps_no_echoed_key(
    fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, stream: bool
) -> None:
    if stream:
        fake.reply(_echoing_stream(), content_type="text/event-stream")
    else:
        fake.reply(ECHOED_401, status=401)
    with caplog.at_level(logging.INFO, logger="chatcodec.serve"), _gateway(fake, "anthropic", monkeypatch) as origin:
        claude = anthropic.Anthropic(base_url=origin, api_key=CLIENT_KEY, max_retries=0)
        with claude, pytest.raises(anthropic.APIStatusError):
            list(claude.messages.create(model="m", max_tokens=10, messages=HELLO, stream=stream))
        deadline = time.monotonic() + 5  # a stream's line is written as its body ends
        while not _logged(caplog) and time.monotonic() < deadline:
            time.sleep(0.01)
    (line,) = _logged(caplog)
    assert OPERATOR_KEY not in caplog.text
    assert (
        line["error"]
        == f"Incorrect API key provided: {REDACTED}. You can find your API key at https://example.invalid."
    )


@pytest.mark.parametrize("stream", [False, True])
def test_the_span_keeps_no_echoed_key(fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch, stream: bool) -> None:
    if stream:
        fake.reply(_echoing_stream(), content_type="text/event-stream")
    else:
        fake.reply(ECHOED_401, status=401)
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    with _gateway(fake, "openai-chat", monkeypatch, otel=True, app_options={"tracer_provider": provider}) as origin:
        _streamed_error("openai-chat", origin) if stream else _plain_error("openai-chat", origin)
        deadline = time.monotonic() + 5
        while not exporter.get_finished_spans() and time.monotonic() < deadline:
            time.sleep(0.01)
    provider.shutdown()
    (span,) = exporter.get_finished_spans()
    shown = json.dumps({"status": span.status.description, "attributes": dict(span.attributes or {})})
    assert OPERATOR_KEY not in shown
    assert span.status.description is not None
    assert REDACTED in span.status.description


def test_the_secrets_of_a_request_are_its_key_headers_and_their_tokens() -> None:
    """A bearer token alone is what an upstream echoes; a short value is no key and is left."""
    secrets = sent_secrets(
        {
            "authorization": f"Bearer {OPERATOR_KEY}",
            "x-goog-api-key": "AIzaSy-google-key",
            "anthropic-beta": "b-12345678",
        },
        (CLIENT_KEY, "short"),
    )
    scrub: Callable[[str], str] = secrets.scrub
    assert (
        scrub(f"key {OPERATOR_KEY}, AIzaSy-google-key and {CLIENT_KEY}") == f"key {REDACTED}, {REDACTED} and {REDACTED}"
    )
    assert scrub("short b-12345678") == "short b-12345678"  # a short value, a header that holds no secret
    assert secrets.scrub_data({"error": {"message": [OPERATOR_KEY], "code": 401}}) == {
        "error": {"message": [REDACTED], "code": 401}
    }
