"""The provider-generic conversation builder, exercised through the canonical format."""

from __future__ import annotations

import pytest

import chatcodec
from chatcodec import (
    AssistantMessage,
    Conversation,
    PartEvent,
    TextDeltaEvent,
    ToolMessage,
    ToolUsePart,
    UserMessage,
)


def _assistant_with_calls(*ids: str) -> dict[str, object]:
    return {
        "role": "assistant",
        "tool_calls": [{"id": call_id, "name": "lookup", "arguments": '{"q": 1}'} for call_id in ids],
    }


def test_starts_from_a_system_prompt_and_appends_any_shape() -> None:
    conversation = Conversation(system="be brief")
    conversation.append({"role": "user", "content": "hi"})
    conversation.append(UserMessage(content="again"))
    assert [message.role for message in conversation.messages] == ["system", "user", "user"]
    assert conversation.messages[0].text == "be brief"


def test_bad_message_is_a_validation_error_and_nothing_is_added() -> None:
    conversation = Conversation()
    with pytest.raises(chatcodec.ValidationError):
        conversation.append({"role": "wizard", "content": "x"})
    assert conversation.messages == []


def test_tool_results_join_the_tool_message_after_the_call() -> None:
    conversation = Conversation(messages=[{"role": "user", "content": "go"}, _assistant_with_calls("a", "b")])
    assert [call.id for call in conversation.unresolved_tool_calls()] == ["a", "b"]
    conversation.add_tool_result("a", "one")
    conversation.add_tool_result("b", "two", is_error=True)
    last = conversation.messages[-1]
    assert isinstance(last, ToolMessage)
    assert last.tool_use_ids == ["a", "b"]
    assert last.content[1].is_error
    assert conversation.unresolved_tool_calls() == []


def test_fill_missing_tool_results_puts_errors_right_after_the_turn() -> None:
    conversation = Conversation(
        messages=[
            {"role": "user", "content": "go"},
            _assistant_with_calls("a", "b"),
            {"role": "tool", "tool_call_id": "a", "content": "done"},
            {"role": "user", "content": "and?"},
            _assistant_with_calls("c"),
        ]
    )
    added = conversation.fill_missing_tool_results()
    assert [result.tool_use_id for result in added] == ["b", "c"]
    assert all(result.is_error and result.name == "lookup" for result in added)
    roles = [message.role for message in conversation.messages]
    assert roles == ["user", "assistant", "tool", "user", "assistant", "tool"]
    joined = conversation.messages[2]
    assert isinstance(joined, ToolMessage)
    assert joined.tool_use_ids == ["a", "b"]
    assert conversation.unresolved_tool_calls() == []
    assert conversation.fill_missing_tool_results() == []


def test_append_provider_messages_and_response() -> None:
    conversation = Conversation()
    added = conversation.append_provider_messages("canonical", [{"role": "user", "content": "hi"}])
    assert added == [UserMessage(content="hi")]
    message = conversation.append_response("canonical", {"message": {"role": "assistant", "content": "hello"}})
    assert message == AssistantMessage(content="hello")
    assert len(conversation.messages) == 2


def test_streaming_shows_text_deltas_and_whole_tool_calls() -> None:
    conversation = Conversation(messages=[{"role": "user", "content": "go"}])
    wire = [
        {"type": "response_start", "id": "r1"},
        {"type": "text_start", "index": 0},
        {"type": "text_delta", "index": 0, "delta": "Work"},
        {"type": "text_delta", "index": 0, "delta": "ing"},
        {"type": "text_end", "index": 0},
        {"type": "tool_call_start", "index": 1, "id": "c1", "name": "lookup"},
        {"type": "tool_call_delta", "index": 1, "delta": '{"q":'},
        {"type": "tool_call_delta", "index": 1, "delta": "1}"},
        {"type": "tool_call_end", "index": 1},
        {"type": "finish", "finish_reason": {"unified": "tool_calls"}},
    ]
    shown = [event for chunk in wire for event in conversation.append_chunk("canonical", chunk)]
    deltas = [event.delta for event in shown if isinstance(event, TextDeltaEvent)]
    assert deltas == ["Work", "ing"]
    calls = [event.part for event in shown if isinstance(event, PartEvent)]
    assert calls == [ToolUsePart(id="c1", name="lookup", arguments='{"q":1}')]
    assert not any(event.type.startswith("tool_call") for event in shown)
    message = conversation.finish_stream()
    assert message.text == "Working"
    assert conversation.messages[-1] is message
    assert [call.id for call in conversation.unresolved_tool_calls()] == ["c1"]


def test_finish_without_a_stream_is_an_error() -> None:
    with pytest.raises(chatcodec.StreamError):
        Conversation().finish_stream()


def test_dump_to_a_format_with_request_fields() -> None:
    conversation = Conversation(system="sys", messages=[{"role": "user", "content": "hi"}])
    body = conversation.dump("canonical", model="m", max_tokens=10)
    assert body["model"] == "m"
    assert body["max_tokens"] == 10
    assert [message["role"] for message in body["messages"]] == ["system", "user"]


def test_dump_to_a_provider_without_codec_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from chatcodec import _registry as registry

    # the tables swapped whole (deleting a key and putting it back would move it last in
    # the built-in order detection prefers), and the generation bumped for what is derived
    monkeypatch.setattr(registry, "_BUILT_IN", {k: v for k, v in registry._BUILT_IN.items() if k != "gemini"})
    monkeypatch.setattr(registry, "_loaded", {k: v for k, v in registry._loaded.items() if k != "gemini"})
    monkeypatch.setattr(registry, "_generation", [registry.generation() + 1])
    with pytest.raises(chatcodec.CodecNotAvailableError):
        Conversation(messages=[{"role": "user", "content": "hi"}]).dump("gemini")


def test_render_is_one_line_per_message() -> None:
    conversation = Conversation(system="sys", messages=[{"role": "user", "content": "hi"}])
    assert conversation.render().splitlines() == ["[0] system: sys", "[1] user: hi"]


def test_a_recorded_openai_stream_then_dump_to_anthropic() -> None:
    from pathlib import Path

    from chatcodec.streams._sse import iter_sse_json

    recording = Path(__file__).parent / "fixtures" / "openai-chat" / "stream" / "parallel_tool_calls.sse"
    conversation = Conversation(system="sys", messages=[{"role": "user", "content": "weather?"}])
    shown = [
        event
        for chunk in iter_sse_json(recording.read_bytes())
        for event in conversation.append_chunk("openai-chat", chunk)
    ]
    message = conversation.finish_stream()
    calls = [event.part for event in shown if isinstance(event, PartEvent) and isinstance(event.part, ToolUsePart)]
    assert calls == message.tool_calls
    assert len(calls) >= 2
    assert len({call.id for call in calls}) == len(calls)
    assert all(call.arguments_are_valid_json for call in calls)
    conversation.fill_missing_tool_results()
    body = conversation.dump("anthropic", model="claude-sonnet-4-5", max_tokens=256, on_loss="ignore")
    last = body["messages"][-1]
    assert last["role"] == "user"
    assert [block["type"] for block in last["content"]] == ["tool_result"] * len(calls)
    assert all(block["is_error"] for block in last["content"])
