"""A real OpenAI Agents SDK run, for the tests that read what it stores (issue 80).

``agents.Runner`` runs an agent with a function tool on :class:`ScriptedChatModel`, an
implementation of the SDK's own ``Model`` interface (``agents.models.interface``, as the SDK's
tests' ``FakeModel`` implements it) that answers as the SDK's Chat Completions model does: it
reads each scripted Chat Completions message with ``Converter.message_to_output_items``
(``agents/models/chatcmpl_converter.py``, openai-agents 0.24.0), which gives a ``reasoning``
item for a message's ``reasoning_content``, ``__fake_id__`` on every item and the SDK's
``provider_data``. :func:`stored_items` returns what ``RunResult.to_input_list()`` and a
``SQLiteSession``'s ``get_items()`` hold after the run. Run this module to print them (the
recording in ``tests/fixtures/agents_sdk/`` was made so).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

SCRIPT: tuple[dict[str, Any], ...] = (
    {
        "role": "assistant",
        "content": "Checking.",
        "reasoning_content": "The user wants the weather.",  # LiteLLM's and DeepSeek's reasoning field
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
        ],
    },
    {"role": "assistant", "content": "Sunny in Paris."},
)
"""The Chat Completions messages the model answers with, one per model call."""


def stored_items() -> tuple[list[Any], list[Any]]:
    """``(to_input_list(), session.get_items())`` after one run of the weather agent."""
    from agents import Agent, RunConfig, Runner, SQLiteSession, function_tool
    from agents.items import ModelResponse
    from agents.models.chatcmpl_converter import Converter
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.chat import ChatCompletionMessage

    class ScriptedChatModel(Model):
        """The SDK's ``Model``, answering each call with the next scripted message."""

        def __init__(self) -> None:
            self.turn = 0

        async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
            del args, kwargs
            message = ChatCompletionMessage.model_validate(SCRIPT[self.turn])
            self.turn += 1
            items = Converter.message_to_output_items(message, provider_data={"model": "scripted-chat"})
            return ModelResponse(output=items, usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    @function_tool
    def get_weather(city: str) -> str:
        """The weather in a city."""
        return "sunny" if city else "unknown"

    async def run() -> tuple[list[Any], list[Any]]:
        agent = Agent(name="weather", instructions="Be brief.", model=ScriptedChatModel(), tools=[get_weather])
        session = SQLiteSession("weather-session")  # in memory
        config = RunConfig(tracing_disabled=True)  # no trace export is tried
        result = await Runner.run(agent, "Weather in Paris?", session=session, run_config=config)
        stored = await session.get_items()
        session.close()
        return [dict(item) for item in result.to_input_list()], [dict(item) for item in stored]

    return asyncio.run(run())


if __name__ == "__main__":
    print(json.dumps(stored_items()[1], indent=2))
