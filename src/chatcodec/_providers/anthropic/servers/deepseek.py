"""DeepSeek's Anthropic API (``https://api.deepseek.com/anthropic``).

Its compatibility page lists every field with a status
(https://api-docs.deepseek.com/guides/anthropic_api, "Anthropic API Compatibility
Details"): ``container``, ``mcp_servers``, ``service_tier`` and ``top_k`` are ignored;
``thinking`` is taken without ``budget_tokens``; ``output_config`` takes only ``effort``
(the thinking-mode guide: https://api-docs.deepseek.com/guides/thinking_mode);
``metadata`` only ``user_id``; the ``anthropic-version`` header is ignored, and
``temperature`` (0 to 2) and ``top_p`` are taken, so the Messages API's version and range
rules are not DeepSeek's (``rules.server_rules``). On tools ``cache_control`` is ignored, on ``tool_choice``
``disable_parallel_tool_use``; in messages ``cache_control`` and ``citations`` on text,
``cache_control`` on tool calls and results and ``is_error`` on results are ignored;
``redacted_thinking``, ``document``, ``search_result`` and the server-tool blocks are
not supported. Images are taken since the vision model (2026-08, ``deepseek-v4-flash-vision-exp``:
image input through the Anthropic-format endpoint, /work/shared/provider-changes-2026.md).
Claude model names are mapped to its own (``claude-opus*`` to ``deepseek-v4-pro``).
"""

from __future__ import annotations

from chatcodec._providers.anthropic.servers.server import Refusal, Server
from chatcodec.contract import SamplingRange

DOCS = "https://api-docs.deepseek.com/guides/anthropic_api"
_THINKING = "https://api-docs.deepseek.com/guides/thinking_mode"

FIELDS = frozenset(
    {
        "model",
        "max_tokens",
        "messages",
        "metadata",
        "stop_sequences",
        "stream",
        "system",
        "temperature",
        "thinking",
        "output_config",
        "top_p",
        "tools",
        "tool_choice",
    }
)
"""The request fields its page lists as supported."""

SAMPLING_RANGES = (
    SamplingRange("temperature", 0.0, 2.0, DOCS + ' (temperature: "Fully Supported (range [0.0 ~ 2.0])")'),
    SamplingRange("top_p", 0.0, 1.0, DOCS + " (top_p: Fully Supported; the Messages API's range)"),
)
"""Its ``temperature`` goes to 2, as on its OpenAI-format API."""

SERVER = Server(
    "deepseek",
    "DeepSeek",
    DOCS,
    hosts=("api.deepseek.com/anthropic",),
    fields=FIELDS,
    refuses=(
        *(Refusal(name, DOCS) for name in ("container", "mcp_servers", "service_tier", "top_k")),
        Refusal("thinking.budget_tokens", DOCS),
        Refusal("output_config.format", _THINKING + " (output_config takes only effort)"),
        Refusal("tools[].cache_control", DOCS),
        Refusal("tool_choice.disable_parallel_tool_use", DOCS),
        Refusal("messages[].content[text].cache_control", DOCS),
        Refusal("messages[].content[text].citations", DOCS),
        Refusal("messages[].content[tool_use].cache_control", DOCS),
        Refusal("messages[].content[tool_result].cache_control", DOCS),
        Refusal("messages[].content[tool_result].is_error", DOCS),
    ),
    blocks=frozenset({"text", "image", "thinking", "tool_use", "tool_result"}),
    blocks_source=DOCS + " (Message Fields)",
    tool_types=frozenset({"custom"}),
    sampling_ranges=SAMPLING_RANGES,
    notes=(
        f"Claude model names are mapped to DeepSeek's (`claude-opus*` to `deepseek-v4-pro`) ({DOCS})",
        f"`anthropic-version` is ignored: `temperature` (0 to 2) and `top_p` are sent under every version ({DOCS})",
    ),
    semconv_name="deepseek",
)
"""DeepSeek."""
