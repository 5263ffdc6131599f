"""vLLM's Anthropic Messages endpoint (``vllm serve``, ``POST /v1/messages``).

vLLM documents the endpoint for Claude Code
(https://docs.vllm.ai/en/stable/serving/integrations/claude_code/); its request model
(``AnthropicMessagesRequest`` in ``vllm/entrypoints/anthropic/protocol.py``) takes
``model``, ``messages``, ``max_tokens``, ``metadata``, ``output_config`` (``effort``, and
``format`` as a JSON schema), ``stop_sequences``, ``stream``, ``system``,
``temperature``, ``tool_choice`` (``auto``, ``any``, ``tool``, ``none``), ``tools``,
``top_k`` and ``top_p``; other fields are ignored (pydantic's default), ``thinking``
among them: reasoning follows the model's template and ``output_config.effort``. A
content block must be ``text``, ``image``, ``tool_use``, ``tool_result``,
``tool_reference``, ``thinking`` or ``redacted_thinking`` (another is a 400), and a tool
needs an ``input_schema`` (a server tool is a 400); ``redacted_thinking`` is accepted and
skipped (``serving.py``, ``_convert_block``), ``cache_control`` is not read. Sampling goes
to vLLM's ``SamplingParams``, whose ranges its OpenAI-compatible server shares. vLLM
serves any model on any host: chosen by option only.
"""

from __future__ import annotations

from chatcodec._providers.anthropic.servers.server import Refusal, Server, cache_markers
from chatcodec.contract import SamplingRange

DOCS = "https://docs.vllm.ai/en/stable/serving/integrations/claude_code/"
PROTOCOL = "https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/anthropic/protocol.py"
SERVING = "https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/anthropic/serving.py"
_RANGES = (
    "https://github.com/vllm-project/vllm/blob/main/vllm/sampling_params.py (SamplingParams._verify_args: "
    '"temperature must be non-negative", "top_p must be in (0, 1]")'
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
        "tool_choice",
        "tools",
        "top_k",
        "top_p",
    }
)
"""The Anthropic fields of its request model (``AnthropicMessagesRequest``)."""

SERVER = Server(
    "vllm",
    "vLLM",
    DOCS,
    fields=FIELDS,
    fields_source=PROTOCOL + " (AnthropicMessagesRequest)",
    refuses=(
        Refusal("tool_choice.disable_parallel_tool_use", PROTOCOL + " (AnthropicToolChoice: type and name)"),
        *cache_markers(PROTOCOL + " (no cache_control on any model)"),
    ),
    blocks=frozenset({"text", "image", "thinking", "tool_use", "tool_result"}),
    blocks_source=PROTOCOL + " (AnthropicContentBlock.type; redacted_thinking is skipped: " + SERVING + ")",
    tool_types=frozenset({"custom"}),
    sampling_ranges=(SamplingRange("temperature", 0.0, None, _RANGES), SamplingRange("top_p", 0.0, 1.0, _RANGES)),
    notes=(f"`thinking` is not a field it reads: reasoning follows the model and `output_config.effort` ({PROTOCOL})",),
)
"""vLLM."""
