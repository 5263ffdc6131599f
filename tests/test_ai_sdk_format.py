"""The ``ai-sdk-model`` and ``ai-sdk-ui`` formats against the Vercel AI SDK itself (the ``ai``
package js/package-lock.json pins is the oracle, run in node by ``js/ai_sdk_check.mjs``).

The fixtures were recorded with the AI SDK driving a mock model through tool loops with
reasoning, an image and a failing tool (tests/fixtures/ai_sdk/README.md). Each reads and
writes back exactly through its own format; converts to each of the seven provider wires and
back with its calls, results, image and (through Anthropic and Gemini) signed thinking intact
and every change reported; and what chatcodec writes passes ``modelMessageSchema`` /
``safeValidateUIMessages`` (then ``convertToModelMessages``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec.codec_kit import as_list
from js_packages import node_with_packages, run_in_js

FIXTURES = Path(__file__).parent / "fixtures" / "ai_sdk"
WIRES = ("openai-chat", "anthropic", "openai-responses", "gemini", "bedrock-converse", "bedrock-nova", "ollama")


def _histories(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (FIXTURES / name).read_text().splitlines() if line]


MODEL = _histories("model_messages.jsonl") + _histories("ui_converted_model_messages.jsonl")
UI = _histories("ui_messages.jsonl")
CASES = [("ai-sdk-model", history) for history in MODEL] + [("ai-sdk-ui", history) for history in UI]
IDS = [f"{fmt}-{index}" for index, (fmt, _) in enumerate(CASES)]


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


def _verdicts(batch: list[tuple[str, Any]], tmp_path: Path) -> list[dict[str, Any]]:
    """The AI SDK's verdict on each history, from one node process."""
    node = node_with_packages()
    batch_file = tmp_path / "batch.json"
    batch_file.write_text(json.dumps([{"kind": kind, "messages": messages} for kind, messages in batch]))
    result = run_in_js([node, "ai_sdk_check.mjs", str(batch_file)])
    assert result.returncode == 0, result.stderr
    verdicts: list[dict[str, Any]] = json.loads(result.stdout)
    assert len(verdicts) == len(batch)
    return verdicts


def _kind(fmt: str) -> str:
    return "model" if fmt == "ai-sdk-model" else "ui"


def _parts(message: chatcodec.AnyMessage) -> list[Any]:
    return [] if isinstance(message.content, str) else list(message.content)


def _calls(canonical: list[chatcodec.AnyMessage]) -> list[tuple[str, str, Any]]:
    return [
        (part.id, part.name, json.loads(part.arguments))
        for message in canonical
        for part in _parts(message)
        if isinstance(part, chatcodec.ToolUsePart)
    ]


def _results(canonical: list[chatcodec.AnyMessage]) -> list[tuple[str, bool]]:
    return [
        (part.tool_use_id, bool(part.is_error))
        for message in canonical
        for part in _parts(message)
        if isinstance(part, chatcodec.ToolResultPart)
    ]


def _thoughts(canonical: list[chatcodec.AnyMessage]) -> list[chatcodec.ThinkingPart]:
    return [part for message in canonical for part in _parts(message) if isinstance(part, chatcodec.ThinkingPart)]


@pytest.mark.parametrize(("fmt", "history"), CASES, ids=IDS)
def test_what_the_ai_sdk_wrote_round_trips_exactly(fmt: str, history: dict[str, Any]) -> None:
    written, losses = _convert(history, fmt, fmt)
    assert written == history
    assert losses == []


@pytest.mark.parametrize(("fmt", "history"), CASES, ids=IDS)
@pytest.mark.parametrize("wire", WIRES)
def test_through_each_wire_and_back_keeps_calls_results_and_the_image(
    fmt: str, history: dict[str, Any], wire: str
) -> None:
    sent, out_losses = _convert(history, fmt, wire)
    assert out_losses, "every wire lacks something these histories hold (ids, cache markers, signatures...)"
    assert all(loss.startswith("$.") for loss in out_losses)  # each said at its path
    back, _ = _convert(sent, wire, fmt)
    codec = chatcodec.get_codec(fmt)
    original, returned = codec.decode_request(history).messages, codec.decode_request(back).messages
    assert _calls(returned) == _calls(original)
    assert [tool_use_id for tool_use_id, _ in _results(returned)] == [
        tool_use_id for tool_use_id, _ in _results(original)
    ]
    if _results(returned) != _results(original):  # a wire with no error flag on a result says so
        assert any("error" in loss and ".content[1]" in loss for loss in out_losses), out_losses
    image = next(part for part in _parts(returned[1]) if isinstance(part, chatcodec.ImagePart))
    assert isinstance(image.source, chatcodec.Base64Source)
    assert image.source.data.startswith("iVBORw0KGgo")


