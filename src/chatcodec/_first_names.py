"""The names people type first for a format, and the format each means.

A newcomer types the vendor or the project (``openai``, ``claude``, ``otel``), not chatcodec's
registry name (``openai-chat``, ``anthropic``, ``otel-genai``); a string's nearest match
(``difflib``) misses most of them. The refusal of an unknown name (the command line's, and
:class:`~chatcodec.UnknownProviderError`'s) reads this table first, so its "did you mean" names
the format meant.
"""

from __future__ import annotations

from collections.abc import Mapping

FIRST_NAMES: Mapping[str, tuple[str, ...]] = {
    "openai": ("openai-chat", "openai-responses"),
    "chat-completions": ("openai-chat",),
    "responses": ("openai-responses",),
    "claude": ("anthropic",),
    "google": ("gemini", "gemini-interactions"),
    "vertex": ("gemini",),
    "bedrock": ("bedrock-converse", "bedrock-nova"),
    "otel": ("otel-genai",),
    "opentelemetry": ("otel-genai",),
    "adk": ("google-adk",),
    "langgraph": ("langchain",),
    "openai-agents": ("openai-responses",),
    "agents-sdk": ("openai-responses",),
    "vercel": ("ai-sdk-ui", "ai-sdk-model"),
    "ai-sdk": ("ai-sdk-ui", "ai-sdk-model"),
    "agent2agent": ("a2a",),
    "mcp": ("mcp-sampling",),
    "cohere": ("cohere-chat",),  # the outside codec of examples/cohere-chat-codec, when installed
    "agui": ("ag-ui",),
    "copilotkit": ("ag-ui",),
}
"""A first name (lower case, ``_`` read as ``-``) -> the formats it may mean, the likeliest first
(the OpenAI Agents SDK keeps its runs as Responses items; LangGraph's state holds LangChain
messages; CopilotKit speaks AG-UI)."""


def meant(name: str) -> tuple[str, ...]:
    """The formats a first name means (none for any other name)."""
    return FIRST_NAMES.get(name.strip().lower().replace("_", "-"), ())


def did_you_mean(name: str, known: list[str]) -> str:
    """``; did you mean 'X'?`` (or ``'X' or 'Y'``) for ``name``: its first-name meanings among
    ``known``, else the nearest known name; empty when there is none."""
    import difflib

    formats = [format_name for format_name in meant(name) if format_name in known]
    if not formats:
        formats = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f"; did you mean {' or '.join(repr(format_name) for format_name in formats)}?" if formats else ""
