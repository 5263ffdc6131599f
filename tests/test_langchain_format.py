"""The ``langchain`` format against LangChain itself (langchain-core is the oracle).

What chatcodec writes loads with ``messages_from_dict`` / ``langchain_core.load.load`` into the
same messages LangChain built; what LangChain writes (``messages_to_dict``, ``dumpd``) reads
and writes back exactly; a history converts to OpenAI Chat and Anthropic and back with its
calls, results, images and signed thinking intact, and every field the target lacks reported.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from langchain_core.load import dumpd, load
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    messages_from_dict,
    messages_to_dict,
)

import chatcodec

FIXTURES = Path(__file__).parent / "fixtures" / "langchain"


def _history() -> list[BaseMessage]:
    return [
        SystemMessage("Be brief."),
        HumanMessage(
            content=[{"type": "text", "text": "What is this?"}, {"type": "image", "url": "https://x.test/a.png"}]
        ),
        AIMessage(
            content=[
                {"type": "thinking", "thinking": "Look it up.", "signature": "sig-1"},
                {"type": "text", "text": "One moment."},
            ],
            tool_calls=[{"name": "lookup", "args": {"q": "a.png", "n": 2}, "id": "toolu_1"}],
            usage_metadata={
                "input_tokens": 9,
                "output_tokens": 5,
                "total_tokens": 14,
                "input_token_details": {"cache_read": 4},
            },
            response_metadata={"stop_reason": "tool_use"},
            id="run-1",
        ),
        ToolMessage("a cat", tool_call_id="toolu_1", artifact={"hits": 1}),
        AIMessage(
            content="", invalid_tool_calls=[{"name": "lookup", "args": "{oops", "id": "toolu_2", "error": "bad JSON"}]
        ),
        ToolMessage("no", tool_call_id="toolu_2", status="error"),
        AIMessage(content=[{"type": "reasoning", "reasoning": "done"}, {"type": "text", "text": "A cat."}]),
    ]


def _convert(body: Any, source: str, target: str) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = chatcodec.convert_request(body, source=source, target=target, options={"skip_rules": "*"})
    said = [
        str(said)  # a LossWarning lists a conversion's losses: each said on its own, as a warning was
        for warning in caught
        for said in (
            warning.message.losses if isinstance(warning.message, chatcodec.LossWarning) else [warning.message]
        )
    ]
    return written, said


@pytest.mark.parametrize("form", ["messages_to_dict", "dumpd"])
def test_what_langchain_writes_round_trips_exactly(form: str) -> None:
    messages = _history()
    stored = messages_to_dict(messages) if form == "messages_to_dict" else [dumpd(message) for message in messages]
    written, losses = _convert({"messages": stored}, "langchain", "langchain")
    assert written == {"messages": stored}
    assert losses == []


def test_what_chatcodec_writes_loads_in_langchain_as_the_same_messages() -> None:
    messages = _history()
    written, _ = _convert({"messages": messages_to_dict(messages)}, "langchain", "langchain")
    assert messages_from_dict(written["messages"]) == messages
    dumped, _ = _convert({"messages": [dumpd(message) for message in messages]}, "langchain", "langchain")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # LangChainBetaWarning: load is in beta
        assert [load(entry) for entry in dumped["messages"]] == messages


@pytest.mark.parametrize("name", ["langgraph_state.json", "langgraph_checkpoint_dumpd.json"])
def test_the_fixture_history_round_trips_and_loads(name: str) -> None:
    stored = json.loads((FIXTURES / name).read_text())
    written, losses = _convert(stored, "langchain", "langchain")
    assert written == stored
    assert losses == []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # LangChainBetaWarning: load is in beta
        loaded = messages_from_dict(written["messages"]) if "state" in name else [load(m) for m in written["messages"]]
    assert [type(message).__name__ for message in loaded][:4] == [
        "SystemMessage",
        "HumanMessage",
        "AIMessage",
        "ToolMessage",
    ]


def test_a_history_from_openai_chat_loads_in_langchain_with_calls_and_results() -> None:
    openai_body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x.test/b.png"}}]},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"a":1}'}}],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
        ],
    }
    written, _ = _convert(openai_body, "openai-chat", "langchain")
    loaded = messages_from_dict(written["messages"])
    assert isinstance(loaded[1], AIMessage)
    assert loaded[1].tool_calls == [{"name": "f", "args": {"a": 1}, "id": "call_1", "type": "tool_call"}]
    assert isinstance(loaded[2], ToolMessage)
    assert (loaded[2].tool_call_id, loaded[2].content) == ("call_1", "ok")
    assert loaded[0].content == [{"type": "image", "url": "https://x.test/b.png"}]


@pytest.mark.parametrize("wire", ["openai-chat", "anthropic"])
def test_through_a_provider_wire_and_back_keeps_calls_results_and_images(wire: str) -> None:
    stored = json.loads((FIXTURES / "langgraph_state.json").read_text())
    sent, losses = _convert(stored, "langchain", wire)
    assert any("usage_metadata" in loss and "$.messages[2]" in loss for loss in losses)  # said, not dropped
    back, _ = _convert(sent, wire, "langchain")
    loaded = messages_from_dict(back["messages"])
    original = messages_from_dict(stored["messages"])
    calls = [call for message in loaded if isinstance(message, AIMessage) for call in message.tool_calls]
    expected = [call for message in original if isinstance(message, AIMessage) for call in message.tool_calls]
    assert all(call in calls for call in expected)  # Anthropic sends the invalid call too, wrapped (reported)
    results = [(m.tool_call_id, m.content) for m in loaded if isinstance(m, ToolMessage)]
    assert results == [(m.tool_call_id, m.content) for m in original if isinstance(m, ToolMessage)]
    image = next(block for block in loaded[1].content if isinstance(block, dict) and block.get("type") == "image")
    assert image["base64"] == "iVBORw0KGgo="


def test_claude_thinking_keeps_its_signature_through_anthropic() -> None:
    stored = json.loads((FIXTURES / "langgraph_state.json").read_text())
    sent, _ = _convert(stored, "langchain", "anthropic")
    assert sent["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": "I should call the tool.",
        "signature": "EqQBCkYIAxgCKkA",
    }
    back, _ = _convert(sent, "anthropic", "langchain")
    thinking = messages_from_dict(back["messages"])[2].content[0]
    assert thinking == {"type": "thinking", "thinking": "I should call the tool.", "signature": "EqQBCkYIAxgCKkA"}


def test_validate_messages_reads_a_bare_langchain_list() -> None:
    stored = messages_to_dict(_history())
    codec = chatcodec.get_codec("langchain")
    canonical = codec.decode_request({"messages": stored})
    assert [message.role for message in canonical.messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
    ]


def test_an_entry_langchain_cannot_load_is_refused_at_its_path() -> None:
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.convert_request(
            {"messages": [{"type": "human", "data": {"content": "hi"}}, {"type": "chat"}]},
            source="langchain",
            target="openai-chat",
        )
    assert "$.messages[1]" in str(raised.value)


def test_the_command_line_converts_a_langgraph_history_and_back(tmp_path: Path) -> None:
    """``chatcodec convert --from langchain``: a LangGraph checkpoint's ``dumpd`` history to
    Anthropic, and the Anthropic body back to LangChain, which LangChain loads."""
    import subprocess
    import sys

    from langchain_core.messages import messages_from_dict

    source = Path(__file__).parent / "fixtures" / "langchain" / "langgraph_checkpoint_dumpd.json"
    anthropic = tmp_path / "anthropic.json"
    command = [sys.executable, "-m", "chatcodec", "convert"]
    first = subprocess.run(
        [*command, str(source), "--from", "langchain", "--to", "anthropic", "--out", str(anthropic)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert first.returncode == 0, first.stderr
    back = subprocess.run(
        [*command, str(anthropic), "--from", "anthropic", "--to", "langchain"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert back.returncode == 0, back.stderr
    loaded = messages_from_dict(json.loads(back.stdout)["messages"])
    assert [message.type for message in loaded][:3] == ["system", "human", "ai"]


def test_a_call_given_twice_sends_the_tool_calls_entry_the_framework_ran() -> None:
    """Issue 61 (earlier peer case): LangChain's Anthropic integration keeps the
    ``tool_use`` block in an ``AIMessage``'s content beside its ``tool_calls`` entry of the
    same id; the ``tool_calls`` entry is the one the framework executed (langchain-core
    ``AIMessage.tool_calls``), so its arguments are the ones sent, once."""
    history = [
        HumanMessage("Weather?"),
        AIMessage(
            content=[
                {"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
            ],
            tool_calls=[{"name": "get_weather", "args": {"city": "London"}, "id": "toolu_1"}],
        ),
        ToolMessage("rain", tool_call_id="toolu_1"),
    ]
    wire = {"messages": messages_to_dict(history)}
    anthropic = chatcodec.convert_request(
        wire, source="langchain", target="anthropic", on_loss="ignore", options={"model": "claude-sonnet-4-5"}
    )
    assert anthropic["messages"][1]["content"] == [
        {"type": "text", "text": "Checking."},
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "London"}},
    ]
    chat = chatcodec.convert_request(
        wire, source="langchain", target="openai-chat", on_loss="ignore", options={"model": "gpt-5.6"}
    )
    assert [call["function"]["arguments"] for call in chat["messages"][1]["tool_calls"]] == ['{"city":"London"}']


def _repeated_call(content_input: dict[str, Any]) -> dict[str, Any]:
    """An ``AIMessage`` as LangChain's Anthropic integration stores it: the ``tool_use`` block
    in ``content`` with ``content_input``, and the ``tool_calls`` entry of the same id."""
    history = [
        HumanMessage("Weather?"),
        AIMessage(
            content=[
                {"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": content_input},
            ],
            tool_calls=[{"name": "get_weather", "args": {"city": "London"}, "id": "toolu_1"}],
        ),
        ToolMessage("rain", tool_call_id="toolu_1"),
    ]
    return {"messages": messages_to_dict(history)}


@pytest.mark.parametrize("target", ["anthropic", "openai-chat", "gemini", "pydantic-ai", "ai-sdk-model"])
def test_a_repeated_call_whose_content_block_differs_is_reported_at_the_block(target: str) -> None:
    """Issue 65 follow-up: the ``tool_calls`` entry is sent; the content block's other
    ``input`` is not, and that is said at the block's place in the LangChain history (it went
    without a report); the same input repeated says nothing."""
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(
        _repeated_call({"city": "Paris"}), source="langchain", target=target, on_loss="ignore", losses=losses
    )
    block = "$.messages[1].data.content"
    assert [(loss.path, loss.what) for loss in losses if loss.path.startswith(block)] == [
        ("$.messages[1].data.content[1]", "langchain tool call 'toolu_1' arguments")
    ]
    same: list[chatcodec.Loss] = []
    chatcodec.convert_request(
        _repeated_call({"city": "London"}), source="langchain", target=target, on_loss="ignore", losses=same
    )
    assert [loss for loss in same if loss.path.startswith(block)] == []


def test_a_tool_results_own_name_beside_another_message_name_is_reported() -> None:
    """A LangChain ``ToolMessage`` has one ``name``; a canonical tool message may name itself
    and its result apart. The message's name is kept (what a LangChain history read gives
    back) and the result's is reported, not dropped in silence (found through issue 78's law
    facts); a result named alone is written as the ToolMessage's name."""
    call = {"type": "tool_use", "id": "c1", "name": "lookup", "input": {}}
    request = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [call]},
            {
                "role": "tool",
                "name": "named-message",
                "content": [{"type": "tool_result", "tool_use_id": "c1", "name": "lookup", "content": "ok"}],
            },
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("langchain", request, losses=losses, on_loss="ignore")
    assert body["messages"][2]["data"]["name"] == "named-message"
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[2].content[0].name", "tool result name")]
    del request["messages"][2]["name"]
    losses.clear()
    body = chatcodec.encode_request("langchain", request, losses=losses, on_loss="ignore")
    assert body["messages"][2]["data"]["name"] == "lookup"
    assert losses == []


