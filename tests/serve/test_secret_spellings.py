"""A key is a key in every spelling (:mod:`chatcodec.serve._secrets`, issue 101): an upstream that
repeats the operator's key URL-encoded, base64-encoded (padded or not, standard or URL-safe, alone or
inside a longer base64 text at each of its three alignments) or JSON-escaped (once or twice), in an
error's message or type, a relayed header (a request id, a rate-limit header) on an error or an
answer, an answer's text, a stream's deltas or its error event (cut into 7-byte chunks), reaches no
caller of any front (each through its own SDK), no log line, span or stored answer with it.

Whether a text reveals the key is decided here without the scrubber's spellings
(:func:`_revealed`): the text itself, URL-decoded and JSON-unescaped, and every run of base64 in it
decoded at each offset in both alphabets, must not hold the key."""

from __future__ import annotations

import base64
import binascii
import json
import logging
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote, quote_plus, unquote, unquote_plus

import anthropic
import httpx
import ollama
import openai
import pytest
from google import genai
from google.genai import errors as genai_errors
from google.genai import types
from google.genai._interactions_errors import APIStatusError
from hypothesis import given, settings
from hypothesis import strategies as st
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from chatcodec.serve import ServeConfig
from chatcodec.serve._secrets import REDACTED, SHORTEST_SECRET, Secrets, sent_secrets
from serve.harness import FakeUpstream, serving_config

pytestmark = pytest.mark.usefixtures("fresh_fake")

OPERATOR_KEY = "sk-op/erator+0123456789abcdef"
"""A ``/`` and a ``+``: its URL-encoded, JSON-escaped and two base64 spellings all differ."""
CLIENT_KEY = "ck-alice-0123456789"
KEY_VARIABLE = "CHATCODEC_TEST_SPELLED_KEY"
KEY = OPERATOR_KEY.encode()


def _base64_within(prefix: bytes, urlsafe: bool = False, padded: bool = True) -> str:
    encode = base64.urlsafe_b64encode if urlsafe else base64.b64encode
    text = encode(prefix + KEY + b" and what followed").decode()
    return text if padded else text.rstrip("=")


SPELLINGS: dict[str, Callable[[], str]] = {
    "raw": lambda: OPERATOR_KEY,
    "url-encoded": lambda: quote(OPERATOR_KEY, safe=""),
    "url-encoded, lower-case escapes": lambda: quote(OPERATOR_KEY, safe="").replace("%2F", "%2f"),
    "url-encoded, every byte": lambda: "".join(f"%{byte:02X}" for byte in KEY),
    "form-encoded": lambda: quote_plus(OPERATOR_KEY, safe=""),
    "base64": lambda: base64.b64encode(KEY).decode(),
    "base64 unpadded": lambda: base64.b64encode(KEY).decode().rstrip("="),
    "base64 url-safe": lambda: base64.urlsafe_b64encode(KEY).decode(),
    "base64 url-safe unpadded": lambda: base64.urlsafe_b64encode(KEY).decode().rstrip("="),
    "base64 url-encoded": lambda: quote(base64.b64encode(KEY).decode(), safe=""),
    "base64 inside a text, offset 0": lambda: _base64_within(b""),
    "base64 inside a text, offset 1": lambda: _base64_within(b"u:"),
    "base64 inside a text, offset 2": lambda: _base64_within(b"user:"),
    "base64 url-safe inside a text, offset 1, unpadded": lambda: _base64_within(b"ab:", urlsafe=True, padded=False),
    "a Basic credential": lambda: "Basic " + base64.b64encode(b"api:" + KEY).decode(),
    "JSON-escaped": lambda: json.dumps(OPERATOR_KEY).strip('"').replace("/", "\\/"),
    "JSON, every character escaped": lambda: "".join(f"\\u{ord(character):04x}" for character in OPERATOR_KEY),
    "JSON-escaped twice": lambda: json.dumps(json.dumps(OPERATOR_KEY).replace("/", "\\/"))[1:-1],
}
"""Each way an upstream may repeat the operator's key, written independently of the scrubber."""


