"""A gateway safe to expose: keys never echoed, callers of the operator's key kept to
it, the upstream's error kept whole for a caller of the same API, state the upstream
keeps refused where it cannot. A real server on loopback in front of a fake upstream."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import httpx
import openai
import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from chatcodec.serve import ServeConfig
from serve.harness import FakeUpstream, fixture_bytes, fixture_json, proxy, serving_config

HELLO: list[Any] = [{"role": "user", "content": "Hello"}]
GEMINI_HELLO = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
SECRET = "SECRETsk"


pytestmark = pytest.mark.usefixtures("fresh_fake")


def _spans_text(exporter: InMemorySpanExporter) -> str:
    deadline = time.monotonic() + 5
    while not exporter.get_finished_spans() and time.monotonic() < deadline:
        time.sleep(0.01)
    return repr([(span.attributes, span.status, span.events) for span in exporter.get_finished_spans()])


# --- keys ---------------------------------------------------------------------------------


def test_a_caller_key_with_cr_lf_or_non_ascii_is_never_echoed(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    """A Gemini ``?key=`` percent-escapes a CR/LF, a header carries Latin-1: the HTTP client's
    error would quote the key into the answer, the log line and the span."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    config = ServeConfig("gemini", "anthropic", fake.base, otel=True)
    with (
        caplog.at_level(logging.INFO, logger="chatcodec.serve"),
        serving_config(config, tracer_provider=provider) as origin,
    ):
        path = f"{origin}/v1beta/models/m:generateContent"
        split = httpx.post(f"{path}?key={SECRET}%0D%0AX-Evil:%201", json=GEMINI_HELLO)
        latin = httpx.post(path, json=GEMINI_HELLO, headers={"x-goog-api-key": f"{SECRET}\xe9".encode("latin-1")})
    assert (split.status_code, latin.status_code) == (401, 401)
    assert split.json()["error"]["status"] == "UNAUTHENTICATED"
    seen = split.text + latin.text + caplog.text + _spans_text(exporter)
    assert SECRET not in seen
    assert fake.received == []


