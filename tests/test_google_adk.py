"""Google ADK session events as the ``google-adk`` history format (issue 80).

The recordings in ``tests/fixtures/google_adk/`` are a real ADK run's session (``tests/adk_run.py``),
in both of ADK's spellings; the tests marked ``adk`` run ADK itself (google-adk 2.13.0 as a test
dependency): its ``Event`` objects read as they are, and what chatcodec writes loads as ADK's events.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import chatcodec

FIXTURES = Path(__file__).parent / "fixtures" / "google_adk"
SPELLINGS = ("session_camel.json", "session_snake.json")

TARGETS = (
    "openai-chat",
    "anthropic",
    "gemini",
    "bedrock-converse",
    "bedrock-nova",
    "ollama",
    "openai-responses",
    "langchain",
    "pydantic-ai",
    "ai-sdk-model",
    "ai-sdk-ui",
)


def _events(name: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads((FIXTURES / name).read_text())
    return events


@pytest.mark.parametrize("name", SPELLINGS)
def test_a_session_reads_as_the_conversation_it_holds(name: str) -> None:
    """The user's text and image, the agent's thought and call (its thought signature where
    Gemini keeps it), the tool's result by the call's id, the signed answer."""
    read = chatcodec.get_codec("google-adk").decode_messages(_events(name))
    assert [message.role for message in read] == ["user", "assistant", "tool", "assistant"]
    text, image = read[0].content
    assert isinstance(text, chatcodec.TextPart)
    assert isinstance(image, chatcodec.ImagePart)
    thought, call = read[1].content
    assert isinstance(thought, chatcodec.ThinkingPart)
    assert isinstance(call, chatcodec.ToolUsePart)
    assert call.provider_metadata == {"gemini": {"thoughtSignature": "c2lnbmF0dXJlLTE="}}
    (result,) = read[2].content
    assert isinstance(result, chatcodec.ToolResultPart)
    assert result.tool_use_id == call.id
    assert (read[1].name, read[3].name) == ("weather_agent", "weather_agent")  # the agent, its author
    kept = read[2].provider_metadata["google-adk"]
    assert kept[next(key for key in kept if key == "actions")]["stateDelta" if "camel" in name else "state_delta"] == {
        "last_city": "Paris"
    }


@pytest.mark.parametrize("name", SPELLINGS)
def test_a_session_is_written_back_as_it_was(name: str) -> None:
    """Each event again, its fields and its spelling (camelCase or snake_case) as they were."""
    events = _events(name)
    request = chatcodec.decode_request("google-adk", {"messages": events})
    losses: list[chatcodec.Loss] = []
    assert chatcodec.encode_request("google-adk", request, losses=losses) == {"messages": events}
    assert losses == []


@pytest.mark.parametrize("name", SPELLINGS)
def test_validate_messages_reads_a_bare_event_list(name: str) -> None:
    events = _events(name)
    assert chatcodec.validate_messages(events) == chatcodec.get_codec("google-adk").decode_messages(events)


@pytest.mark.parametrize("target", TARGETS)
def test_a_session_converts_to_every_wire_with_only_reported_losses(target: str) -> None:
    """The whole conversation reaches each target; what an event holds beyond its content
    (ids, invocation ids, timestamps, actions with the state delta, usage) is reported."""
    losses: list[chatcodec.Loss] = []
    history = {"messages": _events("session_camel.json")}
    body = chatcodec.convert_request(history, source="google-adk", target=target, on_loss="ignore", losses=losses)
    back = chatcodec.decode_request(target, body).messages
    roles = [message.role for message in back if message.role != "system"]
    assert roles == ["user", "assistant", "tool", "assistant"]
    reported = [loss for loss in losses if "google-adk data" in loss.what]
    assert [loss.path for loss in reported] == [f"$.messages[{index}]" for index in range(4)]
    assert all("actions" in loss.what and "timestamp" in loss.what for loss in reported)


def test_gemini_gets_the_thought_signatures_back() -> None:
    body = chatcodec.convert_request(
        {"messages": _events("session_snake.json")}, source="google-adk", target="gemini", on_loss="ignore"
    )
    model_turns = [content for content in body["contents"] if content["role"] == "model"]
    assert model_turns[0]["parts"][1]["thoughtSignature"] == "c2lnbmF0dXJlLTE="
    assert model_turns[1]["parts"][0]["thoughtSignature"] == "c2lnbmF0dXJlLTI="


def test_an_openai_chat_conversation_is_written_as_events() -> None:
    """A conversation from another format: one event per turn, authored by who speaks (a
    message's ``name`` is its author); a system message has no place in a session (reported)."""
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        {
            "model": "gpt-5",
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "Weather in Paris?"},
                {
                    "role": "assistant",
                    "name": "weather_agent",
                    "content": None,
                    "tool_calls": [
                        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
                    ],
                },
                {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
            ],
        },
        source="openai-chat",
        target="google-adk",
        on_loss="ignore",
        losses=losses,
    )
    assert [event["author"] for event in body["messages"]] == ["user", "weather_agent", "agent"]
    assert body["messages"][2]["content"]["parts"][0]["functionResponse"]["id"] == "call_1"
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.messages[2].content[0]", "thought signature"),  # Gemini 3 wants one on the call ADK will send it
        ("$.messages[0]", "system message"),
    ]