def _revealed(text: str) -> bool:
    """Whether ``text`` reveals the operator's key: as it is, URL-decoded, JSON-unescaped (twice),
    or in any run of base64 decoded at any of its offsets, standard or URL-safe."""
    unescaped = text
    for _ in range(3):
        unescaped = unescaped.replace("\\\\", "\\").replace("\\/", "/").replace('\\"', '"')
    unescaped = re.sub(r"\\u([0-9a-fA-F]{4})", lambda escape: chr(int(escape.group(1), 16)), unescaped)
    readings = {text, unquote(text), unquote_plus(text), unescaped}
    if any(OPERATOR_KEY in reading for reading in readings):
        return True
    for run in re.findall(r"[A-Za-z0-9+/_-]{8,}", text):
        standard = run.replace("-", "+").replace("_", "/")
        for offset in range(4):
            piece = standard[offset:]
            piece = piece[: len(piece) - 1] if len(piece) % 4 == 1 else piece  # a lone last character holds no byte
            piece += "=" * (-len(piece) % 4)
            try:
                if KEY in base64.b64decode(piece):
                    return True
            except (binascii.Error, ValueError):
                continue
    return False


def test_the_oracle_finds_every_spelling() -> None:
    """The oracle is the test's strength: it must see the key in each spelling as written."""
    for name, spelled in SPELLINGS.items():
        assert _revealed(f"Incorrect API key: {spelled()}."), name
    assert not _revealed(f"Incorrect API key: {REDACTED}.")


@pytest.mark.parametrize("name", list(SPELLINGS))
def test_each_spelling_is_scrubbed_from_a_text_and_a_json_text(name: str) -> None:
    secrets = sent_secrets({"authorization": f"Bearer {OPERATOR_KEY}"}, (CLIENT_KEY,))
    text = f"Incorrect API key provided: {SPELLINGS[name]()}. See https://example.invalid."
    assert not _revealed(secrets.scrub(text))
    assert REDACTED in secrets.scrub(text)
    assert secrets.scrub(text).endswith(". See https://example.invalid.")  # the rest is kept
    body = json.dumps({"error": {"message": text, "param": [text]}}).encode()
    scrubbed = secrets.scrub_bytes(body)
    assert json.loads(scrubbed)  # still JSON
    assert not _revealed(scrubbed.decode())


@settings(max_examples=300, deadline=None)
@given(
    key=st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=SHORTEST_SECRET, max_size=24),
    before=st.text(st.sampled_from('ab\\"/\n\u00e9u0'), max_size=4),
    after=st.text(st.sampled_from('ab\\"/\nn\u00e9'), max_size=4),
    twice=st.booleans(),
)
def test_a_json_text_stays_json_and_loses_any_key(key: str, before: str, after: str, twice: bool) -> None:
    """Any key a header can carry (visible ASCII), next to escapes (``\\``, ``"``, ``\\n``,
    ``\\u00e9``): the JSON text scrubbed is still JSON, and no string in it holds the key. A body
    quoted in a body (``twice``) only for a key JSON writes as it is: one holding ``\\``, ``"`` or
    ``/`` there is not covered (a replacement may split an escape of the inner text)."""
    document = json.dumps({"message": before + key + after, "list": [key, before + key]})
    twice = twice and not any(character in key for character in '\\"/')
    if twice:
        document = json.dumps({"body": document})
    scrubbed = Secrets([key]).scrub_bytes(document.encode())
    value: Any = json.loads(scrubbed)
    if twice:
        value = json.loads(value["body"])
    assert key not in value["message"]
    assert all(key not in item for item in value["list"])


def test_the_scrubber_of_a_set_of_values_is_made_once() -> None:
    first = sent_secrets({"authorization": f"Bearer {OPERATOR_KEY}"}, (CLIENT_KEY,))
    again = sent_secrets({"x-api-key": OPERATOR_KEY}, (CLIENT_KEY, f"Bearer {OPERATOR_KEY}"))
    assert first == again
    assert first._scrubber is again._scrubber  # the spellings' pattern compiled once


def test_a_sigv4_authorization_keeps_its_access_key_id_not_its_signature() -> None:
    """A signature is new on every request: kept, it would compile a pattern for each."""
    authorization = (
        "AWS4-HMAC-SHA256 Credential=AKIAEXAMPLEKEY123/20261127/us-east-1/bedrock/aws4_request, "
        "SignedHeaders=host;x-amz-date, Signature=0123456789abcdef"
    )
    secrets = sent_secrets({"authorization": authorization, "x-amz-security-token": "session-token-0123"})
    assert secrets.values == ("AKIAEXAMPLEKEY123", "session-token-0123")


# The gateway, each front before an OpenAI Chat upstream that echoes the key it was sent.

FRONTS = ("openai-chat", "anthropic", "openai-responses", "gemini", "gemini-interactions", "ollama")
HELLO: list[Any] = [{"role": "user", "content": "Hello"}]


