"""Ollama's Anthropic compatibility (``http://localhost:11434``, the SDK adding
``/v1/messages``; Ollama's cloud at ``https://ollama.com``).

Its compatibility page (https://docs.ollama.com/api/anthropic-compatibility, "Supported
request fields" and "Differences from the Anthropic API") lists ``model``,
``max_tokens``, ``messages`` (text, base64 images, ``tool_use``, ``tool_result`` and
``thinking`` blocks), ``system``, ``stream``, ``temperature``, ``top_p``, ``top_k``,
``stop_sequences``, ``tools`` and ``thinking`` as supported; ``tool_choice`` and
``metadata`` as not supported, nor prompt caching (``cache_control``), citations and
``document`` blocks; images by base64 only ("URL images not supported"), and
``budget_tokens`` "accepted but not enforced". Its source (``anthropic/anthropic.go``,
``FromMessagesRequest``, ollama/ollama at fb307609) also reads ``output_config.effort``
(``low`` to ``max``, ``xhigh`` as ``high``) where ``thinking`` is not ``enabled`` or
``disabled``, refuses an image by URL, in a ``tool_result`` too ("Only base64 images are
supported", ``convertToolResultContent``), and runs a ``web_search_*`` tool with Ollama's
own web search (``convertTool``, and ``middleware/anthropic.go``), reading back its
``server_tool_use`` and ``web_search_tool_result`` blocks. ``anthropic-version`` is "accepted but not used": the
API's version rules are not Ollama's, nor Claude's model rules the local model's
(``qwen3-coder``): sampling is sent.
"""

from __future__ import annotations

from chatcodec._providers.anthropic.servers.server import Refusal, Server, cache_markers

DOCS = "https://docs.ollama.com/api/anthropic-compatibility"
SOURCE = "https://github.com/ollama/ollama/blob/main/anthropic/anthropic.go (FromMessagesRequest)"

FIELDS = frozenset(
    {
        "model",
        "max_tokens",
        "messages",
        "system",
        "stream",
        "temperature",
        "top_p",
        "top_k",
        "stop_sequences",
        "tools",
        "thinking",
        "output_config",
    }
)
"""The request fields its page lists as supported, and ``output_config`` its source reads."""

SERVER = Server(
    "ollama",
    "Ollama",
    DOCS,
    hosts=("localhost:11434", "127.0.0.1:11434", "ollama.com"),
    fields=FIELDS,
    refuses=(
        Refusal("thinking.budget_tokens", DOCS + ' ("budget_tokens accepted but not enforced")'),
        Refusal("output_config.format", SOURCE + " (OutputConfig holds effort only)"),
        Refusal("messages[].content[text].citations", DOCS + " (Citations: not supported)"),
        *cache_markers(DOCS + " (Prompt caching: not supported)"),
    ),
    blocks=frozenset(
        {"text", "image", "thinking", "tool_use", "tool_result", "server_tool_use", "web_search_tool_result"}
    ),
    blocks_source=DOCS + " (Supported request fields: messages; PDF document blocks not supported)",
    tool_types=frozenset({"custom", "web_search_20250305", "web_search_20260209"}),
    tool_choices=frozenset(),
    thinking_types=frozenset({"enabled", "disabled"}),
    image_sources=frozenset({"base64"}),
    sampling_ranges=(),  # its page lists the fields and no range: the model's runner decides
    notes=(
        f"`tool_choice` is not supported: `none` is sent as no tools, `any` and `tool` are not sent ({DOCS})",
        f"`thinking` `adaptive`, which it ignores, goes as `enabled`, or is left to `output_config.effort` ({SOURCE})",
        f"a `web_search_*` tool runs Ollama's own web search ({SOURCE}, convertTool)",
    ),
)
"""Ollama."""
