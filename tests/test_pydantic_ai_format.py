"""The ``pydantic-ai`` format against pydantic-ai itself (pydantic-ai-slim is the oracle).

The fixtures are histories a real pydantic-ai ``Agent`` built driving its ``FunctionModel``
through tool loops (``tests/fixtures/pydantic_ai/record.py``): what pydantic-ai wrote reads and
writes back exactly; what chatcodec writes loads with ``ModelMessagesTypeAdapter`` with its
calls, results, images and thinking intact; a history converts to each provider wire and back
with every field the target lacks reported.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai.messages import (
    BinaryContent,
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    NativeToolCallPart,
    NativeToolReturnPart,
    SystemPromptPart,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

import chatcodec
from chatcodec._codec_protocols import SupportsMessageDecoding

FIXTURES = Path(__file__).parent / "fixtures" / "pydantic_ai"
NAMES = ["claude_tool_loop.json", "gemini_tool_loop.json", "validated_media_urls.json"]
WIRES = ["openai-chat", "anthropic", "openai-responses", "gemini", "bedrock-converse", "bedrock-nova", "ollama"]


def _fixture(name: str) -> list[dict[str, Any]]:
    history: list[dict[str, Any]] = json.loads((FIXTURES / name).read_text())
    return history


def _convert(body: Any, source: str, target: str) -> tuple[Any, list[str]]:
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(
        body, source=source, target=target, on_loss="ignore", losses=losses, options={"skip_rules": "*"}
    )
    return written, [str(loss) for loss in losses]


def _calls(history: list[Any]) -> list[tuple[str, str, Any]]:
    return [
        (part.tool_call_id, part.tool_name, part.args_as_dict())
        for message in history
        if isinstance(message, ModelResponse)
        for part in message.parts
        if isinstance(part, ToolCallPart)
    ]


def _returns(history: list[Any]) -> list[tuple[str, Any, bool]]:
    return [
        (part.tool_call_id, part.content, part.outcome != "success")
        for message in history
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


@pytest.mark.parametrize("name", NAMES)
def test_what_pydantic_ai_wrote_round_trips_exactly(name: str) -> None:
    stored = _fixture(name)
    written, losses = _convert({"messages": stored}, "pydantic-ai", "pydantic-ai")
    assert written == {"messages": stored}
    assert losses == []
    loaded = ModelMessagesTypeAdapter.validate_python(written["messages"])
    assert ModelMessagesTypeAdapter.dump_python(loaded, mode="json") == stored


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("name", NAMES)
def test_through_each_provider_wire_and_back_keeps_calls_and_results(name: str, wire: str) -> None:
    stored = _fixture(name)
    sent, losses = _convert({"messages": stored}, "pydantic-ai", wire)
    assert any("pydantic-ai data" in loss and "timestamp" in loss for loss in losses)  # said, not dropped
    back, _ = _convert(sent, wire, "pydantic-ai")
    loaded = ModelMessagesTypeAdapter.validate_python(back["messages"])
    original = ModelMessagesTypeAdapter.validate_python(stored)
    assert [(name, args) for _, name, args in _calls(loaded)] == [(name, args) for _, name, args in _calls(original)]
    flags = wire not in ("openai-chat", "openai-responses", "ollama")  # these carry no error flag: reported
    assert [(content, error and flags) for _, content, error in _returns(original)] == [
        (content, error) for _, content, error in _returns(loaded)
    ]
    if not flags and name == "claude_tool_loop.json":
        assert any(loss.startswith("$.messages[5].content[0].is_error") for loss in losses)
    if wire != "gemini":  # Gemini keeps the ids pydantic-ai made up for its calls; every other wire keeps them all
        assert [call[0] for call in _calls(loaded)] == [call[0] for call in _calls(original)]


@pytest.mark.parametrize("wire", ["openai-chat", "anthropic", "gemini", "bedrock-converse", "ollama"])
def test_the_image_input_survives_each_wire(wire: str) -> None:
    stored = _fixture("claude_tool_loop.json")
    sent, _ = _convert({"messages": stored}, "pydantic-ai", wire)
    back, _ = _convert(sent, wire, "pydantic-ai")
    loaded = ModelMessagesTypeAdapter.validate_python(back["messages"])
    first = loaded[0]
    assert isinstance(first, ModelRequest)
    images = [
        item
        for part in first.parts
        if isinstance(part, UserPromptPart) and not isinstance(part.content, str)
        for item in part.content
        if isinstance(item, BinaryContent)
    ]
    assert [(image.media_type, image.data[:4]) for image in images] == [("image/png", b"\x89PNG")]


@pytest.mark.parametrize(("wire", "model"), [("anthropic", None), ("bedrock-converse", "anthropic.claude-sonnet-4-5")])
def test_claude_thinking_keeps_its_signature(wire: str, model: str | None) -> None:
    stored = _fixture("claude_tool_loop.json")
    sent, _ = _convert({"messages": stored, **({"model": model} if model else {})}, "pydantic-ai", wire)
    back, _ = _convert(sent, wire, "pydantic-ai")
    loaded = ModelMessagesTypeAdapter.validate_python(back["messages"])
    thinking = [
        part for m in loaded if isinstance(m, ModelResponse) for part in m.parts if isinstance(part, ThinkingPart)
    ]
    assert (thinking[0].content, thinking[0].signature) == (
        "The user sent an image; look up the weather first.",
        "EqQBCkYIAxgCKkA",
    )
    if wire == "anthropic":  # redacted thinking: pydantic-ai's id and the payload as its signature
        assert (thinking[1].id, thinking[1].signature, thinking[1].provider_name) == (
            "redacted_thinking",
            "RXJyb3I=",
            "anthropic",
        )


def test_a_gemini_thought_signature_goes_to_gemini_and_back() -> None:
    stored = _fixture("gemini_tool_loop.json")
    sent, _ = _convert({"messages": stored}, "pydantic-ai", "gemini")
    thought = sent["contents"][1]["parts"][0]
    assert thought == {"text": "Need the weather.", "thought": True, "thoughtSignature": "CiQBcsjafA1a"}
    assert sent["systemInstruction"]["parts"] == [{"text": "Answer in one sentence."}]  # the agent's instructions
    back, _ = _convert(sent, "gemini", "pydantic-ai")
    loaded = ModelMessagesTypeAdapter.validate_python(back["messages"])
    part, call = loaded[1].parts
    assert isinstance(part, ThinkingPart)
    assert (part.provider_name, part.provider_details) == ("google-gla", {"thought_signature": "CiQBcsjafA1a"})
    assert isinstance(call, ToolCallPart)
    assert (call.provider_name, call.provider_details) == ("google-gla", {"thought_signature": "CiQBcsjafE2b"})


@pytest.mark.parametrize("wire", ["gemini", "anthropic", "openai-chat"])
def test_a_gemini_call_signature_goes_to_gemini_and_is_reported_elsewhere(wire: str) -> None:
    """pydantic-ai keeps a call's Gemini signature in ``provider_details.thought_signature``;
    canonical keeps it where Gemini's own reader does (the call's ``gemini`` bag), so Gemini gets
    it back on the call, and a request to another provider reports it."""
    stored = _fixture("gemini_tool_loop.json")
    sent, losses = _convert({"messages": stored}, "pydantic-ai", wire)
    reported = [loss for loss in losses if "thoughtSignature" in loss or "thought signature" in loss.lower()]
    if wire != "gemini":
        assert any(loss.startswith("$.messages[2].") for loss in reported), losses
        return
    assert reported == []
    assert sent["contents"][1]["parts"][1]["thoughtSignature"] == "CiQBcsjafE2b"


def test_an_anthropic_body_loads_in_pydantic_ai_with_calls_results_images_and_thinking() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": "Be brief.",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}},
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "Look it up.", "signature": "sig-1"},
                    {"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {"q": "a.png"}},
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a cat", "is_error": False}],
            },
        ],
    }
    written, losses = _convert(body, "anthropic", "pydantic-ai")
    assert any("max_tokens" in loss for loss in losses)
    loaded = ModelMessagesTypeAdapter.validate_python(written["messages"])
    request, response, results = loaded
    assert isinstance(request, ModelRequest)
    assert isinstance(response, ModelResponse)
    system, user = request.parts
    assert isinstance(system, SystemPromptPart)
    assert system.content == "Be brief."
    assert isinstance(user, UserPromptPart)
    assert not isinstance(user.content, str)
    assert [getattr(item, "url", item) for item in user.content] == ["What is this?", "https://x.test/a.png"]
    thinking, call = response.parts
    assert isinstance(thinking, ThinkingPart)
    assert (thinking.signature, thinking.provider_name) == ("sig-1", "anthropic")
    assert isinstance(call, ToolCallPart)
    assert (call.tool_call_id, call.args) == ("toolu_1", {"q": "a.png"})
    assert isinstance(results, ModelRequest)
    result = results.parts[0]
    assert isinstance(result, ToolReturnPart)
    assert (result.tool_name, result.tool_call_id, result.content, result.outcome) == (
        "lookup",
        "toolu_1",
        "a cat",
        "success",
    )


def test_an_openai_chat_history_names_each_result_after_its_call() -> None:
    """OpenAI's tool messages name no tool; pydantic-ai's returns must: the call's name is used."""
    body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a":1}'}}],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
            {"role": "assistant", "content": "done"},
        ],
    }
    written, losses = _convert(body, "openai-chat", "pydantic-ai")
    assert not any("tool name" in loss for loss in losses)
    loaded = ModelMessagesTypeAdapter.validate_python(written["messages"])
    assert _returns(loaded) == [("c1", "ok", False)]
    assert isinstance(loaded[3], ModelResponse)
    assert loaded[3].parts == [TextPart("done")]