def test_a_cache_marker_on_a_tool_call_is_reported() -> None:
    """A LangChain ``tool_call`` has no place for a cache marker: the writer says so at the part
    (it dropped it silently; the stored-history laws found it)."""
    request = chatcodec.ChatRequest.model_validate(
        {
            "messages": [
                {"role": "user", "content": "hi"},
                {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "tool_use",
                            "id": "c1",
                            "name": "f",
                            "arguments": "{}",
                            "cache_control": {"type": "ephemeral"},
                        }
                    ],
                },
            ]
        }
    )
    losses: list[chatcodec.Loss] = []
    written = chatcodec.encode_request("langchain", request, on_loss="ignore", losses=losses)
    assert written["messages"][1]["data"]["tool_calls"][0]["id"] == "c1"
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[1].content[0].cache_control", "cache_control")]


def test_a_thoughts_model_is_a_loss_where_a_reasoning_block_names_none() -> None:
    # Gemini's reader names the model a thought came from; LangChain's blocks have no place for
    # it, and it went without a report (found by law_losses on the CI profile's examples)
    for text, signature in (("", None), ("I checked.", None), ("I checked.", "sig")):
        part = {"type": "thinking", "text": text, "model": "gemini-3-pro", "signature": signature}
        request = chatcodec.ChatRequest.model_validate({"messages": [{"role": "assistant", "content": [part]}]})
        losses: list[chatcodec.Loss] = []
        chatcodec.encode_request("langchain", request, on_loss="ignore", losses=losses)
        assert ("$.messages[0].content[0].model", "thinking model") in [(loss.path, loss.what) for loss in losses]


@pytest.mark.parametrize("text", ["", "I look."])
def test_a_thinking_parts_provider_a_reasoning_block_cannot_name_is_reported(text: str) -> None:
    """OpenAI's reasoning (``provider="openai"``) is written as LangChain's standard reasoning
    block, which names no provider: read back as no one's, so the change is reported (the
    stored-history law's find: it changed silently); Anthropic's thinking keeps its own block."""
    for provider, reported in (("openai", True), (None, False), ("anthropic", False)):
        part = chatcodec.ThinkingPart(type="thinking", text=text, provider=provider)
        request = chatcodec.ChatRequest(messages=[chatcodec.AssistantMessage(role="assistant", content=[part])])
        losses: list[chatcodec.Loss] = []
        body = chatcodec.encode_request("langchain", request, on_loss="ignore", losses=losses)
        back = chatcodec.decode_request("langchain", body).messages[0].content[0]
        assert [loss.path for loss in losses] == (["$.messages[0].content[0].provider"] if reported else [])
        assert (back.provider == provider) is not reported
