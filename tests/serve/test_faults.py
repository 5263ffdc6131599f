"""Faults and limits of ``chatcodec serve``: each with a real proxy and a fake upstream
on loopback, each asserting what the caller sees in its own API's error shape."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import anthropic
import httpx
import openai
import pytest

import chatcodec.serve._steps.answer
import chatcodec.serve._steps.validate
from chatcodec.serve._limits import check_model
from chatcodec.serve._refusal import RefusalError
from chatcodec.serve._steps.caller_watch import GONE
from serve.harness import FakeUpstream, fixture_bytes, fixture_json, proxy

SSE = "text/event-stream"
HELLO: list[Any] = [{"role": "user", "content": "Hello"}]
CHAT = {"model": "gpt-4o", "messages": HELLO}
KEY = {"authorization": "Bearer sk-caller"}


pytestmark = pytest.mark.usefixtures("fresh_fake")


def _openai_error(response: httpx.Response) -> dict[str, Any]:
    assert response.headers["content-type"] == "application/json"
    body: dict[str, Any] = response.json()["error"]
    assert set(body) == {"message", "type", "param", "code"}
    return body


def test_a_caller_that_leaves_a_plain_request_cancels_the_upstream_call(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"), delay=8)
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    with proxy("openai-chat", "anthropic", fake.base) as origin:
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(f"{origin}/v1/chat/completions", json=CHAT, headers=KEY, timeout=0.5)
        assert fake.disconnected.wait(6), "the upstream call kept running after its caller left"
        deadline = time.monotonic() + 5
        while not (lines := [r.getMessage() for r in caplog.records if '"cancelled": true' in r.getMessage()]):
            assert time.monotonic() < deadline, "no log line for the request its caller left"
            time.sleep(0.05)
    line = json.loads(lines[0])
    assert (line["status"], line["error"]) == (499, GONE)  # why, not only that it was cancelled


def test_a_full_upstream_pool_is_a_503_in_the_fronts_shape(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"), delay=3)
    with proxy("openai-chat", "anthropic", fake.base, max_connections=1, pool_timeout=0.2) as origin:
        holder = threading.Thread(
            target=lambda: httpx.post(f"{origin}/v1/chat/completions", json=CHAT, headers=KEY, timeout=10)
        )
        holder.start()
        deadline = time.monotonic() + 5
        while not fake.received:
            assert time.monotonic() < deadline, "the first request never reached the upstream"
            time.sleep(0.01)
        answer = httpx.post(f"{origin}/v1/chat/completions", json=CHAT, headers=KEY, timeout=10)
        holder.join()
    assert answer.status_code == 503
    assert answer.headers["retry-after"] == "1"
    error = _openai_error(answer)
    assert error["type"] == "server_error"
    assert "all 1 upstream calls stayed busy for 0.2 s" in error["message"]  # waited in the queue (serve._admission)
    assert len(fake.received) == 1


def test_an_upstream_that_does_not_answer_in_time_is_a_504_in_the_fronts_shape(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"), delay=3)
    with (
        proxy("anthropic", "anthropic", fake.base, timeout=0.3) as origin,
        anthropic.Anthropic(base_url=origin, api_key="sk-caller", max_retries=0) as client,
        pytest.raises(anthropic.APIStatusError) as raised,
    ):
        client.messages.create(model="claude-sonnet-4-6", max_tokens=10, messages=HELLO)
    assert raised.value.status_code == 504
    body = raised.value.body
    assert isinstance(body, dict)
    assert (body["type"], body["error"]["type"]) == ("error", "timeout_error")


def test_an_upstream_200_with_an_empty_stream_is_a_502_not_an_empty_answer(fake: FakeUpstream) -> None:
    fake.reply(b"", content_type=SSE)
    with proxy("openai-chat", "anthropic", fake.base) as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json={**CHAT, "stream": True}, headers=KEY)
    assert answer.status_code == 502
    assert "empty stream" in _openai_error(answer)["message"]


def test_an_unhandled_error_is_a_500_in_the_fronts_shape(fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*arguments: object, **settings: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(chatcodec.serve._steps.answer, "convert_answer", broken)
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    with proxy("openai-chat", "anthropic", fake.base) as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json=CHAT, headers=KEY)
    assert answer.status_code == 500
    assert _openai_error(answer)["type"] == "server_error"


def test_an_unknown_path_and_a_wrong_method_answer_in_the_fronts_shape(fake: FakeUpstream) -> None:
    with proxy("anthropic", "openai-chat", fake.base) as origin:
        missing = httpx.post(f"{origin}/v1/nothing", json={})
        wrong = httpx.get(f"{origin}/v1/messages")
    assert (missing.status_code, missing.json()["error"]["type"]) == (404, "not_found_error")
    assert wrong.status_code == 405
    assert wrong.json()["type"] == "error"


def test_retry_after_rate_limits_request_id_and_error_type_reach_the_caller(fake: FakeUpstream) -> None:
    limited = {"type": "error", "error": {"type": "rate_limit_error", "message": "Number of requests exceeded"}}
    headers = {
        "retry-after": "30",
        "anthropic-ratelimit-requests-remaining": "0",
        "x-ratelimit-limit-requests": "50",
        "request-id": "req_upstream_1",
    }
    fake.reply(limited, 429, headers=headers)
    with (
        proxy("openai-chat", "anthropic", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="sk-caller", max_retries=0) as client,
        pytest.raises(openai.RateLimitError) as raised,
    ):
        client.chat.completions.create(model="claude-sonnet-4-6", messages=HELLO)
    response = raised.value.response
    assert response.headers["retry-after"] == "30"
    assert response.headers["anthropic-ratelimit-requests-remaining"] == "0"
    assert response.headers["x-ratelimit-limit-requests"] == "50"
    assert raised.value.request_id == "req_upstream_1"
    assert raised.value.code == "rate_limit_error"


def test_rate_limit_headers_are_passed_on_a_success_too(fake: FakeUpstream) -> None:
    fake.reply(
        fixture_json("anthropic", "response", "thinking_text_tool_use.json"),
        headers={"x-ratelimit-remaining-tokens": "9"},
    )
    with proxy("openai-chat", "anthropic", fake.base) as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json=CHAT, headers=KEY)
    assert answer.status_code == 200
    assert answer.headers["x-ratelimit-remaining-tokens"] == "9"
    assert answer.headers["x-request-id"].startswith("req_")


@pytest.mark.parametrize("model", ["..", ".", "a/../b", "models/..", "x\n"])
def test_a_model_name_that_would_change_the_upstream_path_is_refused(fake: FakeUpstream, model: str) -> None:
    with proxy("openai-chat", "bedrock-converse", fake.base) as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json={**CHAT, "model": model}, headers=KEY)
    assert answer.status_code == 400
    assert "invalid model name" in _openai_error(answer)["message"]
    assert fake.received == []


@pytest.mark.parametrize(
    ("model", "refused"),
    [("a\x00b", True), ("a\x1f", True), ("\x7f", True), ("a\x80b", False), ("a b", False), ("claude-3.5", False)],
)
def test_a_model_name_with_a_c0_control_or_del_is_refused_and_no_other_character(model: str, refused: bool) -> None:
    if refused:
        with pytest.raises(RefusalError, match="control character"):
            check_model(model)
    else:
        check_model(model)


def test_a_body_above_the_limit_is_a_413_declared_or_chunked(fake: FakeUpstream) -> None:
    big = json.dumps({**CHAT, "messages": [{"role": "user", "content": "x" * 5000}]}).encode()

    def chunked() -> Iterator[bytes]:
        yield big[:2000]
        yield big[2000:]

    with proxy("openai-chat", "anthropic", fake.base, max_body_bytes=4096) as origin:
        declared = httpx.post(f"{origin}/v1/chat/completions", content=big, headers=KEY)
        streamed = httpx.post(f"{origin}/v1/chat/completions", content=chunked(), headers=KEY)
    for answer in (declared, streamed):
        assert answer.status_code == 413
        assert "larger than this server's limit of 4096 bytes" in _openai_error(answer)["message"]
    assert fake.received == []


def test_a_large_body_is_converted_off_the_event_loop(fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    convert = chatcodec.serve._steps.fit.directly_written  # the pair's direct path: the body is not read at step 4

    def recording(*arguments: Any, **settings: Any) -> Any:
        threads.append(threading.current_thread().name)
        return convert(*arguments, **settings)

    monkeypatch.setattr(chatcodec.serve._steps.fit, "directly_written", recording)
    large = {**CHAT, "messages": [{"role": "user", "content": "x" * 2000}]}
    with proxy("openai-chat", "anthropic", fake.base, offload_bytes=1000) as origin:
        for body in (CHAT, large):
            fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
            assert httpx.post(f"{origin}/v1/chat/completions", json=body, headers=KEY).status_code == 200
    small_thread, large_thread = threads
    assert small_thread != large_thread, "the large body was converted on the event loop's thread"


def test_a_mid_stream_error_is_logged_with_its_status(fake: FakeUpstream, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    start = fixture_bytes("anthropic", "stream", "text_basic.sse").split(b"\n\n")[0] + b"\n\n"
    error = b'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'
    fake.reply(start + error, content_type=SSE)
    with proxy("openai-chat", "anthropic", fake.base) as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json={**CHAT, "stream": True}, headers=KEY)
        assert answer.status_code == 200
        deadline = time.monotonic() + 5
        while not [record for record in caplog.records if record.name == "chatcodec.serve"]:
            assert time.monotonic() < deadline, "no log line"
            time.sleep(0.01)
    line = json.loads(next(record.getMessage() for record in caplog.records if record.name == "chatcodec.serve"))
    assert (line["status"], line["headers"]) == (529, 200)
    assert line["error"]


def test_an_upstream_quiet_mid_stream_past_the_timeout_is_named_a_timeout(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    """httpx's ReadTimeout has no text: the stream's error said "broke off: " and nothing more."""
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    events = fixture_bytes("anthropic", "stream", "text_basic.sse").split(b"\n\n")
    fake.reply(b"\n\n".join(events[:4]) + b"\n\n", content_type=SSE, stall=3.0)  # up to the first text
    with proxy("openai-chat", "anthropic", fake.base, timeout=0.5) as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json={**CHAT, "stream": True}, headers=KEY, timeout=10)
        deadline = time.monotonic() + 5
        while not [record for record in caplog.records if record.name == "chatcodec.serve"]:
            assert time.monotonic() < deadline, "no log line"
            time.sleep(0.01)
    assert answer.status_code == 200
    reason = "the upstream stream timed out: nothing came for 0.5 s (--timeout)"
    assert reason in answer.text  # the caller's error event
    line = json.loads(next(record.getMessage() for record in caplog.records if record.name == "chatcodec.serve"))
    assert (line["status"], line["headers"], line["error"]) == (504, 200, reason)


def test_an_upstream_that_never_answers_is_named_a_timeout(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"), delay=3.0)
    with proxy("openai-chat", "anthropic", fake.base, timeout=0.5) as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json=CHAT, headers=KEY, timeout=10)
    assert answer.status_code == 504
    assert answer.json()["error"]["message"] == "the anthropic upstream timed out: nothing came for 0.5 s (--timeout)"
