"""A pydantic-ai agent's AG-UI run, recorded: what ``AGUIAdapter.run_stream`` sends a UI for a
run whose model thinks, says a sentence and calls a frontend tool, and for the run after the
tool's result (pydantic-ai-slim 2.68.0, ag-ui-protocol 1.0.0; a ``FunctionModel``, no network).

``python tests/ag_ui_run.py`` writes ``tests/fixtures/ag_ui/stream/pydantic_ai_run_{1,2}.sse``, as
an AG-UI endpoint sends them (``ag_ui.encoder.EventEncoder``: SSE, a ``data:`` line an event);
``tests/test_ag_ui_stream.py`` runs it live too.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

STREAMS = Path(__file__).parent / "fixtures" / "ag_ui" / "stream"


def run_events() -> list[list[dict[str, Any]]]:
    """The events of two runs: the question, then the question with the call's result."""
    from ag_ui.core import AssistantMessage, FunctionCall, RunAgentInput, Tool, ToolCall, ToolMessage, UserMessage
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage
    from pydantic_ai.models.function import AgentInfo, DeltaThinkingPart, DeltaToolCall, FunctionModel
    from pydantic_ai.ui.ag_ui import AGUIAdapter

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        del info
        if len(messages) == 1:
            yield {0: DeltaThinkingPart(content="The user wants the weather.")}
            yield "Let me check."
            yield {1: DeltaToolCall(name="get_weather", json_args='{"city": ')}
            yield {1: DeltaToolCall(json_args='"Paris"}')}
        else:
            yield "Sunny, "
            yield "22°C."

    agent = Agent(FunctionModel(stream_function=stream))
    tool = Tool(name="get_weather", description="The weather in a city", parameters={"type": "object"})
    asked = UserMessage(id="u1", content="Weather in Paris?")
    call = ToolCall(id="call_1", function=FunctionCall(name="get_weather", arguments='{"city": "Paris"}'))
    inputs = [
        RunAgentInput(
            thread_id="t1", run_id="r1", messages=[asked], tools=[tool], context=[], state=None, forwarded_props=None
        ),
        RunAgentInput(
            thread_id="t1",
            run_id="r2",
            messages=[
                asked,
                AssistantMessage(id="a1", content="Let me check.", tool_calls=[call]),
                ToolMessage(id="t1", content="sunny, 22", tool_call_id="call_1"),
            ],
            tools=[tool],
            context=[],
            state=None,
            forwarded_props=None,
        ),
    ]

    async def collect(run_input: Any) -> list[dict[str, Any]]:
        adapter = AGUIAdapter(agent=agent, run_input=run_input)
        return [event.model_dump(by_alias=True, mode="json", exclude_none=True) async for event in adapter.run_stream()]

    return [asyncio.run(collect(run_input)) for run_input in inputs]


def as_sse(events: list[dict[str, Any]]) -> str:
    """The events as an AG-UI endpoint frames them (``EventEncoder``: ``data: {json}``, a blank line)."""
    return "".join(f"data: {json.dumps(event, ensure_ascii=False, separators=(',', ':'))}\n\n" for event in events)


if __name__ == "__main__":
    STREAMS.mkdir(exist_ok=True)
    for number, events in enumerate(run_events(), 1):
        (STREAMS / f"pydantic_ai_run_{number}.sse").write_text(as_sse(events), encoding="utf-8")
