"""A real Google ADK run, for the tests that read the events its session stores (issue 80).

``google.adk.runners.InMemoryRunner`` runs an ``LlmAgent`` with a function tool that writes the
session's state, on :class:`ScriptedGemini`, an implementation of ADK's own model interface
(``google.adk.models.base_llm.BaseLlm``, as ADK's tests' ``MockModel`` implements it) answering
with scripted Gemini turns: a thought and a call carrying a thought signature, then a signed
answer. The user's message holds text and an image. :func:`session_events` returns the
session's events as ADK dumps them (``by_alias=True``, camelCase, what its web server sends, or
snake_case, what its database session service stores). Run this module to print both (the
recordings in ``tests/fixtures/google_adk/`` were made so).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000")
"""The opening of a PNG: an image's bytes in the user's message."""


def session_events(*, by_alias: bool) -> list[dict[str, Any]]:
    """The events of one run's session, dumped as ADK dumps them (``exclude_none``)."""
    return [event.model_dump(mode="json", by_alias=by_alias, exclude_none=True) for event in run_events()]


def run_events() -> list[Any]:
    """The ``Event`` objects one run's session holds."""
    return list(run_session().events)


def run_session() -> Any:
    """The ``Session`` one run leaves (``google.adk.sessions.Session``: its ids, state, events)."""
    from collections.abc import AsyncGenerator

    from google.adk.agents import LlmAgent
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_request import LlmRequest
    from google.adk.models.llm_response import LlmResponse
    from google.adk.runners import InMemoryRunner
    from google.adk.tools.tool_context import ToolContext
    from google.genai import types

    class ScriptedGemini(BaseLlm):
        """ADK's model interface, answering each call with the next scripted turn."""

        model: str = "scripted-gemini"
        turn: int = 0

        async def generate_content_async(
            self, llm_request: LlmRequest, stream: bool = False
        ) -> AsyncGenerator[LlmResponse, None]:
            del llm_request, stream
            self.turn += 1
            if self.turn == 1:
                call = types.FunctionCall(name="get_weather", args={"city": "Paris"})
                parts = [
                    types.Part(text="The user wants the weather.", thought=True),
                    types.Part(function_call=call, thought_signature=b"signature-1"),
                ]
            else:
                parts = [types.Part(text="Sunny in Paris.", thought_signature=b"signature-2")]
            usage = types.GenerateContentResponseUsageMetadata(
                prompt_token_count=12, candidates_token_count=7, total_token_count=19
            )
            content = types.Content(role="model", parts=parts)
            yield LlmResponse(content=content, finish_reason=types.FinishReason.STOP, usage_metadata=usage)

    def get_weather(city: str, tool_context: ToolContext) -> dict[str, str]:
        """The weather in a city (remembered in the session's state)."""
        tool_context.state["last_city"] = city
        return {"forecast": "sunny", "city": city}

    async def run() -> Any:
        agent = LlmAgent(name="weather_agent", model=ScriptedGemini(), instruction="Be brief.", tools=[get_weather])
        runner = InMemoryRunner(agent=agent, app_name="weather")
        session = await runner.session_service.create_session(app_name="weather", user_id="u1")
        image = types.Part(inline_data=types.Blob(mime_type="image/png", data=PNG))
        message = types.Content(role="user", parts=[types.Part(text="Weather in Paris?"), image])
        async for _ in runner.run_async(user_id="u1", session_id=session.id, new_message=message):
            pass
        stored = await runner.session_service.get_session(app_name="weather", user_id="u1", session_id=session.id)
        assert stored is not None
        return stored

    return asyncio.run(run())


if __name__ == "__main__":
    import sys

    print(json.dumps(session_events(by_alias=sys.argv[1:] != ["snake"]), indent=1))