def test_an_event_adk_would_not_load_is_refused_at_its_place() -> None:
    with pytest.raises(chatcodec.ValidationError) as refused:
        chatcodec.validate_messages([{"author": "user", "content": {"parts": [{"text": "hi"}]}}, {"author": 7}])
    assert refused.value.paths == ["$[1]"]
    assert "author" in str(refused.value)
    events = [
        {"author": "user", "content": {"parts": [{"text": "hi"}]}},
        {"author": "a", "content": {"role": "model", "parts": [{"functionCall": {"name": 5}}]}},
    ]
    with pytest.raises(chatcodec.ValidationError) as refused:
        chatcodec.get_codec("google-adk").decode_messages(events)
    assert refused.value.paths == ["$[1].content.parts[0].functionCall.name"]


def test_a_session_dumps_refused_event_is_named_in_its_events() -> None:
    with pytest.raises(chatcodec.ValidationError) as refused:
        chatcodec.decode_request("google-adk", {"id": "s1", "events": [{"author": 7}]})
    assert refused.value.paths == ["$.events[0]"]
    assert "author" in str(refused.value)
    events = [
        {"author": "user", "content": {"parts": [{"text": "hi"}]}},
        {"author": "a", "content": {"role": "model", "parts": [{"functionCall": {"name": 5}}]}},
    ]
    with pytest.raises(chatcodec.ValidationError) as refused:
        chatcodec.decode_request("google-adk", {"id": "s1", "events": events})
    assert refused.value.paths == ["$.events[1].content.parts[0].functionCall.name"]


def test_events_without_content_are_kept_beside_the_messages() -> None:
    """A state change or an agent transfer stored as an event of its own rides in the next
    message's bag (the last one's after it), written back in its place."""
    events = [
        {"author": "user", "actions": {"stateDelta": {"city": "Paris"}}, "id": "e0"},
        {"author": "user", "content": {"parts": [{"text": "Hi"}]}, "id": "e1"},
        {"author": "planner", "actions": {"transferToAgent": "weather_agent"}, "id": "e2"},
    ]
    request = chatcodec.decode_request("google-adk", {"messages": events})
    assert [message.role for message in request.messages] == ["user"]
    assert chatcodec.encode_request("google-adk", request) == {"messages": events}


