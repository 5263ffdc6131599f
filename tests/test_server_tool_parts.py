"""A provider-executed (server) tool stays in the assistant's turn between the framework
histories, as the frameworks keep it, and reaches a provider wire as a reported loss, never as
a client call and a tool message.

The oracles: the AI SDK's ``convertToModelMessages`` (``ai`` 6, the version js/package-lock.json
pins, run by js/ai_sdk_check.mjs), which turns a ``providerExecuted`` UI tool part into a
``tool-call`` (``providerExecuted: true``) and a ``tool-result`` inside the assistant
``ModelMessage``; and pydantic-ai-slim 2.68.0's Vercel AI adapter
(``pydantic_ai.ui.vercel_ai.VercelAIAdapter``), which dumps ``NativeToolCallPart`` /
``NativeToolReturnPart`` (``builtin-tool-call`` / ``builtin-tool-return``) as one
``providerExecuted`` tool part and loads it back as the two.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    NativeToolCallPart,
    NativeToolReturnPart,
    TextPart,
    UserPromptPart,
)
from pydantic_ai.ui.vercel_ai import VercelAIAdapter
from pydantic_ai.ui.vercel_ai.request_types import UIMessage

import chatcodec
from js_packages import node_with_packages, run_in_js

UI: dict[str, Any] = {
    "messages": [
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "News on X?"}]},
        {
            "id": "a1",
            "role": "assistant",
            "parts": [
                {"type": "step-start"},
                {
                    "type": "tool-web_search",
                    "toolCallId": "ws_1",
                    "state": "output-available",
                    "input": {"query": "X"},
                    "output": [{"url": "https://x.test", "title": "X"}],
                    "providerExecuted": True,
                    "callProviderMetadata": {"openai": {"itemId": "ws_1"}},
                },
                {"type": "text", "text": "X shipped."},
                {
                    "type": "dynamic-tool",
                    "toolName": "code_execution",
                    "toolCallId": "ce_1",
                    "state": "output-error",
                    "input": {"code": "1/0"},
                    "errorText": "ZeroDivisionError",
                    "providerExecuted": True,
                    "title": "Run code",
                },
                {
                    "type": "tool-web_fetch",
                    "toolCallId": "wf_1",
                    "state": "input-available",
                    "input": {"url": "https://x.test"},
                    "providerExecuted": True,
                },
            ],
        },
    ]
}


def _convert(body: Any, source: str, target: str) -> tuple[Any, list[str]]:
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(
        body, source=source, target=target, on_loss="ignore", losses=losses, options={"skip_rules": "*"}
    )
    return written, [str(loss) for loss in losses]


def _converted_by_the_ai_sdk(messages: list[dict[str, Any]], tmp_path: Path) -> list[dict[str, Any]]:
    batch = tmp_path / "batch.json"
    batch.write_text(json.dumps([{"kind": "ui", "messages": messages}]))
    result = run_in_js([node_with_packages(), "ai_sdk_check.mjs", str(batch)])
    assert result.returncode == 0, result.stderr
    (verdict,) = json.loads(result.stdout)
    assert verdict["valid"], verdict["errors"]
    converted: list[dict[str, Any]] = verdict["converted"]
    return converted


def test_a_ui_server_tool_reads_as_the_ai_sdks_own_conversion_and_back(tmp_path: Path) -> None:
    """Written as ``ModelMessage``s, the assistant turn is what ``convertToModelMessages`` gives
    (the calls and results in the assistant message, no tool message); the UI history comes
    back exactly, and through the ``ModelMessage`` form with what that form lacks reported."""
    written, losses = _convert(UI, "ai-sdk-ui", "ai-sdk-model")
    theirs = _converted_by_the_ai_sdk(UI["messages"], tmp_path)
    assert [message["role"] for message in written["messages"]] == ["user", "assistant"]
    assert written["messages"][1] == theirs[1]
    assert _convert(UI, "ai-sdk-ui", "ai-sdk-ui") == (UI, [])
    assert [loss for loss in losses if "content[3]" in loss] == [
        "$.messages[1].content[3]: ai-sdk-ui data ['title'] (ai-sdk-model has no field for it)"
    ]
    back, _ = _convert(written, "ai-sdk-model", "ai-sdk-ui")
    parts = UI["messages"][1]["parts"]
    code = {key: value for key, value in parts[3].items() if key not in ("type", "toolName", "title")}
    assert back["messages"][1]["parts"] == [parts[1], parts[2], {"type": "tool-code_execution", **code}, parts[4]]


def test_a_model_message_server_tool_round_trips_through_the_ui_form() -> None:
    model, _ = _convert(UI, "ai-sdk-ui", "ai-sdk-model")
    ui, losses = _convert(model, "ai-sdk-model", "ai-sdk-ui")
    assert losses == []
    assert _convert(ui, "ai-sdk-ui", "ai-sdk-model") == (model, [])


@pytest.mark.parametrize("wire", ["openai-chat", "anthropic", "openai-responses", "gemini", "bedrock-converse"])
def test_a_provider_wire_gets_no_client_call_and_reports_each_part(wire: str) -> None:
    for source, body in (("ai-sdk-ui", UI), ("ai-sdk-model", _convert(UI, "ai-sdk-ui", "ai-sdk-model")[0])):
        sent, losses = _convert(body, source, wire)
        text = json.dumps(sent)
        assert "ws_1" not in text
        assert "ce_1" not in text
        assert '"tool"' not in text  # no tool message (OpenAI's role, Anthropic's tool_result user turn)
        assert "X shipped." in text
        for index in (0, 1, 3, 4, 5):
            assert any(loss.startswith(f"$.messages[1].content[{index}]:") for loss in losses), (source, index, losses)


def _pydantic_ai() -> list[ModelMessage]:
    return [
        ModelRequest(parts=[UserPromptPart("News on X?")]),
        ModelResponse(
            parts=[
                NativeToolCallPart("web_search", {"query": "X"}, tool_call_id="ws_1", provider_name="openai"),
                NativeToolReturnPart(
                    "web_search", [{"url": "https://x.test"}], tool_call_id="ws_1", provider_name="openai"
                ),
                TextPart("X shipped."),
                NativeToolCallPart("code_execution", '{"code": "1/0"}', tool_call_id="ce_1", provider_name="anthropic"),
                NativeToolReturnPart(
                    "code_execution",
                    "ZeroDivisionError",
                    tool_call_id="ce_1",
                    provider_name="anthropic",
                    outcome="failed",
                ),
            ],
            model_name="gpt-5",
        ),
    ]


def _tool_parts(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The UI tool parts without ``callProviderMetadata`` (where pydantic-ai's adapter keeps its
    own ``provider_name``; chatcodec reports that field instead)."""
    return [
        {key: value for key, value in part.items() if key != "callProviderMetadata"}
        for message in messages
        for part in message["parts"]
        if part["type"].startswith("tool-")
    ]


