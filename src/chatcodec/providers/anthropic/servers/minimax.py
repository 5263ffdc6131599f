"""MiniMax's Anthropic API (``https://api.minimax.io/anthropic``, in China
``https://api.minimaxi.com/anthropic``).

Its compatibility table (https://platform.minimax.io/docs/api-reference/text-anthropic-api,
"Supported Parameters"): ``model``, ``messages`` (text and tool calls: no image or
document input), ``max_tokens``, ``stream``, ``system``, ``temperature`` (in (0.0, 1.0]),
``tool_choice``, ``tools``, ``top_p``, ``metadata`` and ``thinking`` are taken;
``top_k``, ``stop_sequences``, ``service_tier``, ``mcp_servers``, ``context_management``
and ``container`` are ignored. In a tool loop the whole assistant content (its
``thinking`` blocks too) must be sent back, which the Anthropic writer does.
"""

from __future__ import annotations

from chatcodec.providers.anthropic.servers.server import Refusal, Server

DOCS = "https://platform.minimax.io/docs/api-reference/text-anthropic-api"

FIELDS = frozenset(
    {
        "model",
        "messages",
        "max_tokens",
        "stream",
        "system",
        "temperature",
        "tool_choice",
        "tools",
        "top_p",
        "metadata",
        "thinking",
    }
)
"""The request fields its table lists as supported."""

SERVER = Server(
    "minimax",
    "MiniMax",
    DOCS,
    hosts=("api.minimax.io/anthropic", "api.minimaxi.com/anthropic"),
    fields=FIELDS,
    refuses=tuple(
        Refusal(name, DOCS)
        for name in ("top_k", "stop_sequences", "service_tier", "mcp_servers", "context_management", "container")
    ),
    blocks=frozenset({"text", "thinking", "tool_use", "tool_result"}),
    blocks_source=DOCS + " (messages: text and tool calls, no image or document input)",
    tool_types=frozenset({"custom"}),
    notes=(f"`temperature` must be in (0.0, 1.0] ({DOCS})",),
)
"""MiniMax."""
