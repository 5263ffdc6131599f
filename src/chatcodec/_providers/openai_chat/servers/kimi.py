"""Moonshot's Kimi API (``https://api.moonshot.ai/v1``): DeepSeek's reasoning rule.

Kimi's thinking models return ``reasoning_content`` and, in a tool loop, want it back on
every assistant step: "thinking is enabled but reasoning_content is missing in assistant
tool call message at index N" (https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model;
https://github.com/pydantic/pydantic-ai/issues/3629). ``thinking: {"type": "disabled"}``
turns thinking off on the models that have both modes.

Kimi's vision models take ``image_url`` parts (https://platform.moonshot.ai/docs/guide/use-kimi-vision-model);
K2.5 and later also take ``video_url`` (a URL or a data URL: Vercel's moonshotai
converter, ``packages/moonshotai`` of vercel/ai); a video to an earlier model is dropped,
a rule loss. An image or video uploaded to Moonshot's Files API is referenced by its id
as a URL: "video_url.url is ms://<file-id>, where ms is short for moonshot storage"
(the same page, "Using Uploaded Images or Videos"): a canonical image or video by file id
is written so (:attr:`~.server.Server.file_url_scheme`), and such a URL reads as a file id.
"""

from __future__ import annotations

import re

from chatcodec._providers.openai_chat.servers import kinds
from chatcodec._providers.openai_chat.servers.server import ModelParts, Server, ServerCall, ServerRule
from chatcodec._providers.openai_chat.servers.turns import reasoning_back_in_tool_loop
from chatcodec.contract import Extension, SamplingRange

DOCS = "https://platform.moonshot.ai/docs/api/chat"
THINKING = "https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model"
_VISION = "https://platform.moonshot.ai/docs/guide/use-kimi-vision-model"
_VIDEO = "Kimi K2.5 and later take video_url (Vercel's moonshotai converter)"
_THINKING_MODELS = re.compile(r"kimi-k2-thinking|kimi-k2\.[5-9]|kimi-k[3-9]")


def _thinking(call: ServerCall) -> bool:
    return _THINKING_MODELS.search((call.model or "").lower()) is not None


_RANGES = DOCS + " (temperature: from 0 to 1; top_p: from 0 to 1; presence_penalty, frequency_penalty: -2.0 to 2.0)"

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
    parts_source=_VISION,
    file_url_scheme="ms://",
    model_parts=(
        ModelParts(r"kimi-k2\.[5-9][\w.-]*|kimi-k[3-9][\w.-]*", frozenset({"text", "image_url", "video_url"}), _VIDEO),
    ),
    rules=(
        ServerRule(
            "reasoning_in_tool_loop",
            "each current-turn tool-loop step of a thinking model carries `reasoning_content` "
            "(empty when none was kept, reported)",
            THINKING,
            reasoning_back_in_tool_loop(THINKING, _thinking),
        ),
    ),
    sampling_ranges=(
        SamplingRange("temperature", 0.0, 1.0, _RANGES),
        SamplingRange("top_p", 0.0, 1.0, _RANGES),
        SamplingRange("frequency_penalty", -2.0, 2.0, _RANGES),
        SamplingRange("presence_penalty", -2.0, 2.0, _RANGES),
    ),
)
"""Kimi."""