def _built_ins(history: list[ModelMessage]) -> list[tuple[str, str, Any, str | None]]:
    return [
        (type(part).__name__, part.tool_call_id, part.args_as_dict(), None)
        if isinstance(part, NativeToolCallPart)
        else (type(part).__name__, part.tool_call_id, part.content, part.outcome)
        for message in history
        if isinstance(message, ModelResponse)
        for part in message.parts
        if isinstance(part, NativeToolCallPart | NativeToolReturnPart)
    ]


def test_pydantic_ai_built_in_tools_are_the_ui_parts_its_own_adapter_writes() -> None:
    stored = ModelMessagesTypeAdapter.dump_python(_pydantic_ai(), mode="json")
    written, losses = _convert({"messages": stored}, "pydantic-ai", "ai-sdk-ui")
    theirs = [
        message.model_dump(mode="json", by_alias=True) for message in VercelAIAdapter.dump_messages(_pydantic_ai())
    ]
    assert _tool_parts(written["messages"]) == _tool_parts(theirs)
    assert any(loss.startswith("$.messages[1].content[0]:") and "provider_name" in loss for loss in losses)


def test_ui_server_tools_are_the_built_in_parts_pydantic_ais_adapter_loads() -> None:
    written, _ = _convert(UI, "ai-sdk-ui", "pydantic-ai")
    mine = ModelMessagesTypeAdapter.validate_python(written["messages"])
    theirs = VercelAIAdapter.load_messages([UIMessage.model_validate(message) for message in UI["messages"]])
    assert _built_ins(mine) == _built_ins(theirs)
    assert [kind for kind, *_ in _built_ins(mine)] == ["NativeToolCallPart", "NativeToolReturnPart"] * 2 + [
        "NativeToolCallPart"
    ]


@pytest.mark.parametrize("through", ["ai-sdk-ui", "ai-sdk-model"])
def test_pydantic_ai_built_in_tools_come_back_through_the_ai_sdk_forms(through: str) -> None:
    stored = ModelMessagesTypeAdapter.dump_python(_pydantic_ai(), mode="json")
    assert _convert({"messages": stored}, "pydantic-ai", "pydantic-ai") == ({"messages": stored}, [])
    sent, _ = _convert({"messages": stored}, "pydantic-ai", through)
    back, _ = _convert(sent, through, "pydantic-ai")
    assert _built_ins(ModelMessagesTypeAdapter.validate_python(back["messages"])) == _built_ins(_pydantic_ai())
