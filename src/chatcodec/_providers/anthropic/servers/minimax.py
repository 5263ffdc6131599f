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

from typing import Any

from chatcodec._providers.anthropic.servers.server import Refusal, Server, ServerCall, ServerRule

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

TEMPERATURE_RANGE = (0.0, 1.0)
"""``temperature`` "(0.0, 1.0]" in its table: above 0, at most 1."""
SMALLEST_TEMPERATURE = 0.01
"""What a ``temperature`` of 0 or less is sent as: the nearest value the server takes,
to the precision a sampling setting is written with (greedy decoding, as 0 asks)."""


def _temperature_range(call: ServerCall) -> None:
    """A ``temperature`` outside (0.0, 1.0] is sent as the nearest value inside it."""
    value: Any = call.body.get("temperature")
    if not isinstance(value, int | float) or isinstance(value, bool):
        return
    low, high = TEMPERATURE_RANGE
    if low < value <= high:
        return
    sent = high if value > high else SMALLEST_TEMPERATURE
    call.body["temperature"] = sent
    call.report(("temperature",), f"temperature {value!r}", f"sent as {sent} (it takes ({low}, {high}])")


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
    rules=(
        ServerRule(
            "temperature_range",
            "a `temperature` outside (0.0, 1.0] is sent as the nearest value it takes (0 as 0.01)",
            DOCS,
            _temperature_range,
        ),
    ),
)
"""MiniMax."""
