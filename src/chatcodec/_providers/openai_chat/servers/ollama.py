"""Ollama's OpenAI-compatible endpoint (``http://localhost:11434/v1``), a listed subset.

The compatibility page lists the request fields it reads
(https://docs.ollama.com/api/openai-compatibility, "Supported request fields"): no
``logit_bias``, ``user``, ``n``, and ``max_tokens`` for the limit; content is text and
images; ``reasoning_effort`` takes the model's own names. Thinking comes back as
``reasoning`` and is read back from assistant messages (``openai/openai.go``, ``Message.Reasoning``,
https://github.com/ollama/ollama/blob/main/openai/openai.go).
"""

from __future__ import annotations

from chatcodec._providers.openai_chat.servers import kinds
from chatcodec._providers.openai_chat.servers.server import Refusal, Server
from chatcodec.contract import Extension

DOCS = "https://docs.ollama.com/api/openai-compatibility"
_MESSAGE = "https://github.com/ollama/ollama/blob/main/openai/openai.go"
FIELDS = frozenset(
    {
        "model",
        "messages",
        "frequency_penalty",
        "presence_penalty",
        "response_format",
        "seed",
        "stop",
        "stream",
        "stream_options",
        "temperature",
        "top_p",
        "max_tokens",
        "tools",
        "tool_choice",
        "reasoning_effort",
        "reasoning",
        "logprobs",
        "top_logprobs",
    }
)
"""The request fields its compatibility page lists."""

SERVER = Server(
    "ollama",
    "Ollama (OpenAI compatibility)",
    DOCS,
    hosts=("localhost:11434", "127.0.0.1:11434", "ollama.com"),
    fields=FIELDS,
    refuses=(Refusal("max_completion_tokens", DOCS, instead="max_tokens"),),
    extensions=(
        *(Extension(kinds.PROVIDER, kind, ("reasoning",), DOCS) for kind in kinds.REQUESTS),
        *(Extension(kinds.PROVIDER, kind, ("reasoning",), _MESSAGE) for kind in kinds.MESSAGES),
    ),
    reasoning_field="reasoning",
    reasoning_source=_MESSAGE,
    efforts=None,
    efforts_source=DOCS + " (model-defined names)",
    parts=frozenset({"text", "image_url"}),
    parts_source=DOCS,
    sampling_ranges=(),  # docs/openai.md lists the fields it takes and no range: the model's runner decides
)
"""Ollama's /v1 endpoint."""
