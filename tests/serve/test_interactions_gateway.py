"""``gemini-interactions`` through ``chatcodec serve``, both ways.

As an upstream: an OpenAI Chat caller (the OpenAI SDK) gets its answer from a fake
Interactions API answering recorded-shape bodies and SSE (tests/providers/gemini_interactions/
recorded_shapes.py: the API reference https://ai.google.dev/api/interactions-api and the
streaming guide https://ai.google.dev/gemini-api/docs/interactions/streaming), plain and
streamed, its errors mapped; the request goes where the REST examples send it
(``POST /v1beta/interactions``, ``x-goog-api-key``, ``Api-Revision``, ``stream: true`` in the
body), or to a Vertex AI location with a bearer token.

As a front: google-genai 3.6.1's own Interactions client (``client.interactions``) pointed at
the gateway gets Interactions it parses with no ``Unknown*`` stand-in, plain and streamed, and
Google-shaped errors it parses as its ``CreateInteractionClientError``; with ``--store`` it
continues a kept interaction by ``previous_interaction_id`` and reads it back with
``client.interactions.get``; without one the request is refused, never sent on without its history.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from google import genai
from google.genai import types
from google.genai._interactions_errors import APIStatusError  # the Interactions client's errors (3.6.1)
from pydantic import BaseModel

from chatcodec.serve import ServeConfig
from serve.harness import FakeUpstream, fixture_bytes, fixture_json, proxy
from serve.test_responses_front import UPSTREAMS

sys.path.insert(0, str(Path(__file__).parent.parent / "providers" / "gemini_interactions"))
from interactions_support import sdk_checked
from recorded_shapes import INTERACTION, STREAM

pytestmark = pytest.mark.usefixtures("fresh_fake")

GOOGLE_ERROR = {"error": {"code": 429, "message": "Resource has been exhausted", "status": "RESOURCE_EXHAUSTED"}}
"""Google's error body (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes)."""


def _sse(events: list[dict[str, Any]]) -> bytes:
    """Events framed as the streaming guide shows them: ``event: <event_type>`` then ``data:``."""
    return b"".join(f"event: {event['event_type']}\ndata: {json.dumps(event)}\n\n".encode() for event in events)


def _unknowns(value: object, path: str = "$") -> list[str]:
    """Where the SDK kept a kind it does not know as an ``Unknown*`` stand-in."""
    if isinstance(value, BaseModel):
        found = [path] if type(value).__name__.startswith("Unknown") else []
        for name, item in value.__dict__.items():
            found += _unknowns(item, f"{path}.{name}")
        return found
    if isinstance(value, list | tuple):
        return [hit for index, item in enumerate(value) for hit in _unknowns(item, f"{path}[{index}]")]
    return []


def _client(origin: str, key: str = "k") -> genai.Client:
    options = types.HttpOptions(base_url=origin, retry_options=types.HttpRetryOptions(attempts=1))
    return genai.Client(api_key=key, http_options=options)


# --- upstream ------------------------------------------------------------------------------


