"""OpenRouter (``https://openrouter.ai/api/v1``): a gateway with its own routing fields.

It returns reasoning as ``reasoning`` text and ``reasoning_details`` entries, and takes the
details back on assistant messages to replay signed Anthropic and Gemini reasoning
(https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks); its
reasoning setting is ``reasoning: {effort, max_tokens, exclude}``; cache breakpoints are
Anthropic's ``cache_control`` on content parts, system messages and tools
(https://openrouter.ai/docs/features/prompt-caching); routing rides in ``provider``,
``models``, ``route``, ``transforms``, ``plugins``, ``usage``.
"""

from __future__ import annotations

from chatcodec._providers.openai_chat.servers import kinds
from chatcodec._providers.openai_chat.servers.server import Server
from chatcodec.contract import Extension, SamplingRange

DOCS = "https://openrouter.ai/docs/api-reference/overview"
REASONING = "https://openrouter.ai/docs/use-cases/reasoning-tokens"
_CACHE = "https://openrouter.ai/docs/features/prompt-caching#anthropic-claude"
_REQUEST = DOCS + "#request-body"
_RESPONSE = DOCS + "#responses"
FIELDS = ("reasoning", "provider", "transforms", "models", "route", "usage", "plugins")

_RANGES = (
    "https://openrouter.ai/docs/api/reference/parameters (temperature: 0.0 to 2.0; top_p: 0.0 to 1.0; "
    "frequency_penalty, presence_penalty: -2.0 to 2.0)"
)

SERVER = Server(
    "openrouter",
    "OpenRouter",
    DOCS,
    hosts=("openrouter.ai",),
    extensions=(
        *(Extension(kinds.PROVIDER, kind, FIELDS, _REQUEST) for kind in kinds.REQUESTS),
        *(Extension(kinds.PROVIDER, kind, ("reasoning", "reasoning_details"), REASONING) for kind in kinds.MESSAGES),
        *(Extension(kinds.PROVIDER, kind, ("cache_control",), _CACHE) for kind in kinds.PARTS),
        Extension(kinds.PROVIDER, "ChatCompletionSystemMessageParam", ("cache_control",), _CACHE),
        Extension(kinds.PROVIDER, "ChatCompletionFunctionToolParam", ("cache_control",), _CACHE),
        Extension(kinds.PROVIDER, "ChatCompletionChunk", ("provider", "error"), _RESPONSE),
        Extension(kinds.PROVIDER, "CompletionUsage", ("cost", "is_byok", "cost_details"), _RESPONSE),
        Extension(kinds.PROVIDER, "PromptTokensDetails", ("video_tokens", "image_tokens"), _RESPONSE),
        Extension(kinds.PROVIDER, "CompletionTokensDetails", ("image_tokens",), _RESPONSE),
    ),
    reasoning_field="reasoning_details",
    reasoning_source=REASONING + "#preserving-reasoning-blocks",
    reasoning_object=REASONING + "#controlling-reasoning-tokens",
    efforts=("none", "minimal", "low", "medium", "high", "xhigh"),
    efforts_source=REASONING + "#reasoning-effort-level",
    parts_source="https://openrouter.ai/docs/features/multimodal/overview",
    cache_marker="cache_control",
    sampling_ranges=(
        SamplingRange("temperature", 0.0, 2.0, _RANGES),
        SamplingRange("top_p", 0.0, 1.0, _RANGES),
        SamplingRange("frequency_penalty", -2.0, 2.0, _RANGES),
        SamplingRange("presence_penalty", -2.0, 2.0, _RANGES),
    ),
)
"""OpenRouter."""
