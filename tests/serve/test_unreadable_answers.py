"""An upstream answer chatcodec cannot carry exactly, plain or streamed, is the same clean 502
in the caller's own API's error shape, naming the JSON path and the rule, never a 500
"internal error": a lone surrogate escape (``"\\ud83d"``, what a server writes when it cuts
an emoji's pair at ``max_tokens``) and JSON nested 100,000 deep. The lone surrogate is
refused, not carried with a replacement character, because the stream path refuses it
(``chatcodec._payloads.loads``, every reader's rule): one rule, plain or streamed."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from serve.harness import FakeUpstream, proxy

pytestmark = pytest.mark.usefixtures("fresh_fake")

SSE = "text/event-stream"
KEY = {"authorization": "Bearer sk-caller"}
HELLO: list[Any] = [{"role": "user", "content": "Hello"}]

FRONTS: dict[str, tuple[str, dict[str, Any]]] = {
    "openai-chat": ("/v1/chat/completions", {"model": "claude-sonnet-4-6", "messages": HELLO}),
    "openai-responses": ("/v1/responses", {"model": "claude-sonnet-4-6", "input": "Hello"}),
    "anthropic": ("/v1/messages", {"model": "claude-sonnet-4-6", "max_tokens": 10, "messages": HELLO}),
    "gemini": ("/v1beta/models/claude-sonnet-4-6:generateContent", {"contents": [{"parts": [{"text": "Hello"}]}]}),
    "ollama": ("/api/chat", {"model": "claude-sonnet-4-6", "messages": HELLO}),
}
STREAM_PATHS = {"gemini": "/v1beta/models/claude-sonnet-4-6:streamGenerateContent?alt=sse"}


def _answer(text_json: str) -> bytes:
    """An Anthropic answer whose one text block's JSON is ``text_json`` (written as is)."""
    return (
        '{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-6",'
        f'"content":[{{"type":"text","text":{text_json}}}],"stop_reason":"max_tokens",'
        '"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}'
    ).encode()


LONE_SURROGATE = _answer('"Here you are \\ud83d"')
DEEP = (
    b'{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-6","content":[{"type":"tool_use",'
    b'"id":"toolu_1","name":"f","input":' + b'{"a":' * 100_000 + b"1" + b"}" * 100_000 + b'}],"stop_reason":"tool_use",'
    b'"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}'
)


def _stream(message_start: bytes) -> bytes:
    """An Anthropic stream whose first event's data is ``message_start``."""
    return b"event: message_start\ndata: " + message_start + b"\n\n"


def _error_message(api: str, answer: httpx.Response, anthropic_type: str = "api_error") -> str:
    """The message of ``answer``'s error body, asserting the body is in ``api``'s shape."""
    assert answer.headers["content-type"] == "application/json"
    body: dict[str, Any] = answer.json()
    if api == "ollama":
        assert set(body) == {"error"}
        message: str = body["error"]
        return message
    error = body["error"]
    if api == "anthropic":
        assert (body["type"], error["type"]) == ("error", anthropic_type)
    elif api == "gemini":
        assert (error["code"], error["status"]) == (502, "INTERNAL")
    else:
        assert set(error) == {"message", "type", "param", "code"}
    message = error["message"]
    return message


def _post(origin: str, api: str, *, stream: bool) -> httpx.Response:
    path, body = FRONTS[api]
    if stream:
        path = STREAM_PATHS.get(api, path)
        body = body if api == "gemini" else {**body, "stream": True}
    elif api == "ollama":
        body = {**body, "stream": False}
    return httpx.post(f"{origin}{path}", json=body, headers=KEY, timeout=60)


@pytest.mark.parametrize("api", FRONTS)
def test_a_plain_answer_with_a_lone_surrogate_is_a_502_naming_its_path_as_streamed(
    fake: FakeUpstream, api: str
) -> None:
    message_start = json.dumps({"type": "message_start", "message": json.loads(_answer('""'))})
    fake.reply(LONE_SURROGATE)
    fake.reply(_stream(message_start.replace('"text": ""', '"text": "\\ud83d"').encode()), content_type=SSE)
    with proxy(api, "anthropic", fake.base) as origin:
        plain = _post(origin, api, stream=False)
        streamed = _post(origin, api, stream=True)
    assert (plain.status_code, streamed.status_code) == (502, 502)
    rule = "a string holds a lone UTF-16 surrogate at $"
    assert _error_message(api, plain) == f"the anthropic upstream's answer cannot be read: {rule}.content[0].text"
    assert rule in _error_message(api, streamed)
    assert "Here you are" not in plain.text  # the path is named, never the text


@pytest.mark.parametrize("api", FRONTS)
def test_a_plain_answer_nested_100k_deep_is_a_502_as_streamed(fake: FakeUpstream, api: str) -> None:
    fake.reply(DEEP)
    fake.reply(
        _stream(b'{"type":"message_start","message":' + b"[" * 100_000 + b"]" * 100_000 + b"}"), content_type=SSE
    )
    with proxy(api, "anthropic", fake.base) as origin:
        plain = _post(origin, api, stream=False)
        streamed = _post(origin, api, stream=True)
    assert (plain.status_code, streamed.status_code) == (502, 502)
    assert (
        _error_message(api, plain)
        == "the anthropic upstream's answer cannot be read: JSON nested too deeply to read at $"
    )
    assert "cannot be read" in _error_message(api, streamed)


@pytest.mark.parametrize("api", ["anthropic", "openai-chat"])
def test_an_upstream_error_whose_message_holds_a_lone_surrogate_is_passed_with_its_status(
    fake: FakeUpstream, api: str
) -> None:
    """An error answer is read tolerantly (it is the upstream's to say): its message is passed
    on with the escape it came with, never a 500 from a UTF-8 encoder."""
    fake.reply(b'{"type":"error","error":{"type":"rate_limit_error","message":"slow down \\ud83d"}}', status=429)
    with proxy(api, "anthropic", fake.base) as origin:
        answer = _post(origin, api, stream=False)
    assert answer.status_code == 429
    assert _error_message(api, answer, "rate_limit_error") == "slow down \ud83d"
    assert b"slow down \\ud83d" in answer.content