def test_an_openai_chat_caller_gets_an_interaction_answer(fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "operator-key")
    fake.reply(INTERACTION)
    with (
        proxy("openai-chat", "gemini-interactions", fake.base, client_keys=frozenset({"k"})) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        answer = client.chat.completions.create(
            model="gemini-3-flash-preview", messages=[{"role": "user", "content": "Weather in Rome?"}]
        )
    sent = fake.last
    assert sent.path == "/v1beta/interactions"
    assert (sent.headers["x-goog-api-key"], sent.headers["api-revision"]) == ("operator-key", "2026-05-20")
    assert sent.body["model"] == "gemini-3-flash-preview"
    assert sdk_checked("CreateModelInteraction", sent.body)  # the body google-genai 3.6.1 would send
    assert "stream" not in sent.body
    message = answer.choices[0].message
    assert message.content == "Checking."
    assert message.tool_calls is not None
    assert message.tool_calls[0].function.name == "get_weather"
    assert answer.choices[0].finish_reason == "tool_calls"  # requires_action
    assert answer.usage is not None
    assert answer.usage.prompt_tokens == 120


@pytest.mark.parametrize(("options", "store"), [({}, False), ({"store": True}, True)])
def test_the_interactions_upstream_is_told_not_to_store_unless_the_operator_says(
    fake: FakeUpstream, options: dict[str, Any], store: bool
) -> None:
    """The API keeps every interaction unless told (``store`` true by default), and a client of
    another API sends its whole history each call: ``store: false`` is sent, unless ``--option
    store=true``."""
    fake.reply(INTERACTION)
    with (
        proxy("openai-chat", "gemini-interactions", fake.base, options=options) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Weather in Rome?"}])
    assert fake.last.body["store"] is store
    assert sdk_checked("CreateModelInteraction", fake.last.body)


def test_the_interactions_upstreams_models_are_listed(fake: FakeUpstream) -> None:
    """The Gemini API's model list (``GET /v1beta/models``, the same key), which the
    Interactions API serves."""
    fake.reply({"models": [{"name": "models/gemini-3-flash-preview"}, {"name": "models/gemini-3-pro-preview"}]})
    with (
        proxy("openai-chat", "gemini-interactions", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="caller-key", max_retries=0) as client,
    ):
        listed = [model.id for model in client.models.list()]
    assert listed == ["gemini-3-flash-preview", "gemini-3-pro-preview"]
    assert fake.last.path == "/v1beta/models"
    assert fake.last.headers["x-goog-api-key"] == "caller-key"


def test_an_openai_chat_caller_gets_an_interaction_stream(fake: FakeUpstream) -> None:
    fake.reply(_sse(STREAM), content_type="text/event-stream")
    with (
        proxy("openai-chat", "gemini-interactions", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="caller-key", max_retries=0) as client,
    ):
        chunks = list(
            client.chat.completions.create(
                model="gemini-3-flash-preview",
                messages=[{"role": "user", "content": "Count to 25."}],
                stream=True,
                stream_options={"include_usage": True},
            )
        )
    assert fake.last.body["stream"] is True  # the streaming guide's REST request
    assert sdk_checked("CreateModelInteraction", fake.last.body)
    assert fake.last.headers["x-goog-api-key"] == "caller-key"  # no client keys: the caller's own goes on
    text = "".join(chunk.choices[0].delta.content or "" for chunk in chunks if chunk.choices)
    assert text == "1, 2, 3"
    calls = [call for chunk in chunks if chunk.choices for call in chunk.choices[0].delta.tool_calls or []]
    assert calls[0].function is not None
    assert calls[0].function.name == "count"
    assert "".join(call.function.arguments or "" for call in calls if call.function) == '{"to":25}'
    assert [chunk.choices[0].finish_reason for chunk in chunks if chunk.choices][-1] == "tool_calls"
    assert chunks[-1].usage is not None
    assert chunks[-1].usage.completion_tokens == 7 + 2


def test_an_interactions_error_reaches_an_openai_caller_as_its_own(fake: FakeUpstream) -> None:
    fake.reply(GOOGLE_ERROR, status=429)
    with (
        proxy("openai-chat", "gemini-interactions", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
        pytest.raises(openai.RateLimitError) as raised,
    ):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hi"}])
    assert "Resource has been exhausted" in str(raised.value)


def test_an_interactions_stream_error_reaches_an_openai_caller_as_its_own(fake: FakeUpstream) -> None:
    """An ``error`` event mid-stream (google-genai 3.6.1 ``ErrorEvent``, SSE ``event: error``)
    after some text: the caller keeps the text and gets the error in its own stream's shape."""
    events = [*STREAM[:1], *STREAM[6:8], {"event_type": "error", "error": {"code": "INTERNAL", "message": "it broke"}}]
    fake.reply(_sse(events), content_type="text/event-stream")
    with proxy("openai-chat", "gemini-interactions", fake.base) as origin:
        answer = httpx.post(
            f"{origin}/v1/chat/completions",
            json={"model": "m", "messages": [{"role": "user", "content": "Count."}], "stream": True},
            headers={"authorization": "Bearer k"},
        )
    data = [json.loads(line[6:]) for line in answer.text.splitlines() if line.startswith("data: {")]
    assert (
        "".join(chunk["choices"][0]["delta"].get("content") or "" for chunk in data if "choices" in chunk) == "1, 2, "
    )
    assert data[-1] == {"error": {"message": "it broke", "type": "server_error", "param": None, "code": None}}


def test_a_vertex_location_gets_the_interactions_path_and_a_bearer_token(fake: FakeUpstream) -> None:
    """Vertex AI's Interactions resource is ``/v1beta1/projects/{p}/locations/{l}/interactions``
    with OAuth (google-genai 3.6.1's ``get_google_genai_api_version`` for a Vertex client)."""
    fake.reply(INTERACTION)
    base = f"{fake.base}/v1beta1/projects/my-project/locations/us-central1"
    with (
        proxy("openai-chat", "gemini-interactions", base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="ya29.token", max_retries=0) as client,
    ):
        client.chat.completions.create(model="gemini-3-flash-preview", messages=[{"role": "user", "content": "Hi"}])
    sent = fake.last
    assert sent.path == "/v1beta1/projects/my-project/locations/us-central1/interactions"
    assert sent.headers["authorization"] == "Bearer ya29.token"
    assert "x-goog-api-key" not in sent.headers


# --- front ---------------------------------------------------------------------------------


def test_the_sdks_interactions_client_gets_an_interaction(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("openai-chat", "response", "parallel_tool_calls.json"))
    with proxy("gemini-interactions", "openai-chat", f"{fake.base}/v1") as origin:
        client = _client(origin)  # held: a client collected closes its connection pool
        answer = client.interactions.create(model="m", input="Weather in Paris and Lyon?")
    assert _unknowns(answer) == []
    assert answer.status == "requires_action"
    assert answer.id is not None
    assert answer.id.startswith("v1_")
    assert answer.object == "interaction"
    assert [step.type for step in answer.steps or []] == ["function_call", "function_call"]
    assert fake.last.body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Weather in Paris and Lyon?"}]}
    ]


def test_the_sdks_interactions_client_gets_a_stream(fake: FakeUpstream) -> None:
    fake.reply(fixture_bytes("openai-chat", "stream", "parallel_tool_calls.sse"), content_type="text/event-stream")
    with proxy("gemini-interactions", "openai-chat", f"{fake.base}/v1") as origin:
        client = _client(origin)
        events = list(client.interactions.create(model="m", input="Weather?", stream=True))
    assert [_unknowns(event) for event in events] == [[] for _ in events]
    kinds = [event.event_type for event in events]
    assert kinds[0] == "interaction.created"
    assert kinds[-1] == "interaction.completed"
    assert {"step.start", "step.delta", "step.stop"} <= set(kinds)
    created, completed = events[0], events[-1]
    assert created.interaction.id == completed.interaction.id  # type: ignore[union-attr]
    assert completed.interaction.status == "requires_action"  # type: ignore[union-attr]


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("upstream", [*UPSTREAMS, "gemini-interactions"])
def test_the_sdks_interactions_client_gets_a_call_from_every_upstream(
    fake: FakeUpstream, upstream: str, stream: bool
) -> None:
    """Every upstream's recorded tool call (the Responses front's scenarios' recordings, and
    this API's own recorded shapes) reaches google-genai's Interactions client as a
    ``function_call`` step of an Interaction it parses whole."""
    if upstream == "gemini-interactions":
        base = ""
        fake.reply(_sse(STREAM) if stream else json.dumps(INTERACTION).encode(), content_type=_TYPES[stream])
    else:
        recorded = UPSTREAMS[upstream]
        base = recorded.base
        if stream:
            fake.reply(recorded.stream_body(upstream, recorded.tool_stream), content_type=recorded.stream_type)
        else:
            fake.reply(fixture_json(upstream, "response", recorded.tool))
    with proxy("gemini-interactions", upstream, f"{fake.base}{base}") as origin:
        client = _client(origin)
        if stream:
            events = list(client.interactions.create(model="m", input="Weather?", stream=True))
            assert [_unknowns(event) for event in events] == [[] for _ in events]
            steps = [event.step.type for event in events if event.event_type == "step.start"]  # type: ignore[union-attr]
            status = events[-1].interaction.status  # type: ignore[union-attr]
        else:
            answer = client.interactions.create(model="m", input="Weather?")
            assert _unknowns(answer) == []
            steps = [step.type for step in answer.steps or []]
            status = answer.status
    assert "function_call" in steps
    if upstream == "gemini-interactions":  # the request relayed is one the SDK would send itself
        assert fake.last.path == "/v1beta/interactions"
        assert sdk_checked("CreateModelInteraction", fake.last.body)
    # Ollama's recorded stream ends with no done_reason after its call (cloud_tool_call_with_id.jsonl): it called tools
    assert status == "requires_action"


_TYPES = {False: "application/json", True: "text/event-stream"}


def test_the_sdks_interactions_client_gets_google_errors_it_parses(fake: FakeUpstream) -> None:
    """google-genai 3.6.1 parses an error body as ``CreateInteractionClientErrorData``, whose
    ``Error.code`` is a string: a numeric code would be its ``GenAiDefaultError``."""
    fake.reply({"error": {"message": "Invalid model", "type": "invalid_request_error"}}, status=400)
    with proxy("gemini-interactions", "openai-chat", f"{fake.base}/v1") as origin:
        client = _client(origin)
        with pytest.raises(APIStatusError) as raised:
            client.interactions.create(model="m", input="Hi")
        background = httpx.post(
            f"{origin}/v1beta/interactions",
            json={"model": "m", "input": "Hi", "background": True},
            headers={"x-goog-api-key": "k"},
        )
    assert raised.value.status_code == 400
    assert type(raised.value.__cause__).__name__ == "CreateInteractionClientError"
    assert "Invalid model" in str(raised.value)
    assert background.status_code == 400  # the API would answer at once and run it later: not done here
    assert background.json()["error"]["status"] == "INVALID_ARGUMENT"
    assert "background" in background.json()["error"]["message"]


# --- state ---------------------------------------------------------------------------------


@pytest.mark.parametrize("stream", [False, True])
def test_previous_interaction_id_continues_a_kept_interaction(fake: FakeUpstream, stream: bool) -> None:
    """The function-calling loop of the Interactions guide
    (https://ai.google.dev/gemini-api/docs/interactions, Function calling): the second request
    names the first by ``previous_interaction_id`` and sends only the function result."""
    with proxy("gemini-interactions", "openai-chat", f"{fake.base}/v1", store="memory:4") as origin:
        client = _client(origin)
        if stream:
            fake.reply(
                fixture_bytes("openai-chat", "stream", "single_tool_call_args.sse"), content_type="text/event-stream"
            )
            events = list(
                client.interactions.create(model="m", system_instruction="Be brief.", input="Capital?", stream=True)
            )
            first_id = events[-1].interaction.id  # type: ignore[union-attr]
            call_id = next(event.step.id for event in events if event.event_type == "step.start")  # type: ignore[union-attr]
        else:
            fake.reply(fixture_json("openai-chat", "response", "single_tool_call.json"))
            first = client.interactions.create(model="m", system_instruction="Be brief.", input="Capital?")
            first_id, call_id = first.id, (first.steps or [])[0].id  # type: ignore[union-attr]
        fake.reply(fixture_json("openai-chat", "response", "text_stop.json"))
        second = client.interactions.create(
            model="m",
            previous_interaction_id=first_id,
            input=[{"type": "function_result", "call_id": call_id, "name": "get_capital", "result": "London"}],
        )
        read_back = client.interactions.get(second.id or "")
        first_back = client.interactions.get(first_id or "")
    assert second.previous_interaction_id == first_id
    assert second.id != first_id
    messages = fake.last.body["messages"]
    assert messages[0] == {"role": "user", "content": [{"type": "text", "text": "Capital?"}]}  # no instruction
    assert messages[1]["tool_calls"][0]["id"] == call_id
    assert messages[2] == {"role": "tool", "tool_call_id": call_id, "content": "London"}
    assert read_back.id == second.id
    assert read_back.status == "completed"
    # a streamed one too, whole: its steps, though interaction.completed held none
    assert [(step.type, step.id) for step in first_back.steps or []] == [("function_call", call_id)]  # type: ignore[union-attr]
    assert first_back.status == "requires_action"
    assert _unknowns(first_back) == []


def test_previous_interaction_id_without_a_store_is_refused_and_never_sent(fake: FakeUpstream) -> None:
    with proxy("gemini-interactions", "openai-chat", f"{fake.base}/v1") as origin:
        client = _client(origin)
        with pytest.raises(APIStatusError) as raised:
            client.interactions.create(model="m", input="Hi", previous_interaction_id="v1_abc")
        wrong = httpx.post(
            f"{origin}/v1/interactions",
            json={"model": "m", "input": "Hi", "previous_interaction_id": 7},
            headers={"x-goog-api-key": "k"},
        )
    assert raised.value.status_code == 400
    assert "previous_interaction_id 'v1_abc' cannot be continued: this server keeps no interactions" in str(
        raised.value
    )
    assert "--store memory" in str(raised.value)
    assert wrong.status_code == 400
    assert "previous_interaction_id must be a string" in wrong.json()["error"]["message"]
    assert fake.received == []


def test_store_false_keeps_nothing_and_an_unknown_interaction_is_a_404(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("openai-chat", "response", "text_stop.json"))
    with proxy("gemini-interactions", "openai-chat", f"{fake.base}/v1", store="memory") as origin:
        client = _client(origin)
        answer = client.interactions.create(model="m", input="Hi", store=False)
        with pytest.raises(APIStatusError) as raised:
            client.interactions.get(answer.id or "")
        with pytest.raises(APIStatusError) as continued:
            client.interactions.create(model="m", input="More", previous_interaction_id=answer.id)
    assert raised.value.status_code == 404
    assert f"Interaction with id '{answer.id}' not found: this server keeps no such interaction" in str(raised.value)
    assert continued.value.status_code == 400
    assert "is not an interaction this server keeps" in str(continued.value)
    assert len(fake.received) == 1


def test_a_seal_key_file_is_refused_on_the_interactions_front(tmp_path: Path) -> None:
    """The Interactions front seals nothing (another provider's thinking is kept by the store),
    so a seal key would do nothing: refused at start, as on any front that seals nothing."""
    key_file = tmp_path / "seal-key"
    key_file.write_text("k" * 32)
    with pytest.raises(ValueError, match=r"seals reasoning \(openai-responses\), not gemini-interactions"):
        ServeConfig(
            api="gemini-interactions", upstream="openai-chat", upstream_url="http://u", seal_key_file=str(key_file)
        )