def _echoing_error(spelled: str) -> dict[str, Any]:
    return {
        "error": {
            "message": f"Incorrect API key provided: {spelled}.",
            "type": f"invalid_key:{spelled}",
            "param": None,
            "code": None,
        }
    }


def _echoing_headers(spelled: str) -> dict[str, str]:
    ascii_spelled = spelled.encode("ascii", "backslashreplace").decode()
    return {"x-request-id": f"req_{ascii_spelled}", "x-ratelimit-remaining-requests": ascii_spelled}


def _answer(spelled: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": f"You sent {spelled}."}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3},
    }


def _echoing_stream(spelled: str, *, failing: bool = True) -> bytes:
    """A stream whose text deltas repeat the key (each whole in one delta, each event cut into
    7-byte chunks on the way), then an error event repeating it in its message and type (or,
    not ``failing``, its finish)."""

    def chunk(delta: dict[str, Any]) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": None}
        return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [choice]}

    events = [chunk({"role": "assistant", "content": "You sent "}), chunk({"content": f"{spelled}."})]
    if not failing:
        finish = chunk({})
        finish["choices"][0]["finish_reason"] = "stop"
        events.append(finish)
    lines = [f"data: {json.dumps(event)}\n\n" for event in events]
    lines.append(f"data: {json.dumps(_echoing_error(spelled))}\n\n" if failing else "data: [DONE]\n\n")
    return "".join(lines).encode()


@contextmanager
def _gateway(
    fake: FakeUpstream,
    api: str,
    monkeypatch: pytest.MonkeyPatch,
    app_options: dict[str, Any] | None = None,
    **settings: Any,
) -> Iterator[str]:
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


def _genai(origin: str) -> genai.Client:
    options = types.HttpOptions(base_url=origin, retry_options=types.HttpRetryOptions(attempts=1))
    return genai.Client(api_key=CLIENT_KEY, http_options=options)


def _headers_of(error: BaseException) -> str:
    response = getattr(error, "response", None)
    headers = getattr(response, "headers", None)
    return "" if headers is None else json.dumps(dict(headers))


def _error_seen(api: str, origin: str, *, stream: bool) -> str:
    """All ``api``'s own SDK shows of a call that failed: its error, body and headers (where it keeps them)."""
    try:
        _call(api, origin, stream=stream)
    except (
        openai.APIError,
        anthropic.APIError,
        genai_errors.APIError,
        APIStatusError,
        ollama.ResponseError,
        _ErrorEventsError,
    ) as error:
        body = getattr(error, "body", None) or getattr(error, "details", None)
        return f"{error} {json.dumps(body, default=str)} {_headers_of(error)}"
    raise AssertionError(f"the {api} call did not fail")


def _call(api: str, origin: str, *, stream: bool) -> str:
    """The answer ``api``'s SDK gives (its text, and the headers where it shows them)."""
    if api in ("openai-chat", "openai-responses"):
        with openai.OpenAI(base_url=f"{origin}/v1", api_key=CLIENT_KEY, max_retries=0) as client:
            if api == "openai-chat" and stream:
                return "".join(
                    chunk.model_dump_json()
                    for chunk in client.chat.completions.create(model="m", messages=HELLO, stream=True)
                )
            if api == "openai-chat":
                raw = client.chat.completions.with_raw_response.create(model="m", messages=HELLO)
                return f"{raw.parse().model_dump_json()} {json.dumps(dict(raw.headers))}"
            if stream:
                events = list(client.responses.create(model="m", input="Hello", stream=True))
                failed = [event for event in events if event.type in ("error", "response.failed")]
                return "".join(event.model_dump_json() for event in events) if not failed else _raise(failed)
            answered = client.responses.with_raw_response.create(model="m", input="Hello")
            return f"{answered.parse().model_dump_json()} {json.dumps(dict(answered.headers))}"
    if api == "anthropic":
        with anthropic.Anthropic(base_url=origin, api_key=CLIENT_KEY, max_retries=0) as claude:
            if stream:
                return "".join(
                    event.model_dump_json()
                    for event in claude.messages.create(model="m", max_tokens=10, messages=HELLO, stream=True)
                )
            message = claude.messages.with_raw_response.create(model="m", max_tokens=10, messages=HELLO)
            return f"{message.parse().model_dump_json()} {json.dumps(dict(message.headers))}"
    if api == "gemini":
        with _genai(origin) as gemini:
            if stream:
                return "".join(
                    chunk.model_dump_json()
                    for chunk in gemini.models.generate_content_stream(model="m", contents="Hello")
                )
            return gemini.models.generate_content(model="m", contents="Hello").model_dump_json()
    if api == "gemini-interactions":
        with _genai(origin) as gemini:
            if stream:
                events = list(gemini.interactions.create(model="m", input="Hello", stream=True))
                errors = [event for event in events if event.event_type == "error"]
                return "".join(event.model_dump_json() for event in events) if not errors else _raise(errors)
            return gemini.interactions.create(model="m", input="Hello").model_dump_json()
    with ollama.Client(host=origin, headers={"authorization": f"Bearer {CLIENT_KEY}"}) as chat:
        if stream:
            return "".join(part.model_dump_json() for part in chat.chat(model="m", messages=HELLO, stream=True))
        return chat.chat(model="m", messages=HELLO).model_dump_json()


