"""LM Studio's Anthropic-compatible endpoint (``http://localhost:1234``, the SDK adding
``/v1/messages``).

LM Studio documents the endpoint for Claude Code
(https://lmstudio.ai/docs/developer/anthropic-compat/messages, which points to the
Messages API reference for the fields) and publishes no field list, so the body keeps
the API's fields less what only Anthropic's own servers act on
(:data:`~.server.HOSTED_BY_ANTHROPIC`). Its endpoint comparison
(https://lmstudio.ai/docs/developer/rest, "Inference endpoint comparison") gives
``/v1/messages`` custom tools, but no remote MCP servers and no stateful chat: only
tools the caller runs are sent.
"""

from __future__ import annotations

from chatcodec._providers.anthropic.servers.server import HOSTED_BY_ANTHROPIC, Server

DOCS = "https://lmstudio.ai/docs/developer/anthropic-compat/messages"
COMPARISON = "https://lmstudio.ai/docs/developer/rest (Inference endpoint comparison)"

SERVER = Server(
    "lmstudio",
    "LM Studio",
    DOCS,
    hosts=("localhost:1234", "127.0.0.1:1234"),
    refuses=HOSTED_BY_ANTHROPIC,
    tool_types=frozenset({"custom"}),
    notes=(f"`/v1/messages` runs custom tools, no remote MCP servers ({COMPARISON})",),
)
"""LM Studio."""
