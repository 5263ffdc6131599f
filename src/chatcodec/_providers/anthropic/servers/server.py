"""The record each Anthropic-compatible server is described by.

DeepSeek, Kimi (Moonshot), Z.ai and MiniMax each serve the Anthropic Messages API at a
base URL of their own (``https://api.deepseek.com/anthropic``...), which is how people
put them behind Claude Code; so do the local servers (Ollama, llama.cpp's llama-server,
vLLM, SGLang, LM Studio) and Amazon Bedrock's Mantle endpoint. Each takes the same body
with differences of its own, listed in its compatibility page or its source: fields it
ignores (``top_k``, ``mcp_servers``), block types it does not take (images, documents,
server tools), nested fields it ignores (``cache_control`` on a tool), the ``tool_choice``
and ``thinking`` types it acts on. Here each server is one :class:`Server` value in its own
module beside this one, every fact with its source; the writer reads it (:mod:`.fitting`)
and sends only what the server documents, each change a ``rule`` loss naming the server
(choosing, reporting and rules are shared with the OpenAI-compatible servers:
:mod:`chatcodec._providers.kit.servers`).
"""

from __future__ import annotations

from dataclasses import dataclass

from chatcodec.codec_kit import servers as kit_servers
from chatcodec.contract import SamplingRange

__all__ = ["HOSTED_BY_ANTHROPIC", "Refusal", "Server", "ServerCall", "ServerRule", "cache_markers"]

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
    fields_source: str = ""
    """Where :attr:`fields` come from, when not its page (a request model in its source)."""
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
    tool_choices: frozenset[str] | None = None
    """The ``tool_choice`` types it acts on (``auto``, ``any``, ``tool``, ``none``); None:
    every type. Another is sent as the nearest it acts on (:mod:`.fitting`): ``tool`` as
    ``any`` over the named tool alone, ``none`` as no tools; ``auto`` is what a server
    does without one."""
    thinking_types: frozenset[str] | None = None
    """The ``thinking.type`` values it acts on (``enabled``, ``disabled``, ``adaptive``);
    None: every value (or it takes no ``thinking``: see :attr:`fields`). ``adaptive`` goes
    as ``enabled`` to a server acting only on that, or is left to ``output_config.effort``
    where the server reads that instead; another value is not sent."""
    image_sources: frozenset[str] | None = None
    """The image ``source.type`` values it takes (``base64``, ``url``); None: every one."""
    api_version: str | None = None
    """Set for a server that runs Claude itself (Bedrock's Mantle endpoint): the Messages
    API version its page requires, under which the API's and Claude's model rules apply
    (unless the ``api_version`` option names another). None: it runs its own models
    behind the API's shape (:func:`~chatcodec._providers.anthropic.rules.server_rules`)."""
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


CACHE_MARKED = (
    "system[]",
    "tools[]",
    *(f"messages[].content[{kind}]" for kind in ("text", "image", "document", "tool_use", "tool_result")),
)
"""Where the Messages API takes a ``cache_control`` breakpoint (the top-level one is a
field of its own)."""


def cache_markers(source: str) -> tuple[Refusal, ...]:
    """A refusal of every ``cache_control`` breakpoint, for a server that caches by itself
    or not at all (the markers do nothing there; sent, they say a cache exists)."""
    return tuple(Refusal(f"{place}.cache_control", source) for place in CACHE_MARKED)