SIGNED = [(fmt, history, "anthropic" if index % 2 == 0 else "gemini") for index, (fmt, history) in enumerate(CASES)]
"""Each file's first history was answered Claude-like, its second Gemini-like (the README)."""


@pytest.mark.parametrize(("fmt", "history", "wire"), SIGNED, ids=IDS)
def test_signed_thinking_survives_its_own_provider(fmt: str, history: dict[str, Any], wire: str) -> None:
    """Claude's signature and redacted data (providerOptions.anthropic) reach Anthropic and come
    back; Gemini's thought signatures (providerOptions.google) reach Gemini, on the thought and
    on the call, and come back."""
    codec = chatcodec.get_codec(fmt)
    thoughts = _thoughts(codec.decode_request(history).messages)
    assert {thought.provider for thought in thoughts} == {wire}
    sent, _ = _convert(history, fmt, wire)
    text = json.dumps(sent)
    for thought in thoughts:
        token = thought.encrypted if thought.redacted else thought.signature
        assert token is not None
        assert token in text
    back, _ = _convert(sent, wire, fmt)
    returned = _thoughts(codec.decode_request(back).messages)
    assert [(t.text, t.signature, t.encrypted) for t in returned] == [
        (t.text, t.signature, t.encrypted) for t in thoughts
    ]
    if wire == "gemini":
        call = next(part for content in sent["contents"] for part in content["parts"] if "functionCall" in part)
        assert call["thoughtSignature"] == "CiUBcsjafQ=="
        assert _signed_part_types(back["messages"], "CiUBcsjafQ==") == [
            "tool-call" if fmt == "ai-sdk-model" else "tool-weather"
        ]


def _signed_part_types(messages: list[dict[str, Any]], signature: str) -> list[str]:
    """The types of the stored parts (a ModelMessage's content, a UIMessage's parts) holding ``signature``."""
    types: list[str] = []
    for message in messages:
        parts = as_list(message.get("parts", message.get("content"))) or []
        types += [str(part["type"]) for part in parts if signature in json.dumps(part)]
    return types


def test_what_chatcodec_writes_passes_the_ai_sdk_schemas(tmp_path: Path) -> None:
    """Every fixture through every wire and back, and an OpenAI Chat history written as each
    form: ``modelMessageSchema`` takes the ModelMessages; ``safeValidateUIMessages`` and
    ``convertToModelMessages`` take the UIMessages."""
    batch: list[tuple[str, Any]] = []
    for fmt, history in CASES:
        for wire in WIRES:
            sent, _ = _convert(history, fmt, wire)
            back, _ = _convert(sent, wire, fmt)
            batch.append((_kind(fmt), back["messages"]))
    for fmt in ("ai-sdk-model", "ai-sdk-ui"):
        written, _ = _convert(_OPENAI, "openai-chat", fmt)
        batch.append((_kind(fmt), written["messages"]))
    verdicts = _verdicts(batch, tmp_path)
    assert [verdict["errors"] for verdict in verdicts if not verdict["valid"]] == []


def test_the_checker_refuses_what_the_ai_sdk_refuses(tmp_path: Path) -> None:
    """The oracle is no rubber stamp: a part of no type and a tool part of no known state fail."""
    bad_model = [{"role": "user", "content": [{"type": "picture"}]}]
    bad_ui = [{"id": "a", "role": "assistant", "parts": [{"type": "tool-x", "toolCallId": "c", "state": "done"}]}]
    assert [verdict["valid"] for verdict in _verdicts([("model", bad_model), ("ui", bad_ui)], tmp_path)] == [
        False,
        False,
    ]


