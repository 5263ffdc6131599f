"""A structured tool output (a JSON value, not text) stays structured between the framework
histories: pydantic-ai's ``ToolReturnPart.content``, a ``UIMessage`` tool part's ``output`` and a
``ModelMessage`` result's ``{"type": "json", "value": ...}``; a provider wire gets its JSON text.

The oracles: pydantic-ai-slim 2.68.0's own Vercel AI adapter
(``pydantic_ai.ui.vercel_ai.VercelAIAdapter.dump_messages`` / ``load_messages``), which writes a
return's content as the tool part's ``output`` as it is and reads it back so; and the AI SDK's
``createToolModelOutput`` (``ai`` 6, src/prompt/create-tool-model-output.ts): a non-string output
is ``{"type": "json", "value": output}``.
"""

from __future__ import annotations

from typing import Any

from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.ui.vercel_ai import VercelAIAdapter
from pydantic_ai.ui.vercel_ai.request_types import UIMessage

import chatcodec

VALUES: list[Any] = [{"rows": [1, 2.5, "x"], "ok": True}, [1, 2], 42, None, "plain text"]


def _history() -> list[ModelMessage]:
    calls = [ToolCallPart(f"t{index}", {}, tool_call_id=f"c{index}") for index in range(len(VALUES))]
    returns = [ToolReturnPart(f"t{index}", value, tool_call_id=f"c{index}") for index, value in enumerate(VALUES)]
    return [
        ModelRequest(parts=[UserPromptPart("go")]),
        ModelResponse(parts=list(calls)),
        ModelRequest(parts=list(returns)),
    ]


def _convert(body: Any, source: str, target: str) -> Any:
    return chatcodec.convert_request(body, source=source, target=target, on_loss="ignore", options={"skip_rules": "*"})


def _outputs(ui_messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        part["toolCallId"]: part.get("output")
        for message in ui_messages
        for part in message["parts"]
        if part["type"].startswith("tool-")
    }


def _contents(history: list[ModelMessage]) -> dict[str, Any]:
    return {
        part.tool_call_id: part.content
        for message in history
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    }


def test_pydantic_ai_returns_are_ui_outputs_as_its_own_adapter_writes_them() -> None:
    stored = ModelMessagesTypeAdapter.dump_python(_history(), mode="json")
    written = _convert({"messages": stored}, "pydantic-ai", "ai-sdk-ui")
    theirs = [message.model_dump(mode="json", by_alias=True) for message in VercelAIAdapter.dump_messages(_history())]
    assert _outputs(written["messages"]) == _outputs(theirs) == {f"c{i}": value for i, value in enumerate(VALUES)}


def test_ui_outputs_are_pydantic_ai_returns_as_its_own_adapter_loads_them() -> None:
    ui = [message.model_dump(mode="json", by_alias=True) for message in VercelAIAdapter.dump_messages(_history())]
    written = _convert({"messages": ui}, "ai-sdk-ui", "pydantic-ai")
    mine = _contents(ModelMessagesTypeAdapter.validate_python(written["messages"]))
    theirs = _contents(VercelAIAdapter.load_messages([UIMessage.model_validate(message) for message in ui]))
    assert mine == theirs == {f"c{i}": value for i, value in enumerate(VALUES)}


def test_a_model_message_json_output_is_a_pydantic_ai_value_and_back() -> None:
    history = {
        "messages": [
            {"role": "assistant", "content": [{"type": "tool-call", "toolCallId": "c1", "toolName": "f", "input": {}}]},
            {
                "role": "tool",
                "content": [
                    {
                        "type": "tool-result",
                        "toolCallId": "c1",
                        "toolName": "f",
                        "output": {"type": "json", "value": {"n": [1, 2]}},
                    }
                ],
            },
        ]
    }
    written = _convert(history, "ai-sdk-model", "pydantic-ai")
    assert _contents(ModelMessagesTypeAdapter.validate_python(written["messages"])) == {"c1": {"n": [1, 2]}}
    assert _convert(written, "pydantic-ai", "ai-sdk-model")["messages"][1]["content"][0]["output"] == {
        "type": "json",
        "value": {"n": [1, 2]},
    }
    ui = _convert(written, "pydantic-ai", "ai-sdk-ui")
    assert _outputs(ui["messages"]) == {"c1": {"n": [1, 2]}}
    assert _convert(ui, "ai-sdk-ui", "ai-sdk-model") == _convert(history, "ai-sdk-model", "ai-sdk-model")


def test_a_provider_wire_gets_the_json_text() -> None:
    stored = ModelMessagesTypeAdapter.dump_python(_history(), mode="json")
    sent = _convert({"messages": stored}, "pydantic-ai", "openai-chat")
    tool_messages = [message["content"] for message in sent["messages"] if message["role"] == "tool"]
    assert tool_messages == ['{"rows":[1,2.5,"x"],"ok":true}', "[1,2]", "42", "null", "plain text"]
