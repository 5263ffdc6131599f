"""llama.cpp's ``llama-server`` (``POST /v1/messages``, default ``http://localhost:8080``).

Its README ("POST /v1/messages: Anthropic-compatible Messages API",
https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md) lists ``model``,
``messages``, ``max_tokens``, ``system``, ``temperature`` (0 to 1, the API's range),
``top_p``, ``top_k``, ``stop_sequences``, ``stream``, ``tools`` (with ``--jinja``) and
``tool_choice`` (``auto``, ``any``, ``tool``). The conversion to its chat request
(``server_chat_convert_anthropic_to_oai`` in ``tools/server/server-chat.cpp``) shows what
it makes of the rest: ``thinking`` ``enabled`` becomes its ``thinking_budget_tokens``
(other types are ignored); ``tool_choice`` ``any`` and ``tool`` both become "required"
(any tool: the name is dropped) and ``none`` is ignored, as is
``disable_parallel_tool_use``; every tool becomes a function (a server tool too, which
nobody then runs); ``text``, ``image`` (base64 or URL), ``thinking``, ``tool_use`` and
``tool_result`` blocks are read, any other block skipped; ``cache_control`` is not read.
It serves any model under any name on any port: chosen by option only.
"""

from __future__ import annotations

from chatcodec._providers.anthropic.servers.server import Refusal, Server, cache_markers

DOCS = "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md"
SOURCE = (
    "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/server-chat.cpp "
    "(server_chat_convert_anthropic_to_oai)"
)

FIELDS = frozenset(
    {
        "model",
        "messages",
        "max_tokens",
        "system",
        "temperature",
        "top_p",
        "top_k",
        "stop_sequences",
        "stream",
        "tools",
        "tool_choice",
        "thinking",
    }
)
"""The request fields its README lists, and ``thinking``, which its conversion reads."""

SERVER = Server(
    "llama-cpp",
    "llama.cpp (llama-server)",
    DOCS,
    fields=FIELDS,
    refuses=(
        Refusal("tool_choice.disable_parallel_tool_use", SOURCE),
        *cache_markers(SOURCE + " (cache_control is not read)"),
    ),
    blocks=frozenset({"text", "image", "thinking", "tool_use", "tool_result"}),
    blocks_source=SOURCE + " (the block types it converts; others are skipped)",
    tool_types=frozenset({"custom"}),
    tool_choices=frozenset({"auto", "any"}),
    thinking_types=frozenset({"enabled"}),
    notes=(
        f"`tool_choice` `tool` is sent as `any` over the named tool alone, `none` as no tools ({SOURCE})",
        f"`thinking` `adaptive` is sent as `enabled`; `disabled` is not sent: the model's template decides ({SOURCE})",
    ),
)
"""llama.cpp's llama-server."""