@pytest.mark.parametrize("source", ["google-adk", "canonical"])
def test_the_cli_converts_a_session_file(tmp_path: Path, source: str) -> None:
    """``chatcodec convert`` reads a bare event list as one conversation (its first item, an
    event, has no ``role``), named by ``--from google-adk`` or found as ``validate`` finds it."""
    path = tmp_path / "session.json"
    path.write_text((FIXTURES / "session_snake.json").read_text())
    done = subprocess.run(
        [sys.executable, "-m", "chatcodec", "convert", str(path), "--from", source, "--to", "gemini", "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "a bare list of 4 messages" in done.stderr
    assert [content["role"] for content in json.loads(done.stdout)["contents"]] == ["user", "model", "user", "model"]


class TestWithAdk:
    """ADK itself as the oracle (google-adk 2.13.0)."""

    @pytest.fixture(scope="class")
    def session(self) -> Any:
        from adk_run import run_session

        return run_session()

    @pytest.fixture(scope="class")
    def run(self, session: Any) -> list[Any]:
        return list(session.events)

    @pytest.mark.parametrize("by_alias", [True, False])
    def test_a_session_dump_reads_and_is_written_back_as_adk_loads_it(self, session: Any, by_alias: bool) -> None:
        """``session.model_dump()`` (what a session service hands out: ids, state, ``events``)
        is the conversation of its events, and is written back the same session."""
        from google.adk.sessions import Session

        dump = session.model_dump(mode="json", by_alias=by_alias, exclude_none=True)
        request = chatcodec.decode_request("google-adk", dump)
        assert [message.role for message in request.messages] == ["user", "assistant", "tool", "assistant"]
        assert request.messages == chatcodec.decode_request("google-adk", {"messages": dump["events"]}).messages
        losses: list[chatcodec.Loss] = []
        written = chatcodec.encode_request("google-adk", request, losses=losses)
        assert written == dump
        assert losses == []
        assert Session.model_validate(written).model_dump() == session.model_dump()

    def test_a_session_dumped_as_the_docs_say_reports_no_null_field(self, session: Any) -> None:
        """Issue 87: ``session.model_dump(mode="json")`` (no ``exclude_none``) writes every unset
        event field as ``null``; another format reported each as the event's data. They are the
        kit's ``_nulls`` spelling: written back to ADK, no loss elsewhere."""
        from google.adk.sessions import Session

        dump = session.model_dump(mode="json")
        nulls = [{key for key, value in event.items() if value is None} for event in dump["events"]]
        assert all("error_code" in keys for keys in nulls)  # what the dump spells, in every event
        request = chatcodec.decode_request("google-adk", dump)
        assert len(request.messages) == len(dump["events"])  # an event a message: losses at $.messages[i]
        losses: list[chatcodec.Loss] = []
        chatcodec.encode_request("openai-chat", request, losses=losses, options={"model": "m"}, on_loss="ignore")
        for index, keys in enumerate(nulls):
            reported = " ".join(loss.what for loss in losses if loss.path == f"$.messages[{index}]")
            assert not [key for key in keys if f"'{key}'" in reported], reported
        written = chatcodec.encode_request("google-adk", request)
        assert Session.model_validate(written).model_dump() == session.model_dump()

    def test_the_cli_converts_session_dumps_a_line_each(self, session: Any, tmp_path: Path) -> None:
        path = tmp_path / "sessions.jsonl"
        line = json.dumps(session.model_dump(mode="json", exclude_none=True))
        path.write_text(f"{line}\n{line}\n")
        done = subprocess.run(
            [sys.executable, "-m", "chatcodec", "convert", str(path), "--from", "google-adk", "--to", "openai-chat"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        rows = [json.loads(row) for row in done.stdout.splitlines()]
        assert len(rows) == 2
        assert [message["role"] for message in rows[0]["messages"]] == ["user", "assistant", "tool", "assistant"]
        assert "app_name" in done.stderr  # the session's own fields, reported as what the target cannot keep
        checked = subprocess.run(
            [sys.executable, "-m", "chatcodec", "validate", str(path), "--format", "google-adk"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert checked.returncode == 0, checked.stderr
        # each line the conversation of its events (not one model answer, which an event alone is)
        assert checked.stdout.count("ok, 4 messages (1 user, 2 assistant, 1 tool)") == 2, checked.stdout
        found = subprocess.run(
            [sys.executable, "-m", "chatcodec", "validate", str(path)], capture_output=True, text=True, check=False
        )
        # without --format: a session's events found by their key (it was read as an OpenAI Chat request)
        assert (found.returncode, found.stdout) == (0, checked.stdout), found.stderr

    def test_the_recordings_are_what_adk_stores(self, run: list[Any]) -> None:
        """A new run stores events of the recorded shape (its ids and timestamps are new)."""
        for by_alias, name in ((True, "session_camel.json"), (False, "session_snake.json")):
            dumped = [event.model_dump(mode="json", by_alias=by_alias, exclude_none=True) for event in run]
            assert _shape(dumped) == _shape(_events(name))

    def test_event_objects_read_and_are_written_back_as_adk_loads_them(self, run: list[Any]) -> None:
        from google.adk.events import Event

        read = chatcodec.validate_messages(run)
        assert [message.role for message in read] == ["user", "assistant", "tool", "assistant"]
        written = chatcodec.encode_request("google-adk", chatcodec.ChatRequest(messages=read))["messages"]
        assert [Event.model_validate(event).model_dump() for event in written] == [event.model_dump() for event in run]

    def test_what_another_format_becomes_loads_as_adk_events(self) -> None:
        from google.adk.events import Event

        written = chatcodec.convert_request(
            {"messages": _events("session_camel.json")}, source="google-adk", target="openai-chat", on_loss="ignore"
        )
        events = chatcodec.convert_request(written, source="openai-chat", target="google-adk", on_loss="ignore")
        loaded = [Event.model_validate(event) for event in events["messages"]]
        assert [event.author for event in loaded] == ["user", "weather_agent", "agent", "weather_agent"]
        assert loaded[1].content is not None
        assert loaded[1].content.parts is not None
        (call,) = [part.function_call for part in loaded[1].content.parts if part.function_call is not None]
        assert (call.name, call.args) == ("get_weather", {"city": "Paris"})


def _shape(value: Any) -> Any:
    """``value`` with its ids, timestamps and signatures' texts left out: what a run repeats."""
    if isinstance(value, dict):
        return {
            key: _shape(item)
            for key, item in value.items()
            if key not in ("id", "invocationId", "invocation_id", "timestamp")
        }
    if isinstance(value, list):
        return [_shape(item) for item in value]
    return value


def test_the_cli_validates_a_session_file_as_one_conversation() -> None:
    """``chatcodec validate`` without ``--format`` reads a bare event list whole (its first
    item, an event, has no ``role``), not as a row per event."""
    done = subprocess.run(
        [sys.executable, "-m", "chatcodec", "validate", str(FIXTURES / "session_snake.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "ok, 4 messages (1 user, 2 assistant, 1 tool), 1 tool calls, 0 unanswered" in done.stdout


@pytest.mark.parametrize("name", SPELLINGS)
def test_a_models_event_is_a_response(name: str) -> None:
    """An ``Event`` is an ``LlmResponse``: the answer's usage and finish reason are the
    response's, its author the message's name; written back, the event it was."""
    event = _events(name)[3]
    response = chatcodec.decode_response("google-adk", event)
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (12, 7)
    choice = response.choices[0]
    assert choice.finish_reason is not None
    assert choice.finish_reason.unified == "stop"
    assert choice.message.name == "weather_agent"
    losses: list[chatcodec.Loss] = []
    assert chatcodec.encode_response("google-adk", response, losses=losses) == event
    assert losses == []