def test_a_legacy_retry_prompt_reads_and_writes_back_exactly() -> None:
    """As pydantic-ai dumped a ``RetryPromptPart`` before deprecating it (the shape its
    ``ModelMessagesTypeAdapter`` still reads, translating it on load)."""
    stored = [
        {
            "parts": [{"content": "go", "timestamp": "2026-01-02T03:04:05Z", "part_kind": "user-prompt"}],
            "kind": "request",
        },
        {
            "parts": [{"tool_name": "f", "args": '{"x": 0}', "tool_call_id": "c1", "part_kind": "tool-call"}],
            "kind": "response",
        },
        {
            "parts": [
                {"content": "x must be positive", "tool_name": "f", "tool_call_id": "c1", "part_kind": "retry-prompt"},
                {"content": "again", "tool_name": None, "tool_call_id": "pyd_ai_1", "part_kind": "retry-prompt"},
            ],
            "kind": "request",
        },
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a deprecation warning, if pydantic-ai gives one for the legacy part
        loaded = ModelMessagesTypeAdapter.validate_python(stored)
    assert _returns(loaded) == [("c1", "x must be positive", True)]  # pydantic-ai reads it as a retried return
    written, losses = _convert({"messages": stored}, "pydantic-ai", "pydantic-ai")
    assert (written, losses) == ({"messages": stored}, [])
    sent, _ = _convert({"messages": stored}, "pydantic-ai", "openai-chat")
    assert sent["messages"][2] == {"role": "tool", "tool_call_id": "c1", "content": "x must be positive"}
    assert sent["messages"][3] == {"role": "user", "content": "again"}


def test_a_bare_stored_list_reads_as_messages() -> None:
    codec = chatcodec.get_codec("pydantic-ai")
    assert isinstance(codec, SupportsMessageDecoding)
    messages = codec.decode_messages(_fixture("claude_tool_loop.json"))
    assert [message.role for message in messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
    ]


def test_a_model_response_is_a_response() -> None:
    entry = _fixture("claude_tool_loop.json")[1]
    codec = chatcodec.get_codec("pydantic-ai")
    response = codec.decode_response(entry)
    assert (response.model, response.id) == ("claude-sonnet-4-5", "msg_01")
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.cache_read_tokens) == (40, 8)
    assert response.choices[0].finish_reason is not None
    assert response.choices[0].finish_reason.unified == "tool_calls"
    assert chatcodec.convert_response(entry, source="pydantic-ai", target="pydantic-ai") == entry
    openai = chatcodec.convert_response(entry, source="pydantic-ai", target="openai-chat", on_loss="ignore")
    assert openai["choices"][0]["finish_reason"] == "tool_calls"


