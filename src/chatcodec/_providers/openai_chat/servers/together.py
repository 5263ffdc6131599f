"""Together AI (``https://api.together.xyz/v1``): sampling extras, reasoning as ``reasoning``.

The chat reference adds ``top_k``, ``repetition_penalty``, ``min_p``,
``context_length_exceeded_behavior``, ``safety_model``, ``echo`` and a
``reasoning: {"enabled": ...}`` switch (https://docs.together.ai/reference/chat-completions-1);
reasoning models answer with ``reasoning`` on the message
(https://docs.together.ai/docs/reasoning-models-guide), not read back.
"""

from __future__ import annotations

from chatcodec._providers.openai_chat.servers import kinds
from chatcodec._providers.openai_chat.servers.server import Server
from chatcodec.contract import Extension, SamplingRange

DOCS = "https://docs.together.ai/reference/chat-completions-1"
_REASONING = "https://docs.together.ai/docs/reasoning-models-guide"
FIELDS = (
    "top_k",
    "repetition_penalty",
    "min_p",
    "context_length_exceeded_behavior",
    "safety_model",
    "echo",
    "reasoning",
)

_RANGES = (
    'https://docs.together.ai/reference/chat-completions-1 (temperature: "A decimal number from 0-1"; '
    "the penalties and top_p have no documented range)"
)

SERVER = Server(
    "together",
    "Together AI",
    DOCS,
    hosts=("api.together.xyz", "api.together.ai"),
    extensions=(
        *(Extension(kinds.PROVIDER, kind, FIELDS, DOCS) for kind in kinds.REQUESTS),
        *(Extension(kinds.PROVIDER, kind, ("reasoning",), _REASONING) for kind in kinds.ANSWER_MESSAGES),
    ),
    reasoning_source=_REASONING + " (returned, not read back)",
    efforts=("low", "medium", "high"),
    efforts_source=DOCS,
    parts=frozenset({"text", "image_url", "video_url", "audio_url"}),
    parts_source="https://docs.together.ai/docs/vision-overview",
    sampling_ranges=(SamplingRange("temperature", 0.0, 1.0, _RANGES),),
)
"""Together AI."""
