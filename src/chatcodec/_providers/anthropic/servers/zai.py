"""Z.ai's GLM Anthropic API (``https://api.z.ai/api/anthropic``, in China
``https://open.bigmodel.cn/api/anthropic``).

Z.ai documents the endpoint for Claude Code (https://docs.z.ai/devpack/tool/claude) and
publishes no field list, so the body keeps the Anthropic API's fields less what only
Anthropic's own servers act on (:data:`~.server.HOSTED_BY_ANTHROPIC`). Anthropic's server
tools are not run there: Z.ai offers web search and page reading to Claude Code as MCP
servers of its own instead (https://docs.z.ai/devpack/mcp/search-mcp-server), so a
``web_search_20250305`` tool is not sent, reported.
"""

from __future__ import annotations

from chatcodec._providers.anthropic.servers.server import HOSTED_BY_ANTHROPIC, Server

DOCS = "https://docs.z.ai/devpack/tool/claude"

SERVER = Server(
    "zai",
    "Z.ai (GLM)",
    DOCS,
    hosts=("api.z.ai/api/anthropic", "open.bigmodel.cn/api/anthropic"),
    refuses=HOSTED_BY_ANTHROPIC,
    tool_types=frozenset({"custom"}),
    notes=(
        "web search and page reading come from Z.ai's own MCP servers (https://docs.z.ai/devpack/mcp/search-mcp-server)",
    ),
)
"""Z.ai."""
