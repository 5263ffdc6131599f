"""pydantic-ai: its Anthropic model's message mapping, fed from OpenAI Chat messages.

pydantic-ai has no public "OpenAI Chat dicts -> ModelMessage" reader, so the realistic
path is two steps: build ``ModelRequest`` / ``ModelResponse`` objects from the OpenAI
messages (the adapter below, written as plainly as its documented constructors allow),
then let ``AnthropicModel`` map them the way it does before every API call. Two rows:

* *map*: ``AnthropicModel._map_message`` plus ``_prepare_tools_and_tool_choice`` on
  ModelMessages built beforehand (pydantic-ai's own converter, alone);
* *build + request*: the adapter plus ``AnthropicModel._prepare_messages_create``, which
  runs the mapping, tools, cache points, betas and ``max_tokens`` (the whole request
  preparation short of the HTTP call).

Both are ``async``; each call runs on one event loop kept for the whole bench
(``run_until_complete`` adds some tens of microseconds).
"""

from __future__ import annotations

import asyncio
from typing import Any

from bench.equivalence import anthropic_view
from bench.timing import Contender

FOOTNOTES = [
    "pydantic-ai: its Anthropic model sends a `ThinkingPart` it did not sign as a *user* turn "
    "(`<assistant_thinking>...`); chatcodec, the floor and the other anchors drop unsigned reasoning, so the "
    "adapter leaves `reasoning_content` out of the ModelMessages and the comparison is on everything else. "
    "Data-URL images become `BinaryContent.from_data_uri` (decoded bytes, re-encoded by the mapping), https "
    "ones `ImageUrl`. The view takes `temperature` from the settings given, which pydantic-ai passes on "
    "verbatim outside the prepared request.",
]

_LOOP: asyncio.AbstractEventLoop | None = None


def _loop() -> asyncio.AbstractEventLoop:
    global _LOOP  # noqa: PLW0603  (one loop for the whole run: creating one per call would be timed too)
    if _LOOP is None:
        _LOOP = asyncio.new_event_loop()
    return _LOOP


class _Adapter:
    """OpenAI Chat messages -> pydantic-ai ModelMessages (no reasoning: see the footnote)."""

    def __init__(self) -> None:
        from pydantic_ai import messages

        self.parts = messages
        self.tool_names: dict[str, str] = {}

    def user_part(self, content: str | list[dict[str, Any]]) -> Any:
        parts = self.parts
        if isinstance(content, str):
            return parts.UserPromptPart(content=content)
        items: list[Any] = []
        for part in content:
            if part["type"] == "text":
                items.append(part["text"])
                continue
            url = part["image_url"]["url"]
            items.append(parts.BinaryContent.from_data_uri(url) if url.startswith("data:") else parts.ImageUrl(url=url))
        return parts.UserPromptPart(content=items)

    def response(self, message: dict[str, Any]) -> Any:
        parts = self.parts
        built: list[Any] = []
        if message.get("content"):
            built.append(parts.TextPart(content=message["content"]))
        for call in message.get("tool_calls") or ():
            function = call["function"]
            self.tool_names[call["id"]] = function["name"]
            built.append(
                parts.ToolCallPart(tool_name=function["name"], args=function["arguments"], tool_call_id=call["id"])
            )
        return parts.ModelResponse(parts=built)

    def build(self, openai_messages: list[dict[str, Any]]) -> list[Any]:
        parts = self.parts
        history: list[Any] = []
        pending: list[Any] = []
        for message in openai_messages:
            role = message["role"]
            if role == "system":
                pending.append(parts.SystemPromptPart(content=message["content"]))
            elif role == "user":
                pending.append(self.user_part(message["content"]))
            elif role == "tool":
                call_id = message["tool_call_id"]
                pending.append(
                    parts.ToolReturnPart(
                        tool_name=self.tool_names[call_id], content=message["content"], tool_call_id=call_id
                    )
                )
            else:
                if pending:
                    history.append(parts.ModelRequest(parts=pending))
                    pending = []
                history.append(self.response(message))
        if pending:
            history.append(parts.ModelRequest(parts=pending))
        return history


def openai_to_anthropic(payload: dict[str, Any]) -> list[Contender]:
    from pydantic_ai.models import ModelRequestParameters
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.providers.anthropic import AnthropicProvider
    from pydantic_ai.tools import ToolDefinition

    model = AnthropicModel(payload["model"], provider=AnthropicProvider(api_key="bench-no-network"))
    settings: Any = {"max_tokens": payload["max_completion_tokens"], "temperature": payload["temperature"]}
    loop = _loop()

    def parameters() -> Any:
        tools = [tool["function"] for tool in payload["tools"]]
        definitions = [
            ToolDefinition(
                name=tool["name"], description=tool["description"], parameters_json_schema=tool["parameters"]
            )
            for tool in tools
        ]
        return ModelRequestParameters(function_tools=definitions)

    prebuilt = _Adapter().build(payload["messages"])
    prebuilt_parameters = parameters()

    def map_only() -> object:
        system, turns = loop.run_until_complete(model._map_message(prebuilt, prebuilt_parameters, settings))
        tools, choice = model._prepare_tools_and_tool_choice(settings, prebuilt_parameters)
        return {"system": system, "messages": turns, "tools": tools, "tool_choice": choice}

    def build_and_prepare() -> object:
        history = _Adapter().build(payload["messages"])
        prepared = loop.run_until_complete(model._prepare_messages_create(history, settings, parameters()))
        return {
            "model": model.model_name,
            "max_tokens": prepared.max_tokens,
            "temperature": settings["temperature"],
            "system": prepared.system_prompt,
            "messages": prepared.anthropic_messages,
            "tools": prepared.tools,
            "tool_choice": prepared.tool_choice,
        }

    return [
        Contender(
            "pydantic-ai map (ModelMessages prebuilt)",
            map_only,
            lambda result: anthropic_view(result, "messages"),
            "`_map_message` + `_prepare_tools_and_tool_choice`",
            scope="messages",
        ),
        Contender(
            "pydantic-ai build + request prep",
            build_and_prepare,
            anthropic_view,
            "OpenAI dicts -> ModelMessages (bench adapter) + `_prepare_messages_create`",
        ),
    ]
