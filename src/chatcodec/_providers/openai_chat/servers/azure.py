"""Azure OpenAI: OpenAI's body, its own URL, auth and extensions.

Differences (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/reference):
the deployment in the URL names the model (``/openai/deployments/{deployment}/chat/completions?api-version=...``,
or the v1 ``/openai/v1/chat/completions``), the key goes in an ``api-key`` header, and
"On your data" adds ``data_sources`` to the request. Its prompt caching is automatic
(https://learn.microsoft.com/en-us/azure/ai-foundry/openai/how-to/prompt-caching): an explicit
breakpoint is not sent.
"""

from __future__ import annotations

from chatcodec._providers.openai_chat.servers import kinds
from chatcodec._providers.openai_chat.servers.server import Server
from chatcodec.contract import Extension

DOCS = "https://learn.microsoft.com/en-us/azure/ai-foundry/openai/reference"
_ON_YOUR_DATA = "https://learn.microsoft.com/en-us/azure/ai-foundry/openai/references/on-your-data"

SERVER = Server(
    "azure",
    "Azure OpenAI",
    DOCS,
    hosts=(".openai.azure.com", ".cognitiveservices.azure.com", ".services.ai.azure.com"),
    extensions=tuple(Extension(kinds.PROVIDER, kind, ("data_sources",), _ON_YOUR_DATA) for kind in kinds.REQUESTS),
    reasoning_source=DOCS + " (no reasoning field on messages)",
    efforts=("none", "minimal", "low", "medium", "high", "xhigh"),
    efforts_source="https://learn.microsoft.com/en-us/azure/ai-foundry/openai/how-to/reasoning",
    parts_source=DOCS,
    file_types=frozenset({"application/pdf"}),  # OpenAI's models: a PDF only (openai.py)
    notes=("the deployment in the URL names the model; the key goes in an `api-key` header",),
    semconv_name="azure.ai.openai",
    # sampling_ranges: OpenAI's, as its reference gives them (temperature between 0 and 2; top_p;
    # penalties between -2.0 and 2.0: https://learn.microsoft.com/en-us/azure/ai-foundry/openai/reference)
)
"""Azure OpenAI."""
