"""No request holds or leaks the gateway: a stream nobody reads is ended and its upstream
closed, bad bodies are 400s that say where (never what), bad settings are refused at
start, and an upstream stream of bytes that are not UTF-8 is the front's stream error."""

from __future__ import annotations

import json
import logging
import socket
import time
from typing import Any

import httpx
import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import chatcodec
from chatcodec import FinishEvent, FinishReason, ResponseStartEvent, TextDeltaEvent, TextEndEvent, TextStartEvent
from chatcodec.serve import ServeConfig
from chatcodec.streams._framing import WireEventWriter
from serve.harness import FakeUpstream, fixture_json, proxy, serving_config

pytestmark = pytest.mark.usefixtures("fresh_fake")

SECRET_TEXT = "a conversation nobody else may read"
HEADERS = {"authorization": "Bearer k"}
ONE_USE = httpx.Limits(max_keepalive_connections=0)
"""A given client's connections closed after each answer: its app never closes it, and its
loop ends with the server."""


def _chat(origin: str, raw: bytes) -> httpx.Response:
    headers = {**HEADERS, "content-type": "application/json"}
    return httpx.post(f"{origin}/v1/chat/completions", content=raw, headers=headers, timeout=30)


# --- bodies: 400s that say where --------------------------------------------------------------


def test_a_lone_surrogate_escape_is_a_400_naming_the_path_not_the_text(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    config = ServeConfig(api="openai-chat", upstream="anthropic", upstream_url=fake.base, otel=True)
    raw = ('{"model": "m", "messages": [{"role": "user", "content": "' + SECRET_TEXT + ' \\ud83d"}]}').encode()
    with (
        caplog.at_level(logging.INFO, logger="chatcodec.serve"),
        serving_config(config, tracer_provider=provider) as origin,
    ):
        answer = _chat(origin, raw)
    assert answer.status_code == 400
    assert "$.messages[0].content" in answer.json()["error"]["message"]
    assert "surrogate" in answer.json()["error"]["message"]
    assert fake.received == []
    spans = repr([(span.attributes, span.status) for span in exporter.get_finished_spans()])
    for seen in (answer.text, caplog.text, spans):
        assert SECRET_TEXT not in seen


@pytest.mark.parametrize("depth", [201, 1000, 100_000])
def test_a_body_nested_past_the_limit_is_a_400(fake: FakeUpstream, depth: int) -> None:
    with proxy("openai-chat", "anthropic", fake.base) as origin:
        answer = _chat(origin, b'{"model": "m", "messages": ' + b"[" * depth + b"]" * depth + b"}")
    assert answer.status_code == 400
    assert "nested deeper than 200 levels" in answer.json()["error"]["message"]


@pytest.mark.parametrize("value", [12345, {}, ["resp_1"], True])
def test_a_previous_response_id_that_is_not_a_string_is_a_400(fake: FakeUpstream, value: object) -> None:
    body = {"model": "m", "input": "Hi", "previous_response_id": value}
    for store in (None, "memory"):
        with proxy("openai-responses", "anthropic", fake.base, store=store) as origin:
            answer = httpx.post(f"{origin}/v1/responses", json=body, headers=HEADERS, timeout=30)
        assert answer.status_code == 400, answer.text
        assert "previous_response_id must be a string" in answer.json()["error"]["message"]
    assert fake.received == []


def test_an_empty_previous_response_id_is_a_400_never_a_fresh_start(fake: FakeUpstream) -> None:
    body = {"model": "m", "input": "Hi", "previous_response_id": ""}
    for store in (None, "memory"):
        with proxy("openai-responses", "anthropic", fake.base, store=store) as origin:
            answer = httpx.post(f"{origin}/v1/responses", json=body, headers=HEADERS, timeout=30)
        assert answer.status_code == 400, answer.text
        assert "previous_response_id must name an answer, not be empty" in answer.json()["error"]["message"]
    assert fake.received == []


def test_an_unexpected_error_is_a_500_that_names_its_type_and_logs_where_not_what(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chatcodec.serve._steps import fit

    def broken(*arguments: Any, **settings: Any) -> Any:
        raise UnicodeEncodeError("utf-8", SECRET_TEXT, 0, 1, "surrogates not allowed")

    monkeypatch.setattr(fit, "write_request_data", broken)
    monkeypatch.setattr(fit, "directly_written", broken)  # the pair's direct path, which this request takes
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "Hi"}]}).encode()
    with (
        caplog.at_level(logging.INFO, logger="chatcodec.serve"),
        proxy("openai-chat", "anthropic", fake.base) as origin,
    ):
        answer = _chat(origin, body)
    assert answer.status_code == 500
    assert answer.json()["error"]["message"] == "internal error in chatcodec serve: UnicodeEncodeError"
    assert "fit.py" in caplog.text  # where it was raised
    assert SECRET_TEXT not in caplog.text + answer.text


# --- one caller's state never reaches another --------------------------------------------------