_OPENAI: dict[str, Any] = {
    "model": "gpt-4o",
    "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x.test/b.png"}}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"a":1}'}}],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": '{"ok":true}'},
        {"role": "assistant", "content": "Done."},
    ],
}


def test_an_openai_history_as_ui_messages_is_one_assistant_loop() -> None:
    """Assistant, tool, assistant turns are one assistant UIMessage, as ``useChat`` keeps a
    loop: the call's part holds its output, a step-start before the next step."""
    written, _ = _convert(_OPENAI, "openai-chat", "ai-sdk-ui")
    assistant = written["messages"][2]
    assert [message["role"] for message in written["messages"]] == ["system", "user", "assistant"]
    assert assistant["parts"] == [
        {
            "type": "tool-f",
            "toolCallId": "call_1",
            "state": "output-available",
            "input": {"a": 1},
            "output": '{"ok":true}',
        },
        {"type": "step-start"},
        {"type": "text", "text": "Done."},
    ]
    assert written["messages"][1]["parts"] == [{"type": "file", "mediaType": "image/*", "url": "https://x.test/b.png"}]


def test_ui_messages_read_as_the_ai_sdks_own_conversion_reads_them() -> None:
    """chatcodec's UIMessage -> ModelMessage gives the assistant turns, calls and outputs the
    AI SDK's ``convertToModelMessages`` gave (recorded beside the UI fixture)."""
    for ui, converted in zip(UI, _histories("ui_converted_model_messages.jsonl"), strict=True):
        written, _ = _convert(ui, "ai-sdk-ui", "ai-sdk-model")
        mine = [message for message in written["messages"] if message["role"] in ("assistant", "tool")]
        theirs = [message for message in converted["messages"] if message["role"] in ("assistant", "tool")]
        assert [message["role"] for message in mine] == [message["role"] for message in theirs]
        for message, expected in zip(mine, theirs, strict=True):
            kept = [part for part in message["content"] if part.get("type") != "data-weather"]
            assert _without_result_options({**message, "content": kept}) == _without_result_options(expected)


def _without_result_options(message: dict[str, Any]) -> dict[str, Any]:
    """A tool message without its results' providerOptions: the AI SDK copies the call's
    Gemini signature onto the result (``resultProviderMetadata``), which chatcodec reports
    as a UI part's field rather than sending it twice."""
    if message["role"] != "tool":
        return message
    content = [{key: value for key, value in part.items() if key != "providerOptions"} for part in message["content"]]
    return {**message, "content": content}


def test_a_bare_message_list_reads() -> None:
    """A bare ``ModelMessage[]`` / ``UIMessage[]`` (what an app stores) joins a conversation."""
    conversation = chatcodec.Conversation()
    model = conversation.append_provider_messages("ai-sdk-model", MODEL[0]["messages"])
    assert [message.role for message in model] == ["system", "user", "assistant", "tool", "assistant"]
    ui = conversation.append_provider_messages("ai-sdk-ui", UI[0]["messages"])
    assert [message.role for message in ui] == ["system", "user", "assistant", "tool", "assistant"]
    assert _calls(ui) == _calls(model)


