"""The Anthropic-compatible servers an ``anthropic`` body can be written for, as data.

One module per server holds its :class:`~.server.Server` record with the source of each
fact: the hosted APIs (DeepSeek, Kimi, Z.ai, MiniMax), the local servers people put behind
Claude Code (Ollama, llama.cpp's llama-server, vLLM, SGLang, LM Studio) and Amazon
Bedrock's Mantle endpoint, which runs Claude itself. The writer reads the chosen one
(:func:`fit_written`): the option ``server`` names it (``options={"server": "deepseek"}``,
CLI ``--option server=deepseek``); with none, the target is Anthropic itself and the body
is sent as written. :func:`server_for_url` names
the server a base URL points at (``chatcodec serve``'s ``--upstream-url
https://api.deepseek.com/anthropic``). Choosing and reporting are shared with the
OpenAI-compatible servers (:mod:`chatcodec._providers.kit.servers`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from chatcodec._providers.anthropic.rules import RULES, server_rules
from chatcodec._providers.anthropic.servers import (
    bedrock_mantle,
    deepseek,
    kimi,
    llama_cpp,
    lmstudio,
    minimax,
    ollama,
    sglang,
    vllm,
    zai,
)
from chatcodec._providers.anthropic.servers.fitting import fit_request
from chatcodec._providers.anthropic.servers.server import Server, ServerCall
from chatcodec.codec_kit import servers as kit_servers

if TYPE_CHECKING:
    from chatcodec.contract import EncodeContext

__all__ = ["OPTION", "SERVERS", "TABLE", "Server", "default_version", "fit_written", "server_for_url", "server_named"]

TABLE: kit_servers.ServerTable[Server] = kit_servers.ServerTable(
    module.SERVER
    for module in (deepseek, kimi, zai, minimax, ollama, llama_cpp, vllm, sglang, lmstudio, bedrock_mantle)
)
"""The servers (:class:`~chatcodec._providers.kit.servers.ServerTable`)."""
SERVERS: Mapping[str, Server] = TABLE.servers
"""Every server by its option name, in the docs' order."""
OPTION = kit_servers.OPTION


def server_named(name: str) -> Server:
    """The server called ``name``; an unknown name is refused with the known ones."""
    return TABLE.named(name)


def server_for_url(url: str) -> Server | None:
    """The server a base URL points at (host and path: ``https://api.deepseek.com/anthropic``), or None."""
    return TABLE.for_url(url)


def default_version(options: Mapping[str, object]) -> str:
    """The API version a body is written for when ``options`` name none: the version a
    server running Claude requires (Bedrock's Mantle endpoint), else the rules' default,
    the one every current official SDK sends (:data:`~chatcodec._providers.anthropic.rules.RULES`).
    The gateway sends it as ``anthropic-version`` when the caller sends none, so the body
    it writes follows the rules the library applies to the same request."""
    server = TABLE.chosen(options)
    required = None if server is None else server.api_version
    return RULES.default_version if required is None else required


def fit_written(wire: dict[str, Any], context: EncodeContext) -> None:
    """``wire`` (the body written) fitted to the server the options name, if any
    (:func:`~.fitting.fit_request`), and the context's rules made that server's: its own
    models behind the API's shape, not the API's version and Claude rules
    (:func:`~chatcodec._providers.anthropic.rules.server_rules`); or, for a server running
    Claude itself (:attr:`~.server.Server.api_version`), the API's and Claude's rules at
    the version the server requires, unless the options name one."""
    server = TABLE.chosen(context.options)
    if server is None:
        return
    if server.api_version is None:
        context.rules = server_rules(server)
    elif "api_version" not in context.options:
        context.options = MappingProxyType({**context.options, "api_version": server.api_version})
    model = wire.get("model")
    # the class itself, not the alias ServerCall (kit's ServerCall[Server]): see openai_chat/servers
    call: ServerCall = kit_servers.ServerCall(
        server, wire, model if isinstance(model, str) else None, context.options, context.losses
    )
    fit_request(wire, call)
