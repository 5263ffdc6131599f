"""SGLang's Anthropic-compatible endpoint (``POST /v1/messages``, default port 30000).

Its page (https://docs.sglang.io/docs/basic_usage/anthropic_api) says the endpoint takes
"the standard Anthropic Messages API parameters" through the same chat template and
reasoning and tool-call parsers as its OpenAI-compatible one. Its request model
(``AnthropicMessagesRequest`` in ``python/sglang/srt/entrypoints/anthropic/protocol.py``)
takes ``model``, ``messages``, ``max_tokens``, ``metadata``, ``stop_sequences``,
``stream``, ``system``, ``temperature``, ``thinking``, ``tool_choice`` (``auto``, ``any``,
``tool``, ``none``), ``tools``, ``top_k`` and ``top_p``, and its conversion
(``request_conversion.py``) maps ``output_config.effort`` to ``reasoning_effort``; a
content block must be ``text``, ``image``, ``tool_use``, ``tool_result``, ``thinking`` or
``redacted_thinking``, and its conversion refuses a ``redacted_thinking`` history ("not
supported") and skips Anthropic's server tools; ``budget_tokens`` is accepted but not
enforced; ``cache_control`` is not read. It serves any model on any host: chosen by
option only.
"""

from __future__ import annotations

from chatcodec._providers.anthropic.servers.server import Refusal, Server, cache_markers
from chatcodec.contract import SamplingRange

DOCS = "https://docs.sglang.io/docs/basic_usage/anthropic_api"
PROTOCOL = "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/entrypoints/anthropic/protocol.py"
CONVERSION = (
    "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/entrypoints/anthropic/request_conversion.py"
)
_RANGES = (
    "https://docs.sglang.ai/basic_usage/sampling_params.html (temperature: 0 or more, 0 is greedy; top_p in (0, 1])"
)

FIELDS = frozenset(
    {
        "model",
        "messages",
        "max_tokens",
        "metadata",
        "output_config",
        "stop_sequences",
        "stream",
        "system",
        "temperature",
        "thinking",
        "tool_choice",
        "tools",
        "top_k",
        "top_p",
    }
)
"""The fields of its request model, and ``output_config``, whose ``effort`` its conversion reads."""

SERVER = Server(
    "sglang",
    "SGLang",
    DOCS,
    fields=FIELDS,
    fields_source=PROTOCOL + " (AnthropicMessagesRequest)",
    refuses=(
        Refusal("output_config.format", CONVERSION + " (output_config: effort only)"),
        Refusal("tool_choice.disable_parallel_tool_use", PROTOCOL + " (AnthropicToolChoice: type and name)"),
        *cache_markers(PROTOCOL + " (no cache_control on any model)"),
    ),
    blocks=frozenset({"text", "image", "thinking", "tool_use", "tool_result"}),
    blocks_source=PROTOCOL + " (AnthropicContentBlock.type; redacted_thinking is refused: " + CONVERSION + ")",
    tool_types=frozenset({"custom"}),
    sampling_ranges=(SamplingRange("temperature", 0.0, None, _RANGES), SamplingRange("top_p", 0.0, 1.0, _RANGES)),
)
"""SGLang."""
