"""The record each Anthropic-compatible server is described by.

DeepSeek, Kimi (Moonshot), Z.ai and MiniMax each serve the Anthropic Messages API at a
base URL of their own (``https://api.deepseek.com/anthropic``...), which is how people
put them behind Claude Code. Each takes the same body with differences of its own,
listed in its compatibility page: fields it ignores (``top_k``, ``mcp_servers``), block
types it does not take (images, documents, server tools), nested fields it ignores
(``cache_control`` on a tool). Here each server is one :class:`Server` value in its own
module beside this one, every fact with its source; the writer reads it (:mod:`.fitting`)
and sends only what the server documents, each change a ``rule`` loss naming the server
(choosing, reporting and rules are shared with the OpenAI-compatible servers:
:mod:`chatcodec._providers.kit.servers`).
"""

from __future__ import annotations

from dataclasses import dataclass

from chatcodec.contract import SamplingRange
from chatcodec.contract import servers as kit_servers

__all__ = ["HOSTED_BY_ANTHROPIC", "Refusal", "Server", "ServerCall", "ServerRule"]

Refusal = kit_servers.Refusal


@dataclass(frozen=True, slots=True)
class Server:
    """One Anthropic-compatible server: what it takes in a Messages request."""

    name: str
    """The option value that names it (``options={"server": "deepseek"}``)."""
    title: str
    """How the docs and losses name it."""
    docs: str
    """Its Anthropic compatibility page."""
    hosts: tuple[str, ...] = ()
    """Base URLs that name it, as ``host/path`` (``api.deepseek.com/anthropic``)."""
    fields: frozenset[str] | None = None
    """The request fields it documents as taken; None: it publishes no list (the
    Anthropic API's fields, less :attr:`refuses`)."""
    refuses: tuple[Refusal, ...] = ()
    """Fields it ignores or refuses: top-level (``top_k``) or nested, as a path of
    ``.``-separated steps where ``name[]`` is each item of a list and ``name[type]`` each
    item of that ``type`` (``tools[].cache_control``, ``messages[].content[text].citations``)."""
    blocks: frozenset[str] | None = None
    """The message content block types it takes (a block of another type is not sent);
    None: every type."""
    blocks_source: str = ""
    tool_types: frozenset[str] | None = None
    """The tool types it takes (``custom``: a tool the caller runs; Anthropic's server
    tools such as ``web_search_20250305`` run on Anthropic's servers); None: every type."""
    rules: tuple[ServerRule, ...] = ()
    """What field lists cannot say."""
    sampling_ranges: tuple[SamplingRange, ...] | None = None
    """The sampling ranges it documents, where they differ from the Messages API's
    (DeepSeek's ``temperature`` goes to 2); None: the API's."""
    notes: tuple[str, ...] = ()
    """Other differences, for the docs (one line each, with its source)."""
    semconv_name: str = ""
    """Its ``gen_ai.provider.name`` in the OpenTelemetry GenAI conventions
    (https://opentelemetry.io/docs/specs/semconv/registry/attributes/gen-ai/#gen-ai-provider-name);
    empty: the conventions list none, and its option name is used."""


ServerCall = kit_servers.ServerCall[Server]
"""A body being fitted to one server (:class:`chatcodec._providers.kit.servers.ServerCall`)."""
ServerRule = kit_servers.ServerRule[Server]
"""A rule a server adds (:class:`chatcodec._providers.kit.servers.ServerRule`)."""

_HOSTED = (
    "run on Anthropic's own servers (MCP connector, code execution container, context editing: "
    "https://platform.claude.com/docs/en/agents-and-tools/mcp-connector); DeepSeek and MiniMax "
    "document them ignored"
)
HOSTED_BY_ANTHROPIC = tuple(Refusal(name, _HOSTED) for name in ("mcp_servers", "container", "context_management"))
"""Beta fields only Anthropic's own servers act on, for a server that publishes no field list."""
