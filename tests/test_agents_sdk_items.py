"""The OpenAI Agents SDK's stored items read as the Responses input items they are (issue 80).

The oracle is a real ``agents.Runner`` run (``tests/agents_sdk_run.py``: the SDK's ``Model``
interface answering as its Chat Completions model does), whose ``to_input_list()`` and
``SQLiteSession.get_items()`` hold the SDK's placeholder ids (``__fake_id__``), its
``provider_data`` and a ``reasoning`` item made of a Chat Completions message's reasoning.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from agents_sdk_run import stored_items

FIXTURE = Path(__file__).parent / "fixtures" / "agents_sdk" / "session_items.json"

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


@pytest.fixture(scope="module")
def run() -> tuple[list[Any], list[Any]]:
    return stored_items()


def test_the_run_stores_what_was_recorded(run: tuple[list[Any], list[Any]]) -> None:
    """The recorded copy is what the SDK stores today: its input list and its session agree."""
    input_list, session_items = run
    assert input_list == session_items == json.loads(FIXTURE.read_text())
    assert [item.get("id") for item in input_list[1:]] == ["__fake_id__"] * 3 + [None, "__fake_id__"]


def test_validate_messages_reads_the_run_as_responses_items(run: tuple[list[Any], list[Any]]) -> None:
    for listed in run:
        read = chatcodec.validate_messages(listed)
        assert [message.role for message in read] == ["user", "assistant", "tool", "assistant"]
        assert read == chatcodec.decode_request("openai-responses", {"model": "m", "input": listed}).messages
        thinking, said, call = read[1].content
        assert isinstance(thinking, chatcodec.ThinkingPart)
        assert thinking.text == "The user wants the weather."
        assert isinstance(said, chatcodec.TextPart)
        assert isinstance(call, chatcodec.ToolUsePart)
        assert call.id == "call_1"


def test_a_list_opening_with_a_reasoning_item_validates(run: tuple[list[Any], list[Any]]) -> None:
    """A session trimmed to its last turns may open with an item that has no ``role``."""
    read = chatcodec.validate_messages(run[1][1:])
    assert [message.role for message in read] == ["assistant", "tool", "assistant"]


def _texts_and_calls(messages: list[Any]) -> tuple[list[str], list[tuple[str, str]]]:
    texts: list[str] = []
    calls: list[tuple[str, str]] = []
    for message in messages:
        content = message.content if isinstance(message.content, list) else [chatcodec.TextPart(text=message.content)]
        for part in content:
            if isinstance(part, chatcodec.TextPart):
                texts.append(part.text)
            elif isinstance(part, chatcodec.ToolUsePart):
                calls.append((part.id, part.name))
    return texts, calls


@pytest.mark.parametrize("target", TARGETS)
def test_the_run_converts_to_every_wire_with_only_reported_losses(
    run: tuple[list[Any], list[Any]], target: str
) -> None:
    """Each target gets the whole conversation (the call and its result paired by id) and
    nothing of the SDK's own (its placeholder ids, ``provider_data``); what it cannot carry
    is reported."""
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        {"model": "m", "input": run[1]}, source="openai-responses", target=target, on_loss="ignore", losses=losses
    )
    written = json.dumps(body)
    if target != "pydantic-ai":  # pydantic-ai keeps a Responses item's id on its part, this one too
        assert "__fake_id__" not in written
    assert "provider_data" not in written
    assert losses
    texts, calls = _texts_and_calls(chatcodec.decode_request(target, body).messages)
    assert "Weather in Paris?" in texts
    assert "Sunny in Paris." in texts
    assert [name for _, name in calls] == ["get_weather"]


def test_written_back_to_openai_the_sdk_fields_are_left_out_and_reported(run: tuple[list[Any], list[Any]]) -> None:
    """What the SDK's own ``OpenAIResponsesModel._clean_item_for_openai`` does before it sends
    such a list to OpenAI: the placeholder ids and ``provider_data`` taken out, the reasoning
    item of a Chat Completions model left out; each reported, at its item."""
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        {"model": "m", "input": run[1]},
        source="openai-responses",
        target="openai-responses",
        losses=losses,
        on_loss="ignore",
    )
    assert [item.get("type") for item in body["input"]] == [
        None,
        "message",
        "function_call",
        "function_call_output",
        "message",
    ]
    assert body["input"][2] == {
        "type": "function_call",
        "call_id": "call_1",
        "name": "get_weather",
        "arguments": '{"city": "Paris"}',
    }
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.input[1]", "reasoning from a Chat Completions model"),
        ("$.input[2].content[0]", "item id __fake_id__"),
        ("$.input[2].content[0]", "the Agents SDK's provider_data"),
        ("$.input[3]", "item id __fake_id__"),
        ("$.input[3]", "the Agents SDK's provider_data"),
        ("$.input[5].content[0]", "item id __fake_id__"),
        ("$.input[5].content[0]", "the Agents SDK's provider_data"),
    ]
    assert {loss.kind for loss in losses} == {"content", "metadata"}


def test_the_agents_sdk_is_taken_at_its_word_by_its_own_cleaner(run: tuple[list[Any], list[Any]]) -> None:
    """The body written for OpenAI is what the SDK itself sends for the same list."""
    from agents.models.openai_responses import OpenAIResponsesModel
    from openai import AsyncOpenAI

    model = OpenAIResponsesModel("gpt-5", AsyncOpenAI(api_key="unused"))
    cleaned = model._remove_openai_responses_api_incompatible_fields([dict(item) for item in run[1]])
    body = chatcodec.convert_request(
        {"model": "m", "input": run[1]}, source="openai-responses", target="openai-responses", on_loss="ignore"
    )
    assert body["input"] == cleaned


@pytest.mark.parametrize("source", ["canonical", "openai-responses"])
@pytest.mark.parametrize("opening", [0, 1])
def test_the_cli_converts_the_recorded_session(tmp_path: Path, source: str, opening: int) -> None:
    """``chatcodec convert --from canonical`` (the stored shapes ``validate`` reads) and
    ``--from openai-responses`` read the stored list as one conversation, also when it opens
    with an item that has no ``role`` (a reasoning item)."""
    listed = json.loads(FIXTURE.read_text())[opening:]
    path = tmp_path / "session.json"
    path.write_text(json.dumps(listed))
    done = subprocess.run(
        [sys.executable, "-m", "chatcodec", "convert", str(path), "--from", source, "--to", "anthropic", "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"a bare list of {len(listed)} messages" in done.stderr
    body = json.loads(done.stdout)
    assert [message["role"] for message in body["messages"]] == ["user", "assistant", "user", "assistant"][opening:]


def test_the_cli_validates_a_session_that_opens_with_a_reasoning_item(tmp_path: Path) -> None:
    """``chatcodec validate`` reads the stored list whole even when its first item has no ``role``."""
    path = tmp_path / "session.json"
    path.write_text(json.dumps(json.loads(FIXTURE.read_text())[1:]))
    done = subprocess.run(
        [sys.executable, "-m", "chatcodec", "validate", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "ok, 3 messages (2 assistant, 1 tool), 1 tool calls, 0 unanswered" in done.stdout


def test_a_reasoning_item_with_provider_data_and_no_id_is_left_out_as_the_sdk_does(
    run: tuple[list[Any], list[Any]],
) -> None:
    """Issue 87: a reasoning item the SDK stored with ``provider_data`` but no placeholder id was
    sent to OpenAI as a reasoning item without an id; the SDK's own cleaner leaves it out
    (``item.get("provider_data")``), and so does the writer, reported."""
    from agents.models.openai_responses import OpenAIResponsesModel
    from openai import AsyncOpenAI

    items = [dict(item) for item in run[1]]
    reasoning = next(index for index, item in enumerate(items) if item.get("type") == "reasoning")
    items[reasoning].pop("id", None)
    assert items[reasoning].get("provider_data")
    model = OpenAIResponsesModel("gpt-5", AsyncOpenAI(api_key="unused"))
    cleaned = model._remove_openai_responses_api_incompatible_fields([dict(item) for item in items])
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        {"model": "m", "input": items},
        source="openai-responses",
        target="openai-responses",
        on_loss="ignore",
        losses=losses,
    )
    assert body["input"] == cleaned
    assert not any(item.get("type") == "reasoning" for item in body["input"])
    assert (f"$.input[{reasoning}]", "reasoning from a Chat Completions model") in [
        (loss.path, loss.what) for loss in losses
    ]
