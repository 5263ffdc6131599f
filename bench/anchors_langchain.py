"""LangChain: OpenAI dicts -> LangChain messages -> Anthropic messages.

Two rows: the converter (``langchain_core.messages.convert_to_messages`` then
``langchain_anthropic.chat_models._format_messages``) and the request
(``ChatAnthropic._get_request_payload``, which does the same conversion plus tools,
``tool_choice`` and settings; the tools go through ``convert_to_anthropic_tool`` inside
the timed call, as ``bind_tools`` would).
"""

from __future__ import annotations

from typing import Any

from bench.equivalence import anthropic_view
from bench.timing import Contender

FOOTNOTES = [
    "LangChain keeps `reasoning_content` in `additional_kwargs` and does not send it to Anthropic. "
    "`ChatAnthropic` puts `temperature` in `extra_body`, which the Anthropic SDK merges into the request body, "
    "so the view merges it too.",
]


def openai_to_anthropic(payload: dict[str, Any]) -> list[Contender]:
    from langchain_anthropic import ChatAnthropic
    from langchain_anthropic.chat_models import _format_messages, convert_to_anthropic_tool
    from langchain_core.messages import convert_to_messages

    model = payload["model"]
    chat = ChatAnthropic(
        model=model,
        api_key="bench-no-network",
        max_tokens=payload["max_completion_tokens"],
        temperature=payload["temperature"],
    )

    def converter() -> object:
        system, turns = _format_messages(convert_to_messages(payload["messages"]), model=model)
        return {"system": system, "messages": turns}

    def request() -> object:
        tools = [convert_to_anthropic_tool(tool) for tool in payload["tools"]]
        return chat._get_request_payload(payload["messages"], tools=tools, tool_choice={"type": "auto"})

    def view_request(body: dict[str, Any]) -> object:
        return anthropic_view({**body, **body.get("extra_body", {})})

    return [
        Contender(
            "langchain converter",
            converter,
            lambda result: anthropic_view(result, "messages"),
            "`convert_to_messages` + `_format_messages`",
            scope="messages",
        ),
        Contender("langchain request", request, view_request, "`ChatAnthropic._get_request_payload` with tools"),
    ]