@pytest.mark.parametrize("given_client", [False, True])
def test_a_cookie_the_upstream_sets_for_one_caller_is_never_sent_for_another(
    fake: FakeUpstream, given_client: bool
) -> None:
    answer = fixture_json("anthropic", "response", "thinking_text_tool_use.json")
    fake.reply(answer, headers={"set-cookie": "session=caller-a-only; Path=/"})
    fake.reply(answer)
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "Hi"}]}).encode()
    config = ServeConfig(api="openai-chat", upstream="anthropic", upstream_url=fake.base)
    options: dict[str, Any] = {"client": httpx.AsyncClient(limits=ONE_USE)} if given_client else {}
    with serving_config(config, **options) as origin:
        first = httpx.post(
            f"{origin}/v1/chat/completions", content=body, headers={"authorization": "Bearer caller-a"}, timeout=30
        )
        second = httpx.post(
            f"{origin}/v1/chat/completions", content=body, headers={"authorization": "Bearer caller-b"}, timeout=30
        )
    assert (first.status_code, second.status_code) == (200, 200), second.text
    assert "set-cookie" not in first.headers  # not passed back either
    assert [received.headers["x-api-key"] for received in fake.received] == ["caller-a", "caller-b"]
    assert "cookie" not in fake.received[1].headers
    if given_client:
        assert not options["client"].cookies  # the given client's jar kept nothing


# --- upstream streams ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("upstream", "body", "content_type"),
    [
        ("ollama", b'{"model":"m","message":{"role":"assistant","content":"caf\xe9"},"done":false}\n', "x-ndjson"),
        ("gemini", b'[{"candidates":[{"content":{"role":"model","parts":[{"text":"caf\xe9"}]}}]}', "json"),
    ],
)
def test_upstream_stream_bytes_that_are_not_utf8_are_the_fronts_stream_error(
    fake: FakeUpstream, upstream: str, body: bytes, content_type: str
) -> None:
    fake.reply(body, content_type=f"application/{content_type}")
    request = {"model": "m", "max_tokens": 10, "stream": True, "messages": [{"role": "user", "content": "Hi"}]}
    with proxy("anthropic", upstream, fake.base) as origin:
        answer = httpx.post(f"{origin}/v1/messages", json=request, headers={"x-api-key": "k"}, timeout=30)
    assert answer.status_code == 502
    error = answer.json()
    assert error["type"] == "error"
    assert "not UTF-8" in error["error"]["message"]
    assert "caf" not in error["error"]["message"]


def test_a_stream_whose_caller_stops_reading_is_ended_and_its_upstream_connection_freed(fake: FakeUpstream) -> None:
    events: list[Any] = [ResponseStartEvent(id="a", model="claude-sonnet-4-5"), TextStartEvent(index=0)]
    events += [TextDeltaEvent(index=0, delta="x" * 4000) for _ in range(4000)]  # 16 MB: more than any buffer
    events += [TextEndEvent(index=0), FinishEvent(finish_reason=FinishReason(unified="stop"))]
    writer = WireEventWriter("anthropic")
    wire = chatcodec.encode_stream("anthropic", events, on_loss="ignore")  # the fake's bytes: no usage, invented
    stream = b"".join(writer.write(event) for event in wire) + writer.close()
    fake.reply(stream, content_type="text/event-stream", chunk_size=65536)
    answer = fixture_json("anthropic", "response", "adaptive_thinking_leading_text.json")
    fake.reply(answer)
    with proxy("openai-chat", "anthropic", fake.base, max_connections=1, pool_timeout=5, write_timeout=0.5) as origin:
        port = int(origin.rsplit(":", 1)[1])
        body = json.dumps({"model": "m", "stream": True, "messages": [{"role": "user", "content": "Hi"}]}).encode()
        with socket.create_connection(("127.0.0.1", port)) as reader:
            reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            head = (
                "POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer k\r\n"
                f"content-type: application/json\r\ncontent-length: {len(body)}\r\n\r\n"
            )
            reader.sendall(head.encode() + body)  # and never reads
            assert fake.stream_closed.wait(20), "the upstream stream stayed open"
            started = time.monotonic()
            plain = {"model": "m", "messages": [{"role": "user", "content": "Hi"}]}
            second = httpx.post(f"{origin}/v1/chat/completions", json=plain, headers=HEADERS, timeout=30)
    assert second.status_code == 200, second.text  # the one pool connection was freed
    assert time.monotonic() - started < 5


# --- settings -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "setting",
    [
        {"timeout": float("nan")},
        {"head_timeout": float("inf")},
        {"pool_timeout": -1.0},
        {"write_timeout": 0.0},
        {"shutdown_timeout": float("nan")},
        {"offload_bytes": -1},
    ],
)
def test_every_numeric_setting_is_finite_and_in_range_at_start(setting: dict[str, Any]) -> None:
    (name,) = setting
    with pytest.raises(ValueError, match=name):
        ServeConfig(api="openai-chat", upstream="anthropic", upstream_url="https://api.anthropic.com", **setting)


@pytest.mark.parametrize(("line", "key"), [('model_map = "x"', "model_map"), ("options = 3", "options")])
def test_a_toml_shape_error_exits_64_naming_the_key(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], line: str, key: str
) -> None:
    from chatcodec.cli._commands import main

    path = tmp_path / "serve.toml"
    path.write_text(f'api = "openai-chat"\nupstream = "anthropic"\nupstream_url = "https://a"\n{line}\n')
    assert main(["serve", "--config", str(path)]) == 64
    assert f"{key} must be a table" in capsys.readouterr().err


def test_the_command_line_takes_nan_as_a_refusal_not_a_server(capsys: pytest.CaptureFixture[str]) -> None:
    from chatcodec.cli._commands import main

    arguments = ["serve", "--api", "openai-chat", "--upstream", "anthropic", "--upstream-url", "https://a"]
    assert main([*arguments, "--timeout", "nan"]) == 64
    assert "timeout must be a positive finite number" in capsys.readouterr().err