def test_an_operator_key_with_a_newline_is_never_echoed(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", f"{SECRET}\r\n")
    with (
        caplog.at_level(logging.INFO, logger="chatcodec.serve"),
        proxy("openai-chat", "anthropic", fake.base, client_keys=frozenset({"proxy-key"})) as origin,
    ):
        answer = httpx.post(
            f"{origin}/v1/chat/completions",
            json={"model": "m", "messages": HELLO},
            headers={"authorization": "Bearer proxy-key"},
        )
    assert answer.status_code == 500
    assert "$ANTHROPIC_API_KEY" in answer.json()["error"]["message"]
    assert SECRET not in answer.text + caplog.text


def test_with_client_keys_callers_cannot_set_the_operator_keys_openai_organization_or_project(
    fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "operator-key")
    chosen = {"openai-organization": "org-theirs", "openai-project": "proj-theirs"}
    with proxy("openai-chat", "openai-chat", f"{fake.base}/v1", client_keys=frozenset({"proxy-key"})) as origin:
        fake.reply(fixture_json("openai-chat", "response", "text_stop.json"))
        answer = httpx.post(
            f"{origin}/v1/chat/completions",
            json={"model": "m", "messages": HELLO},
            headers={"authorization": "Bearer proxy-key", **chosen},
        )
    assert answer.status_code == 200
    assert fake.last.headers["authorization"] == "Bearer operator-key"
    assert not set(chosen) & set(fake.last.headers)


def test_a_callers_own_key_still_takes_its_organization_and_project(fake: FakeUpstream) -> None:
    chosen = {"openai-organization": "org-mine", "openai-project": "proj-mine"}
    with proxy("openai-chat", "openai-chat", f"{fake.base}/v1") as origin:
        fake.reply(fixture_json("openai-chat", "response", "text_stop.json"))
        httpx.post(
            f"{origin}/v1/chat/completions",
            json={"model": "m", "messages": HELLO},
            headers={"authorization": "Bearer mine", **chosen},
        )
    assert {name: fake.last.headers[name] for name in chosen} == chosen


# --- settings -----------------------------------------------------------------------------


def test_every_toml_setting_is_type_checked(tmp_path: Any) -> None:
    from chatcodec.serve._config import read_config_file

    path = tmp_path / "serve.toml"
    wrong = {
        'allow_anonymous = "false"': "allow_anonymous must be true or false",
        'max_connections = "8"': "max_connections must be a whole number",
        "timeout = true": "timeout must be a number",
        'client_keys = ["a"]': "unknown setting",
        "[model_map]\nfast = 1": "model_map must be a table of strings",
        'allowed_losses = "setting"': "allowed_losses must be a list",
        '[[route]]\npattern = "x"\nupstream = "gemini"\nurl = "https://g"\nmodels = "gemini-pro"': "models",
    }
    for line, message in wrong.items():
        path.write_text(f'api = "openai-chat"\nupstream = "anthropic"\nupstream_url = "https://a"\n{line}\n')
        with pytest.raises(ValueError, match=message):
            ServeConfig(**read_config_file(path))


def test_host_and_port_are_taken_from_the_toml_file_as_the_readme_says(tmp_path: Any) -> None:
    from chatcodec.cli._commands import _parser
    from chatcodec.cli._serve import settings_from
    from chatcodec.serve import _config as config_module

    path = tmp_path / "serve.toml"
    path.write_text(
        'api = "openai-chat"\nupstream = "anthropic"\nupstream_url = "https://api.anthropic.com"\n'
        'host = "0.0.0.0"\nport = 9000\n'
    )
    config = ServeConfig(**settings_from(_parser().parse_args(["serve", "--config", str(path)]), config_module))
    assert (config.host, config.port) == ("0.0.0.0", 9000)
    given = _parser().parse_args(["serve", "--config", str(path), "--port", "9001"])
    assert ServeConfig(**settings_from(given, config_module)).port == 9001


# --- the upstream's error, kept -----------------------------------------------------------


def test_x_should_retry_is_passed_to_the_caller(fake: FakeUpstream) -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    with proxy("openai-chat", "anthropic", fake.base) as origin:
        fake.reply(overloaded, 529, headers={"x-should-retry": "false"})
        answer = httpx.post(
            f"{origin}/v1/chat/completions",
            json={"model": "m", "messages": HELLO},
            headers={"authorization": "Bearer k"},
        )
    assert (answer.status_code, answer.headers["x-should-retry"]) == (529, "false")


def test_the_upstreams_error_type_and_code_are_kept_when_the_front_speaks_its_api(fake: FakeUpstream) -> None:
    quota = {
        "error": {
            "message": "You exceeded your current quota.",
            "type": "insufficient_quota",
            "param": None,
            "code": "insufficient_quota",
        }
    }
    with proxy("openai-chat", "openai-chat", f"{fake.base}/v1") as origin:
        fake.reply(quota, 429)
        answer = httpx.post(
            f"{origin}/v1/chat/completions",
            json={"model": "m", "messages": HELLO},
            headers={"authorization": "Bearer k"},
        )
    assert (answer.status_code, answer.json()) == (429, quota)


# --- state only the provider keeps --------------------------------------------------------


@pytest.mark.parametrize(
    "field", [{"conversation": "conv_123"}, {"prompt": {"id": "pmpt_123", "variables": {"city": "Paris"}}}]
)
def test_responses_conversation_and_prompt_are_refused_unless_the_upstream_is_responses(
    fake: FakeUpstream, field: dict[str, Any]
) -> None:
    request = {"model": "m", "input": "Hello", **field}
    with proxy("openai-responses", "anthropic", fake.base) as origin:
        refused = httpx.post(f"{origin}/v1/responses", json=request, headers={"authorization": "Bearer k"})
    assert refused.status_code == 400
    assert refused.json()["error"]["type"] == "invalid_request_error"
    assert f"`{next(iter(field))}`" in refused.json()["error"]["message"]
    assert fake.received == []
    with proxy("openai-responses", "openai-responses", f"{fake.base}/v1") as origin:
        fake.reply(fixture_json("openai-responses", "response", "function_call_no_reasoning.json"))
        passed = httpx.post(f"{origin}/v1/responses", json=request, headers={"authorization": "Bearer k"})
    assert passed.status_code == 200
    assert fake.last.body[next(iter(field))] == field[next(iter(field))]


# --- an upstream stream cut between events ------------------------------------------------


def _cut(recorded: bytes, marker: bytes) -> bytes:
    """``recorded`` up to (not including) the first event holding ``marker``: whole events only."""
    return recorded[: recorded.rfind(b"\n\n", 0, recorded.index(marker)) + 2]


def test_an_upstream_stream_cut_between_events_ends_with_the_fronts_error_event(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    cut = _cut(fixture_bytes("anthropic", "stream", "text_basic.sse"), b"content_block_stop")
    with (
        caplog.at_level(logging.INFO, logger="chatcodec.serve"),
        proxy("openai-chat", "anthropic", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        fake.reply(cut, content_type="text/event-stream")
        with pytest.raises(openai.APIError, match="cut between two events"):
            list(client.chat.completions.create(model="m", messages=HELLO, stream=True))  # type: ignore[arg-type]
    (line,) = [json.loads(record.getMessage()) for record in caplog.records if record.name == "chatcodec.serve"]
    assert (line["status"], line["headers"]) == (502, 200)


def test_an_openai_stream_cut_before_its_finish_is_an_anthropic_error_event(fake: FakeUpstream) -> None:
    cut = _cut(fixture_bytes("openai-chat", "stream", "text_with_usage_obfuscation.sse"), b'"finish_reason":"stop"')
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1") as origin:
        fake.reply(cut, content_type="text/event-stream")
        body = {"model": "m", "max_tokens": 10, "messages": HELLO, "stream": True}
        answer = httpx.post(f"{origin}/v1/messages", json=body, headers={"x-api-key": "k"})
    assert "event: error" in answer.text
    assert "event: message_stop" not in answer.text


def test_a_whole_upstream_stream_still_finishes_cleanly(fake: FakeUpstream) -> None:
    with proxy("anthropic", "gemini", fake.base) as origin:
        fake.reply(fixture_bytes("gemini", "stream", "text.sse"), content_type="text/event-stream")
        body = {"model": "m", "max_tokens": 10, "messages": HELLO, "stream": True}
        answer = httpx.post(f"{origin}/v1/messages", json=body, headers={"x-api-key": "k"})
    assert "event: message_stop" in answer.text
    assert "event: error" not in answer.text


# --- caps on what the upstream sends ------------------------------------------------------


def test_a_plain_answer_over_the_cap_is_a_502(fake: FakeUpstream) -> None:
    answer = fixture_json("anthropic", "response", "cache_read_and_creation_usage.json")
    answer["content"] = [{"type": "text", "text": "x" * 5000}]
    with proxy("openai-chat", "anthropic", fake.base, max_answer_bytes=4000) as origin:
        fake.reply(answer)
        refused = httpx.post(
            f"{origin}/v1/chat/completions",
            json={"model": "m", "messages": HELLO},
            headers={"authorization": "Bearer k"},
        )
    assert refused.status_code == 502
    assert "limit of 4000 bytes" in refused.json()["error"]["message"]


def test_one_upstream_event_over_the_cap_ends_the_stream_with_an_error(fake: FakeUpstream) -> None:
    head = _cut(fixture_bytes("anthropic", "stream", "text_basic.sse"), b"content_block_delta")
    endless_event = b"event: content_block_delta\ndata: " + b"x" * 5000
    with (
        proxy("openai-chat", "anthropic", fake.base, max_event_bytes=1000) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        fake.reply(head + endless_event, content_type="text/event-stream", chunk_size=500)
        with pytest.raises(openai.APIError, match="limit of 1000 bytes"):
            list(client.chat.completions.create(model="m", messages=HELLO, stream=True))  # type: ignore[arg-type]
        fake.reply(endless_event, content_type="text/event-stream", chunk_size=500)
        first = httpx.post(
            f"{origin}/v1/chat/completions",
            json={"model": "m", "messages": HELLO, "stream": True},
            headers={"authorization": "Bearer k"},
        )
    assert first.status_code == 502


# --- a large request beside small ones ----------------------------------------------------


def test_a_large_request_is_converted_and_written_off_the_event_loop(
    fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parsing, converting and serializing a 7.6 MB body takes the loop for a quarter of a
    second (json.dumps alone 75 ms): every step of it runs on a worker thread, so small
    requests are not held behind it (bench: the max small-request latency beside 7.6 MB
    bodies went from 208 to 118 ms)."""
    import asyncio

    from chatcodec.serve._steps import fit as fit_module

    on_the_loop: list[bool] = []
    written = fit_module.upstream_call

    def watched(*arguments: Any, **settings: Any) -> Any:
        try:
            asyncio.get_running_loop()
            on_the_loop.append(True)
        except RuntimeError:
            on_the_loop.append(False)
        return written(*arguments, **settings)

    monkeypatch.setattr(fit_module, "upstream_call", watched)
    large = {"model": "m", "messages": [{"role": "user", "content": "word " * 20_000}]}
    with proxy("openai-chat", "anthropic", fake.base, offload_bytes=64 * 1024) as origin:
        fake.reply(fixture_json("anthropic", "response", "cache_read_and_creation_usage.json"))
        answer = httpx.post(f"{origin}/v1/chat/completions", json=large, headers={"authorization": "Bearer k"})
    assert answer.status_code == 200
    assert on_the_loop == [False]