class _ErrorEventsError(Exception):
    """A stream whose SDK hands its error event over as an event, not an exception."""

    body: list[Any]


def _raise(events: list[Any]) -> str:
    error = _ErrorEventsError("".join(event.model_dump_json() for event in events))
    error.body = [event.model_dump(mode="json") for event in events]
    raise error


@pytest.mark.parametrize("api", FRONTS)
def test_an_error_echoing_the_key_in_any_spelling_reaches_no_caller(
    fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch, api: str
) -> None:
    """The key in the message, the error's type (the OpenAI Chat front's ``code``), the request id
    and a rate-limit header of a 401, each spelling in turn, through one gateway."""
    with _gateway(fake, api, monkeypatch) as origin:
        for name, spelled in SPELLINGS.items():
            fake.reply(_echoing_error(spelled()), status=401, headers=_echoing_headers(spelled()))
            seen = _error_seen(api, origin, stream=False)
            assert not _revealed(seen), (name, seen)
            assert "Incorrect API key provided: " in seen, name  # the rest kept
            assert REDACTED in seen, name
    assert fake.last.headers["authorization"] == f"Bearer {OPERATOR_KEY}"  # the operator's key went upstream


def test_the_error_type_is_kept_scrubbed(fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the key goes: the error's type passed as it came (the front speaks the upstream's API)
    still says what the upstream called the error, and the headers what they were."""
    fake.reply(_echoing_error(OPERATOR_KEY), status=401, headers=_echoing_headers(OPERATOR_KEY))
    with _gateway(fake, "openai-chat", monkeypatch) as origin:
        seen = _error_seen("openai-chat", origin, stream=False)
    assert f'"type": "invalid_key:{REDACTED}"' in seen
    assert f'"x-request-id": "req_{REDACTED}"' in seen
    assert f'"x-ratelimit-remaining-requests": "{REDACTED}"' in seen


def test_an_anthropic_error_type_the_openai_chat_front_writes_as_code_is_scrubbed(
    fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Translated, the upstream's type goes in the OpenAI body's ``code``: scrubbed there too."""
    monkeypatch.setenv(KEY_VARIABLE, OPERATOR_KEY)
    config = ServeConfig(
        api="openai-chat",
        upstream="anthropic",
        upstream_url=fake.base,
        api_key_env=KEY_VARIABLE,
        client_keys=frozenset({CLIENT_KEY}),
    )
    for spelled in SPELLINGS.values():
        error = {"type": "error", "error": {"type": f"key_{spelled()}", "message": f"bad key {spelled()}"}}
        fake.reply(error, status=401, headers=_echoing_headers(spelled()))
    with serving_config(config) as origin:
        for name in SPELLINGS:
            seen = _error_seen("openai-chat", origin, stream=False)
            assert not _revealed(seen), (name, seen)
            assert '"code": "key_' in seen, name
    assert fake.last.headers["x-api-key"] == OPERATOR_KEY


@pytest.mark.parametrize("api", ["openai-chat", "anthropic", "gemini"])
def test_a_text_error_body_echoing_the_key_reaches_no_caller(
    fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch, api: str
) -> None:
    """A proxy's page, not JSON: its text becomes the message."""
    with _gateway(fake, api, monkeypatch) as origin:
        for name, spelled in SPELLINGS.items():
            fake.reply(f"Bad gateway for key {spelled()}".encode(), status=502, content_type="text/plain")
            seen = _error_seen(api, origin, stream=False)
            assert not _revealed(seen), (name, seen)


@pytest.mark.parametrize("api", FRONTS)
def test_an_answer_and_its_headers_echoing_the_key_reach_no_caller(
    fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch, api: str
) -> None:
    """A 200: the key in the answer's text and in its request-id and rate-limit headers."""
    with _gateway(fake, api, monkeypatch) as origin:
        for name, spelled in SPELLINGS.items():
            fake.reply(_answer(spelled()), headers=_echoing_headers(spelled()))
            seen = _call(api, origin, stream=False)
            assert not _revealed(seen), (name, seen)
            assert "You sent " in seen, name
            assert REDACTED in seen, name