@pytest.mark.parametrize(
    ("fmt", "message"),
    [
        ("ai-sdk-model", {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c", "toolName": "f"}]}),
        ("ai-sdk-ui", {"id": "m", "role": "assistant", "parts": [{"type": "tool-f", "toolCallId": "c", "state": "?"}]}),
    ],
)
def test_a_message_the_ai_sdk_would_refuse_is_refused_at_its_path(fmt: str, message: dict[str, Any]) -> None:
    first = MODEL[0]["messages"][0] if fmt == "ai-sdk-model" else UI[0]["messages"][0]
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.convert_request({"messages": [first, message]}, source=fmt, target="openai-chat")
    assert "$.messages[1]" in str(raised.value)


def test_a_model_response_round_trips() -> None:
    """A response is the answer as ``response.messages`` holds it, with its finish reason and usage."""
    body = {
        "messages": [MODEL[0]["messages"][2]],
        "finishReason": "tool-calls",
        "usage": {
            "inputTokens": 40,
            "outputTokens": 20,
            "totalTokens": 60,
            "inputTokenDetails": {"cacheReadTokens": 16},
        },
    }
    codec = chatcodec.get_codec("ai-sdk-model")
    response = codec.decode_response(body)
    assert response.choices[0].finish_reason is not None
    assert response.choices[0].finish_reason.unified == "tool_calls"
    assert response.usage is not None
    assert response.usage.cache_read_tokens == 16
    written = chatcodec.convert_response(body, source="ai-sdk-model", target="ai-sdk-model")
    assert written == body


@pytest.mark.parametrize(
    ("fmt", "name"), [("ai-sdk-ui", "ui_messages.jsonl"), ("ai-sdk-model", "model_messages.jsonl")]
)
def test_the_command_line_turns_stored_histories_into_a_fine_tuning_file(fmt: str, name: str, tmp_path: Path) -> None:
    """``chatcodec convert --from ai-sdk-ui --to openai-chat --storage`` on a file of histories,
    one per line and as one JSON array, and the OpenAI file back to the AI SDK form."""
    command = [sys.executable, "-m", "chatcodec", "convert"]
    array = tmp_path / "histories.json"
    array.write_text(json.dumps(_histories(name)))
    for source in (FIXTURES / name, array):
        out = tmp_path / "openai.jsonl"
        first = subprocess.run(
            [*command, str(source), "--from", fmt, "--to", "openai-chat", "--storage", "--out", str(out)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert first.returncode == 0, first.stderr
        rows = [json.loads(line) for line in out.read_text().splitlines() if line]
        assert len(rows) == 2
        assert [message["role"] for message in rows[0]["messages"]][:3] == ["system", "user", "assistant"]
        assert rows[0]["messages"][2]["tool_calls"][0]["function"]["name"] == "weather"
    back = subprocess.run(
        [*command, str(tmp_path / "openai.jsonl"), "--from", "openai-chat", "--to", fmt, "--storage"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert back.returncode == 0, back.stderr
    histories = [json.loads(line) for line in back.stdout.splitlines() if line]
    assert len(histories) == 2
    codec = chatcodec.get_codec(fmt)
    assert _calls(codec.decode_request(histories[0]).messages) == _calls(
        codec.decode_request(_histories(name)[0]).messages
    )


EDGE: dict[str, Any] = json.loads((FIXTURES / "edge_cases.json").read_text())
EDGE_CASES = [(fmt, history) for fmt in ("ai-sdk-model", "ai-sdk-ui") for history in EDGE[fmt]]


def test_the_hand_written_shapes_are_the_ai_sdks_and_round_trip_exactly(tmp_path: Path) -> None:
    """Each less common shape (every tool output type, approvals, provider-executed calls,
    dynamic tools, streaming and approval states, repeated and trailing step-starts, sources)
    passes the AI SDK's own schemas, reads and writes back exactly, and what each wire gives
    back is still the AI SDK's."""
    batch: list[tuple[str, Any]] = []
    for fmt, history in EDGE_CASES:
        batch.append((_kind(fmt), history["messages"]))
        written, losses = _convert(history, fmt, fmt)
        assert written == history
        assert losses == []
        for wire in ("openai-chat", "anthropic", "gemini"):
            sent, out_losses = _convert(history, fmt, wire)
            assert out_losses
            back, _ = _convert(sent, wire, fmt)
            batch.append((_kind(fmt), back["messages"]))
    verdicts = _verdicts(batch, tmp_path)
    assert [(index, verdict["errors"]) for index, verdict in enumerate(verdicts) if not verdict["valid"]] == []


def test_the_analyst_view_reads_stored_ui_chats(tmp_path: Path) -> None:
    """``chatcodec convert --from ai-sdk-ui --to canonical --layout analyst``: the chats'
    turns, calls and results as Parquet tables (each assistant loop as its turns)."""
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "analyst"
    command = [sys.executable, "-m", "chatcodec", "convert", str(FIXTURES / "ui_messages.jsonl")]
    command += ["--from", "ai-sdk-ui", "--to", "canonical", "--layout", "analyst", "--out", str(out)]
    ran = subprocess.run(command, capture_output=True, text=True, check=False)
    assert ran.returncode == 0, ran.stderr
    roles = pq.read_table(out / "messages.parquet").column("role").to_pylist()
    assert roles == ["system", "user", "assistant", "tool", "assistant"] * 2
    kinds = pq.read_table(out / "parts.parquet").column("type").to_pylist()
    assert kinds.count("tool_use") == kinds.count("tool_result") == 3


def test_a_ui_answer_keeps_its_usage_and_finish_in_metadata() -> None:
    """A UIMessage has no usage of its own: an answer's usage, finish reason and model go in
    its ``metadata`` (where ``messageMetadata`` puts them), and read back from there."""
    openai = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7},
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_response(openai, source="openai-chat", target="ai-sdk-ui", losses=losses, on_loss="ignore")
    message = body["messages"][0]
    assert message["id"] == "chatcmpl-1"
    assert message["metadata"] == {
        "finishReason": "stop",
        "usage": {"inputTokens": 5, "outputTokens": 2, "totalTokens": 7},
        "model": "gpt-4o",
    }
    assert not [loss for loss in losses if loss.path.startswith("$.usage")]
    assert chatcodec.convert_response(body, source="ai-sdk-ui", target="ai-sdk-ui") == body
    back = chatcodec.decode_response("ai-sdk-ui", body)
    assert back.usage is not None
    assert (back.usage.input_tokens, back.usage.output_tokens) == (5, 2)


@pytest.mark.parametrize(("fmt", "unplaced"), [("ai-sdk-model", ["$.id", "$.model"]), ("ai-sdk-ui", [])])
def test_an_answers_id_and_model_with_no_place_are_reported(fmt: str, unplaced: list[str]) -> None:
    """A stored ``ModelMessage`` answer is the messages ``generateText`` adds (``response.messages``):
    no id or model; a UIMessage keeps both (in ``metadata``). What has no place is reported, not
    dropped in silence (found by the law facts of issue 78: the single-hop law sets such fields
    aside whether reported or not); the creation time is the server's clock, nothing a user
    sent, and no loss (``law_server_facts``)."""
    openai = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": "stop"}],
    }
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_response(openai, source="openai-chat", target=fmt, losses=losses, on_loss="ignore")
    assert sorted(loss.path for loss in losses if loss.kind == "metadata") == unplaced


def test_validate_messages_reads_stored_ui_messages() -> None:
    """``validate_messages`` takes a stored ``UIMessage[]`` (what ``useChat`` persists) as it
    takes any accepted shape: the tool loop as its turns; one the AI SDK would refuse is
    refused at its place."""
    messages: list[chatcodec.AnyMessage] = chatcodec.validate_messages(UI[1]["messages"])
    assert [message.role for message in messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert _calls(messages) == [("call_g1", "weather", {"city": "Rome"})]
    robot: dict[str, Any] = {"id": "x", "role": "robot", "parts": []}
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.validate_messages([UI[1]["messages"][0], robot])
    assert "[1]" in str(raised.value)


@pytest.mark.parametrize(
    ("fmt", "history"),
    [
        (
            "ai-sdk-model",
            {"messages": [{"role": "user", "content": [{"type": "text", "text": "a", "providerOptions": "odd"}]}]},
        ),
        ("ai-sdk-model", {"messages": [{"role": "user", "content": "a", "providerOptions": None}]}),
        (
            "ai-sdk-ui",
            {
                "messages": [
                    {
                        "id": "a",
                        "role": "assistant",
                        "parts": [{"type": "tool-f", "toolCallId": "c", "state": "output-available"}],
                    }
                ]
            },
        ),
        (
            "ai-sdk-ui",
            {
                "messages": [
                    {"id": "a", "role": "user", "parts": [{"type": "text", "text": "x", "providerMetadata": [1]}]}
                ]
            },
        ),
    ],
)
def test_odd_spellings_come_back_as_they_came(fmt: str, history: dict[str, Any]) -> None:
    """Options that are no object, a null, an answered tool part without its output: kept,
    not normalised away (found reading the code: each was dropped before)."""
    written, losses = _convert(history, fmt, fmt)
    assert written == history
    assert losses == []
