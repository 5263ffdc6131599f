"""The request body the OpenAI Agents SDK sends a Responses server, for the tests that take it (issue 92).

``agents.Runner`` runs an agent with instructions and a function tool on the SDK's own
``OpenAIResponsesModel`` (openai-agents 0.24.0), its client a stand-in that records each
``responses.create`` call's arguments and answers with ``openai.types.responses`` objects
(a typed output message, a function call with its ``id`` and ``status``), so the history
the SDK replays is the SDK's: its ``instructions``, its typed ``message`` items and its
calls. :func:`sent_body` returns the last request of a second run on the first run's
``to_input_list()``, as the SDK would send it (the SDK's omitted arguments left out).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, cast


def sent_body(turns: int = 2) -> dict[str, Any]:
    """The body of the last ``responses.create`` call after ``turns`` runs of the weather agent."""
    from agents import Agent, Runner, function_tool, set_tracing_disabled
    from agents.models.openai_responses import OpenAIResponsesModel
    from openai.types.responses import Response, ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    sent: list[dict[str, Any]] = []

    class RecordingResponses:
        """``client.responses``: records each call's arguments, answers a call then a text."""

        def __init__(self) -> None:
            self.turn = 0

        async def create(self, **kwargs: Any) -> Response:
            given = {key: value for key, value in kwargs.items() if _given(key, value)}
            sent.append(json.loads(json.dumps(given)))
            self.turn += 1
            text = ResponseOutputText(
                type="output_text", text="Checking." if self.turn % 2 else "Sunny.", annotations=[]
            )
            output: list[Any] = [
                ResponseOutputMessage(
                    id=f"msg_{self.turn}", type="message", role="assistant", status="completed", content=[text]
                )
            ]
            if self.turn % 2:
                output.append(
                    ResponseFunctionToolCall(
                        type="function_call",
                        id=f"fc_{self.turn}",
                        call_id=f"call_{self.turn}",
                        name="get_weather",
                        arguments='{"city": "Paris"}',
                        status="completed",
                    )
                )
            return Response(
                id=f"resp_{self.turn}",
                created_at=0,
                model="gpt-4o",
                object="response",
                output=output,
                parallel_tool_calls=True,
                tool_choice="auto",
                tools=[],
            )

    class RecordingClient:
        """The ``AsyncOpenAI`` the model is given: its ``responses`` and a base URL."""

        def __init__(self) -> None:
            self.responses = RecordingResponses()
            self.base_url = "https://api.openai.com/v1"

    @function_tool
    def get_weather(city: str) -> str:
        """The weather in a city."""
        return f"Sunny in {city}."

    async def run() -> None:
        model = OpenAIResponsesModel(model="gpt-4o", openai_client=cast("Any", RecordingClient()))
        agent = Agent(name="weather", instructions="You answer weather questions.", tools=[get_weather], model=model)
        history: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
        for _ in range(turns):
            result = await Runner.run(agent, history)
            history = [*result.to_input_list(), {"role": "user", "content": "And tomorrow?"}]

    set_tracing_disabled(True)  # no trace export: nothing leaves the process
    asyncio.run(run())
    return sent[-1]


def _given(key: str, value: object) -> bool:
    """Whether the SDK gave an argument (not ``None``, not the client's ``Omit``/``NotGiven``,
    not a transport setting such as ``extra_headers``)."""
    return value is not None and not key.startswith("extra_") and type(value).__name__ not in ("Omit", "NotGiven")


if __name__ == "__main__":
    print(json.dumps(sent_body(), indent=2))