def test_an_entry_pydantic_ai_cannot_load_is_refused_at_its_path() -> None:
    history = {"messages": [{"kind": "request", "parts": [{"part_kind": "user-prompt", "content": 3}]}]}
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.convert_request(history, source="pydantic-ai", target="openai-chat")
    assert "$.messages[0]" in str(raised.value)


def test_a_request_given_as_a_response_is_refused_at_its_kind() -> None:
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.convert_response({"kind": "request", "parts": []}, source="pydantic-ai", target="openai-chat")
    assert "$.kind" in str(raised.value)


def test_the_command_line_converts_a_file_of_histories_and_back(tmp_path: Path) -> None:
    """``chatcodec convert --from pydantic-ai``: a JSONL file of histories to Anthropic, and back,
    which pydantic-ai loads."""
    source = tmp_path / "histories.jsonl"
    source.write_text("".join(json.dumps({"messages": _fixture(name)}) + "\n" for name in NAMES))
    anthropic = tmp_path / "anthropic.jsonl"
    command = [sys.executable, "-m", "chatcodec", "convert"]
    first = subprocess.run(
        [*command, str(source), "--from", "pydantic-ai", "--to", "anthropic", "--out", str(anthropic)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert first.returncode == 0, first.stderr
    back = subprocess.run(
        [*command, str(anthropic), "--from", "anthropic", "--to", "pydantic-ai"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert back.returncode == 0, back.stderr
    lines = [json.loads(line) for line in back.stdout.splitlines() if line.strip()]
    assert len(lines) == len(NAMES)
    for line, name in zip(lines, NAMES, strict=True):
        loaded = ModelMessagesTypeAdapter.validate_python(line["messages"])
        assert [(n, a) for _, n, a in _calls(loaded)] == [
            (n, a) for _, n, a in _calls(ModelMessagesTypeAdapter.validate_python(_fixture(name)))
        ]


def test_a_json_array_of_histories_becomes_a_fine_tuning_file(tmp_path: Path) -> None:
    """``convert --from pydantic-ai --to openai-chat --storage`` on a JSON array of histories:
    one OpenAI fine-tuning line per history, its calls and results in order."""
    source = tmp_path / "histories.json"
    source.write_text(json.dumps([{"messages": _fixture(name)} for name in NAMES]))
    command = [sys.executable, "-m", "chatcodec", "convert", str(source), "--from", "pydantic-ai"]
    done = subprocess.run(
        [*command, "--to", "openai-chat", "--storage", "--quiet"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(lines) == len(NAMES)
    roles = [message["role"] for message in lines[0]["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "tool", "assistant", "tool", "assistant"]
    assert lines[1]["messages"][0] == {"role": "system", "content": "Answer in one sentence."}


def _built() -> list[ModelMessage]:
    """A history built with pydantic-ai's own classes, of what its runs rarely make: consecutive
    requests (one with metadata, one with no parts), document and audio bytes, OpenAI reasoning
    (its encrypted content in ``signature``), built-in tool parts, a call without arguments,
    returns that are JSON and media, instructions set part-way, an empty response."""
    return [
        ModelRequest(parts=[UserPromptPart("first")], metadata={"k": 1}),
        ModelRequest(parts=[]),
        ModelRequest(
            parts=[
                UserPromptPart(
                    [
                        "look",
                        BinaryContent(b"%PDF-1", media_type="application/pdf"),
                        BinaryContent(b"RIFF", media_type="audio/wav"),
                    ]
                )
            ]
        ),
        ModelResponse(
            parts=[
                ThinkingPart("r", id="rs_1", signature="gAAAA-enc", provider_name="openai"),
                NativeToolCallPart("web_search", {"q": "x"}, tool_call_id="ws_1", provider_name="openai"),
                NativeToolReturnPart("web_search", {"hits": 2}, tool_call_id="ws_1", provider_name="openai"),
                TextPart("see", id="msg_1"),
                ToolCallPart("noargs", None, tool_call_id="c0"),
                ToolCallPart("f", {"a": [1, 2.5, "é"]}, tool_call_id="c1"),
            ],
            model_name="gpt-5",
            provider_name="openai",
            finish_reason="tool_call",
        ),
        ModelRequest(
            parts=[
                ToolReturnPart("noargs", {"ok": True, "n": 3}, tool_call_id="c0"),
                ToolReturnPart("f", ["here", BinaryContent(b"\x89PNG", media_type="image/png")], tool_call_id="c1"),
                UserPromptPart("and then?"),
            ],
            instructions="Be terse.",
        ),
        ModelResponse(parts=[]),
    ]


def test_a_history_of_every_part_round_trips_exactly_and_through_each_wire() -> None:
    stored = ModelMessagesTypeAdapter.dump_python(_built(), mode="json")
    written, losses = _convert({"messages": stored}, "pydantic-ai", "pydantic-ai")
    assert (written, losses) == ({"messages": stored}, [])
    for wire in WIRES:
        sent, losses = _convert({"messages": stored, "model": "gpt-5"}, "pydantic-ai", wire)
        for built_in in ("$.messages[2].content[1]", "$.messages[2].content[2]"):  # the web search, reported
            assert any(loss.startswith(built_in + ":") for loss in losses), (wire, built_in)
        back, _ = _convert(sent, wire, "pydantic-ai")
        loaded = ModelMessagesTypeAdapter.validate_python(back["messages"])
        assert [args for _, _, args in _calls(loaded)] == [{}, {"a": [1, 2.5, "é"]}], wire


def test_a_request_without_parts_sends_no_empty_turn_and_comes_back() -> None:
    """A request a run left without parts rides on its neighbour's bag: no provider gets an
    empty user turn, and the history written back has it again, alone or not."""
    stored = ModelMessagesTypeAdapter.dump_python(_built(), mode="json")
    sent, losses = _convert({"messages": stored}, "pydantic-ai", "anthropic")
    assert sent["messages"][0] == {"role": "user", "content": "first"}
    assert sent["messages"][1]["content"][0] == {"type": "text", "text": "look"}
    empty = [loss for loss in losses if "empty" in loss]
    assert [loss.split(":")[0] for loss in empty] == ["$.messages[6]"]  # the empty response, not the request
    histories: list[list[ModelMessage]] = [
        [ModelRequest(parts=[])],
        [ModelRequest(parts=[]), ModelRequest(parts=[], instructions="x")],
    ]
    for history in histories:
        alone = ModelMessagesTypeAdapter.dump_python(history, mode="json")
        assert _convert({"messages": alone}, "pydantic-ai", "pydantic-ai") == ({"messages": alone}, [])


def test_openai_reasoning_goes_to_responses_as_encrypted_content_and_back() -> None:
    stored = ModelMessagesTypeAdapter.dump_python(_built(), mode="json")
    sent, _ = _convert({"messages": stored, "model": "gpt-5"}, "pydantic-ai", "openai-responses")
    reasoning = [item for item in sent["input"] if item.get("type") == "reasoning"]
    assert [(item["encrypted_content"], item["summary"][0]["text"]) for item in reasoning] == [("gAAAA-enc", "r")]
    back, _ = _convert(sent, "openai-responses", "pydantic-ai")
    thinking = ModelMessagesTypeAdapter.validate_python(back["messages"])[1].parts[0]
    assert isinstance(thinking, ThinkingPart)
    assert (thinking.content, thinking.signature, thinking.provider_name) == ("r", "gAAAA-enc", "openai")


def test_an_anthropic_response_is_a_model_response_pydantic_ai_loads() -> None:
    anthropic = {
        "id": "msg_9",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [
            {"type": "thinking", "thinking": "Check.", "signature": "sig-9"},
            {"type": "tool_use", "id": "toolu_9", "name": "weather", "input": {"city": "Oslo"}},
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 4, "cache_read_input_tokens": 6},
    }
    written = chatcodec.convert_response(anthropic, source="anthropic", target="pydantic-ai", on_loss="ignore")
    response = ModelMessagesTypeAdapter.validate_python([written])[0]
    assert isinstance(response, ModelResponse)
    assert (response.model_name, response.provider_response_id, response.finish_reason) == (
        "claude-sonnet-4-5",
        "msg_9",
        "tool_call",
    )
    assert (response.usage.input_tokens, response.usage.cache_read_tokens) == (16, 6)  # cache reads counted in
    thinking, call = response.parts
    assert isinstance(thinking, ThinkingPart)
    assert (thinking.signature, thinking.provider_name) == ("sig-9", "anthropic")
    assert isinstance(call, ToolCallPart)
    assert call.args == {"city": "Oslo"}


def test_the_analyst_view_reads_pydantic_ai_histories(tmp_path: Path) -> None:
    pq: Any = pytest.importorskip("pyarrow.parquet")  # the arrow extra, as the other Parquet tests take it

    source = tmp_path / "histories.jsonl"
    source.write_text("".join(json.dumps({"messages": _fixture(name)}) + "\n" for name in NAMES))
    out = tmp_path / "analyst"
    command = [sys.executable, "-m", "chatcodec", "convert", str(source), "--from", "pydantic-ai", "--to", "canonical"]
    done = subprocess.run(
        [*command, "--layout", "analyst", "--out", str(out), "--quiet"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    exchanges: list[dict[str, Any]] = pq.read_table(out / "exchanges.parquet").to_pylist()
    assert [row["has_thinking"] for row in exchanges] == [True, True, False]
    assert [row["tools_used"] for row in exchanges][:2] == [["weather"], ["weather"]]
    messages: list[dict[str, Any]] = pq.read_table(out / "messages.parquet").to_pylist()
    assert [row["role"] for row in messages].count("tool") == 4  # three returns in the Claude run, one in the Gemini
