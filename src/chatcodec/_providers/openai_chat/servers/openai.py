"""OpenAI's own Chat Completions API: the SDK's fields, nothing more.

OpenAI answers a field it does not define with 400 "Unrecognized request argument
supplied" (top level) or "Additional properties are not allowed" (nested), so a named
OpenAI target gets exactly the SDK's fields: no reasoning sent back (its Chat API neither
returns nor takes reasoning), no Gemini signature, OpenAI's own ``prompt_cache_breakpoint``
for cache markers (GPT-5.6). A ``file`` part is a PDF only: another type is refused, 400
"Invalid file data: ... Expected a base64-encoded data URL with an application/pdf MIME
type" (trpc-group/trpc-agent-go#1816, 2026-05; the Responses API takes more types), so a
``text/*`` file goes as the text it holds (:mod:`.fitting`).
"""

from __future__ import annotations

from chatcodec._providers.openai_chat.servers.server import Server

DOCS = "https://platform.openai.com/docs/api-reference/chat/create"

SERVER = Server(
    "openai",
    "OpenAI",
    DOCS,
    hosts=("api.openai.com",),
    reasoning_source="https://platform.openai.com/docs/guides/reasoning (Chat Completions returns no reasoning)",
    efforts=("none", "minimal", "low", "medium", "high", "xhigh"),
    efforts_source=DOCS + "#chat_create-reasoning_effort",
    parts_source=DOCS + "#chat_create-messages",
    file_types=frozenset({"application/pdf"}),
    cache_marker="prompt_cache_breakpoint",
    semconv_name="openai",
    # sampling_ranges: None, the table's own (rules.SAMPLING_RANGES)
)
"""OpenAI, the default target."""
