"""Moonshot's Kimi API (``https://api.moonshot.ai/v1``): DeepSeek's reasoning rule.

Kimi's thinking models return ``reasoning_content`` and, in a tool loop, want it back on
every assistant step: "thinking is enabled but reasoning_content is missing in assistant
tool call message at index N" (https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model;
https://github.com/pydantic/pydantic-ai/issues/3629). ``thinking: {"type": "disabled"}``
turns thinking off on the models that have both modes.
"""

from __future__ import annotations

import re

from chatcodec.providers.contract.edge import Extension
from chatcodec.providers.openai_chat.servers import kinds
from chatcodec.providers.openai_chat.servers.server import Server, ServerCall, ServerRule
from chatcodec.providers.openai_chat.servers.turns import reasoning_back_in_tool_loop

DOCS = "https://platform.moonshot.ai/docs/api/chat"
THINKING = "https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model"
_THINKING_MODELS = re.compile(r"kimi-k2-thinking|kimi-k2\.[5-9]|kimi-k[3-9]")


def _thinking(call: ServerCall) -> bool:
    return _THINKING_MODELS.search((call.model or "").lower()) is not None


SERVER = Server(
    "kimi",
    "Kimi (Moonshot)",
    DOCS,
    hosts=("api.moonshot.ai", "api.moonshot.cn"),
    models=(r"kimi-[\w.-]+",),
    extensions=(
        *(Extension(kinds.PROVIDER, kind, ("thinking",), THINKING) for kind in kinds.REQUESTS),
        *(Extension(kinds.PROVIDER, kind, ("reasoning_content",), THINKING) for kind in kinds.MESSAGES),
    ),
    reasoning_field="reasoning_content",
    reasoning_source=THINKING,
    efforts=None,
    efforts_source=THINKING + " (no reasoning_effort documented: not checked)",
    parts=frozenset({"text", "image_url"}),
    parts_source="https://platform.moonshot.ai/docs/guide/use-kimi-vision-model",
    rules=(
        ServerRule(
            "reasoning_in_tool_loop",
            "each current-turn tool-loop step of a thinking model carries `reasoning_content` "
            "(empty when none was kept, reported)",
            THINKING,
            reasoning_back_in_tool_loop(THINKING, _thinking),
        ),
    ),
)
"""Kimi."""
