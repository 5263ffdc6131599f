"""Mistral's chat API (``https://api.mistral.ai/v1``): OpenAI-shaped, its own field list.

The reference lists its fields (https://docs.mistral.ai/api/#tag/chat): the seed is
``random_seed``, the limit ``max_tokens``; there is no ``logit_bias``, ``logprobs``,
``user``, ``store`` or ``metadata``, and an unknown field is refused (422 "Extra inputs
are not permitted"). Its own additions are ``safe_prompt`` and ``prompt_mode``. Reasoning
models answer with ``{"type": "thinking", "thinking": [...]}`` content parts, which go back
the same way (https://docs.mistral.ai/capabilities/reasoning/); ``reasoning_effort`` is
``none`` or ``high`` (https://docs.mistral.ai/capabilities/reasoning/adjustable); documents ride in
``document_url`` parts (https://docs.mistral.ai/capabilities/document_ai/basic_ocr/).
"""

from __future__ import annotations

from chatcodec.providers.kit.edge import Extension
from chatcodec.providers.openai_chat.servers import kinds
from chatcodec.providers.openai_chat.servers.server import Refusal, Server

DOCS = "https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post"
_REASONING = "https://docs.mistral.ai/capabilities/reasoning/"
FIELDS = frozenset(
    {
        "model",
        "messages",
        "temperature",
        "top_p",
        "max_tokens",
        "stream",
        "stop",
        "random_seed",
        "response_format",
        "tools",
        "tool_choice",
        "presence_penalty",
        "frequency_penalty",
        "n",
        "prediction",
        "parallel_tool_calls",
        "prompt_mode",
        "safe_prompt",
        "reasoning_effort",
    }
)
"""The request fields Mistral's reference lists."""

SERVER = Server(
    "mistral",
    "Mistral",
    DOCS,
    hosts=("api.mistral.ai",),
    models=(
        r"(mistral|magistral|codestral|devstral|ministral|pixtral|voxtral)-[\w.-]*(latest|\d{4})",
        r"open-mistral-[\w.-]+",
    ),
    fields=FIELDS,
    refuses=(
        Refusal("seed", DOCS, instead="random_seed"),
        Refusal("max_completion_tokens", DOCS, instead="max_tokens"),
    ),
    extensions=tuple(
        Extension(kinds.PROVIDER, kind, ("random_seed", "safe_prompt", "prompt_mode"), DOCS) for kind in kinds.REQUESTS
    ),
    reasoning_source=_REASONING + " (thinking goes back as a content part)",
    efforts=("none", "high"),
    efforts_source="https://docs.mistral.ai/capabilities/reasoning/adjustable",
    parts=frozenset({"text", "image_url", "input_audio", "document_url", "thinking"}),
    parts_source=DOCS,
    semconv_name="mistral_ai",
)
"""Mistral."""
