"""OpenAI's own Chat Completions API: the SDK's fields, nothing more.

OpenAI answers a field it does not define with 400 "Unrecognized request argument
supplied" (top level) or "Additional properties are not allowed" (nested), so a named
OpenAI target gets exactly the SDK's fields: no reasoning sent back (its Chat API neither
returns nor takes reasoning), no Gemini signature, OpenAI's own ``prompt_cache_breakpoint``
for cache markers (GPT-5.6).
"""

from __future__ import annotations

from chatcodec.providers.openai_chat.servers.server import Server

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
    cache_marker="prompt_cache_breakpoint",
    semconv_name="openai",
)
"""OpenAI, the default target."""