@pytest.mark.parametrize("api", FRONTS)
def test_a_stream_echoing_the_key_in_its_deltas_and_error_reaches_no_caller(
    fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch, api: str
) -> None:
    with _gateway(fake, api, monkeypatch) as origin:
        for name, spelled in SPELLINGS.items():
            fake.reply(
                _echoing_stream(spelled()), content_type="text/event-stream", headers=_echoing_headers(spelled())
            )
            seen = _error_seen(api, origin, stream=True)
            assert not _revealed(seen), (name, seen)
            assert "Incorrect API key provided: " in seen, name  # the rest kept
            assert REDACTED in seen, name


def _logged(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(entry.message) for entry in caplog.records if entry.message.startswith("{")]


@pytest.mark.parametrize("stream", [False, True])
def test_the_log_line_and_its_request_id_keep_no_spelling(
    fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, stream: bool
) -> None:
    with caplog.at_level(logging.INFO, logger="chatcodec.serve"), _gateway(fake, "anthropic", monkeypatch) as origin:
        for spelled in SPELLINGS.values():
            if stream:
                fake.reply(
                    _echoing_stream(spelled()), content_type="text/event-stream", headers=_echoing_headers(spelled())
                )
            else:
                fake.reply(_echoing_error(spelled()), status=401, headers=_echoing_headers(spelled()))
            _error_seen("anthropic", origin, stream=stream)
        deadline = time.monotonic() + 5  # a stream's line is written as its body ends
        while len(_logged(caplog)) < len(SPELLINGS) and time.monotonic() < deadline:
            time.sleep(0.01)
    lines = _logged(caplog)
    assert len(lines) == len(SPELLINGS)
    assert not _revealed(caplog.text)
    assert all(REDACTED in line["error"] and REDACTED in line["request_id"] for line in lines)


@pytest.mark.parametrize("stream", [False, True])
def test_the_span_keeps_no_spelling(fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch, stream: bool) -> None:
    """With ``--otel-content`` the answer's text is on the span too."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    options = {"tracer_provider": provider}
    with _gateway(fake, "openai-chat", monkeypatch, options, otel=True, otel_content=True) as origin:
        for spelled in SPELLINGS.values():
            if stream:
                fake.reply(_echoing_stream(spelled()), content_type="text/event-stream")
                _error_seen("openai-chat", origin, stream=True)
            else:
                fake.reply(_answer(spelled()))
                _call("openai-chat", origin, stream=False)
                fake.reply(_echoing_error(spelled()), status=401)
                _error_seen("openai-chat", origin, stream=False)
        expected = len(SPELLINGS) * (1 if stream else 2)
        deadline = time.monotonic() + 5
        while len(exporter.get_finished_spans()) < expected and time.monotonic() < deadline:
            time.sleep(0.01)
    provider.shutdown()
    spans = exporter.get_finished_spans()
    assert len(spans) == expected
    shown = json.dumps(
        [{"status": span.status.description, "attributes": dict(span.attributes or {})} for span in spans], default=str
    )
    assert not _revealed(shown)
    assert REDACTED in shown
    assert any(REDACTED in str((span.attributes or {}).get("gen_ai.output.messages")) for span in spans)


@pytest.mark.parametrize("stream", [False, True])
def test_a_stored_answer_keeps_no_spelling(fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch, stream: bool) -> None:
    """The Responses store: the answer read back by its id holds the key no more than the answer did."""
    with (
        _gateway(fake, "openai-responses", monkeypatch, store="memory") as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key=CLIENT_KEY, max_retries=0) as client,
    ):
        for name, spelled in SPELLINGS.items():
            if stream:
                fake.reply(_echoing_stream(spelled(), failing=False), content_type="text/event-stream")
                events = list(client.responses.create(model="m", input="Hello", stream=True))
                answer_id = events[-1].response.id  # response.completed
            else:
                fake.reply(_answer(spelled()))
                answer_id = client.responses.create(model="m", input="Hello").id
            kept = httpx.get(f"{origin}/v1/responses/{answer_id}", headers={"authorization": f"Bearer {CLIENT_KEY}"})
            assert kept.status_code == 200, kept.text
            assert not _revealed(kept.text), (name, kept.text)
            assert REDACTED in kept.json()["output"][0]["content"][0]["text"], name
