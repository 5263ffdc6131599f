"""Moonshot's Kimi Anthropic API (``https://api.moonshot.ai/anthropic``, in China
``https://api.moonshot.cn/anthropic``; Kimi Code's ``https://api.kimi.com/coding``).

Kimi documents the endpoint for Claude Code (https://platform.moonshot.ai/docs/guide/agent-support)
and publishes no field list, so the body keeps the Anthropic API's fields less what only
Anthropic's own servers act on (:data:`~.server.HOSTED_BY_ANTHROPIC`, and its server
tools). One rule is Kimi's own: with thinking on, every earlier assistant turn that called
a tool must carry its reasoning, or Kimi answers 400 "thinking is enabled but
reasoning_content is missing in assistant tool call message at index N"
(https://github.com/NousResearch/hermes-agent/issues/17057; its OpenAI-compatible API has
the same rule: https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model). A history
whose tool calls came without thinking blocks (from another format, or unsigned thinking
dropped) is sent with thinking off, reported.
"""

from __future__ import annotations

from chatcodec._providers.anthropic.servers.server import HOSTED_BY_ANTHROPIC, Server, ServerCall, ServerRule
from chatcodec.codec_kit import as_dict, as_list

DOCS = "https://platform.moonshot.ai/docs/guide/agent-support"
THINKING_RULE = "https://github.com/NousResearch/hermes-agent/issues/17057"


def _unreasoned_tool_turn(body: dict[str, object]) -> int | None:
    """The index of the first assistant turn that calls a tool with no thinking block, or None."""
    for index, message in enumerate(as_list(body.get("messages")) or ()):
        fields = as_dict(message) or {}
        blocks = [as_dict(block) or {} for block in as_list(fields.get("content")) or ()]
        kinds = {block.get("type") for block in blocks}
        if fields.get("role") == "assistant" and "tool_use" in kinds and not kinds & {"thinking", "redacted_thinking"}:
            return index
    return None


def thinking_needs_reasoned_tool_turns(call: ServerCall) -> None:
    """Thinking is not sent when a tool-calling turn has no reasoning to send back."""
    thinking = as_dict(call.body.get("thinking"))
    if thinking is None or thinking.get("type") == "disabled":
        return
    index = _unreasoned_tool_turn(call.body)
    if index is None:
        return
    del call.body["thinking"]
    why = f"not sent: messages[{index}] calls a tool with no thinking block, which Kimi refuses with thinking on"
    call.report(("thinking",), "thinking", f"{why} ({THINKING_RULE})")


SERVER = Server(
    "kimi",
    "Kimi (Moonshot)",
    DOCS,
    hosts=("api.moonshot.ai/anthropic", "api.moonshot.cn/anthropic", "api.kimi.com/coding"),
    refuses=HOSTED_BY_ANTHROPIC,
    tool_types=frozenset({"custom"}),
    rules=(
        ServerRule(
            "thinking_with_tool_turns",
            "`thinking` is not sent when an earlier tool-calling turn has no thinking block (reported)",
            THINKING_RULE,
            thinking_needs_reasoned_tool_turns,
        ),
    ),
)
"""Kimi."""
