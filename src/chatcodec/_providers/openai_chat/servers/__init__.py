"""The OpenAI-compatible servers an ``openai-chat`` body can be written for, as data.

One module per server holds its :class:`~.server.Server` record with the source of each
fact. The writer reads the chosen one (:func:`chosen_server`):

1. the option ``server`` names it (``options={"server": "deepseek"}``, CLI
   ``--option server=deepseek``);
2. otherwise a model id only one server spells so names it (``deepseek-reasoner``,
   ``gemini-3-flash-preview``, ``grok-4``, ``mistral-large-latest``);
3. otherwise the target is OpenAI, unnamed: what a reading of ``openai-chat`` kept is
   written back as it came, and only what the writer would place for another server
   (a Gemini signature) is left out, reported.

:func:`server_for_url` names the server a base URL points at (``chatcodec serve``'s
``--upstream-url``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache, lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from chatcodec._providers.openai_chat.server_options import AS_OBJECT, IN_CONTENT
from chatcodec._providers.openai_chat.servers import (
    azure,
    deepseek,
    gemini,
    groq,
    kimi,
    mistral,
    ollama,
    openai,
    openrouter,
    sglang,
    together,
    vllm,
    xai,
)
from chatcodec._providers.openai_chat.servers.fitting import fit_request, holds_placed
from chatcodec._providers.openai_chat.servers.server import Refusal, Server, ServerCall, ServerRule
from chatcodec.codec_kit import servers as kit_servers

if TYPE_CHECKING:
    from chatcodec.contract import EncodeContext

__all__ = [
    "DEFAULT",
    "SERVERS",
    "TABLE",
    "Refusal",
    "Server",
    "ServerCall",
    "ServerRule",
    "chosen_server",
    "fit_written",
    "prepare",
    "server_for_model",
    "server_for_url",
    "server_named",
]

TABLE: kit_servers.ServerTable[Server] = kit_servers.ServerTable(
    module.SERVER
    for module in (
        openai,
        azure,
        gemini,
        deepseek,
        kimi,
        openrouter,
        vllm,
        sglang,
        ollama,
        groq,
        mistral,
        xai,
        together,
    )
)
"""The servers (:class:`~chatcodec._providers.kit.servers.ServerTable`)."""
SERVERS: Mapping[str, Server] = TABLE.servers
"""Every server by its option name, in the docs' order."""

DEFAULT = SERVERS["openai"]
"""The target when nothing names another."""

OPTION = kit_servers.OPTION
"""The option's public name."""


def server_named(name: str) -> Server:
    """The server called ``name``; an unknown name is refused with the known ones."""
    return TABLE.named(name)


@cache
def _model_patterns() -> tuple[tuple[re.Pattern[str], Server], ...]:
    return tuple((re.compile(pattern), server) for server in SERVERS.values() for pattern in server.models)


def server_for_model(model: str | None) -> Server | None:
    """The server a model id names unambiguously (``deepseek-chat``), or None."""
    if not model:
        return None
    return _server_for_model(model)


@lru_cache(maxsize=1024)
def _server_for_model(model: str) -> Server | None:
    """Every server's model patterns tried in turn (on each request, were they not):
    remembered by model id, as an agent sends the same one every turn (the table is fixed)."""
    lowered = model.lower()
    return next((server for pattern, server in _model_patterns() if pattern.fullmatch(lowered)), None)


def server_for_url(url: str) -> Server | None:
    """The server a base URL points at (its host, or host and port), or None."""
    return TABLE.for_url(url)


def chosen_server(options: Mapping[str, object], model: object) -> tuple[Server, bool]:
    """The server a body is written for, and whether something named it (the option or
    the model id) rather than the default."""
    named = options.get(OPTION)
    if isinstance(named, Server):
        return named, True
    chosen = TABLE.chosen(options)
    if chosen is not None:
        return chosen, True
    found = server_for_model(model if isinstance(model, str) else None)
    return (found, True) if found is not None else (DEFAULT, False)


REASONING_OPTION = "reasoning_field"


def prepare(request: Mapping[str, Any], context: EncodeContext) -> tuple[Server, bool]:
    """The server the request is written for (see the module docstring); a named server
    that takes reasoning back gets it there unless the caller's ``reasoning_field`` says
    otherwise (DeepSeek's ``reasoning_content``, OpenRouter's ``reasoning_details``); one whose
    parts take ``thinking`` (Mistral) gets each thinking part in its place in ``content``, so
    interleaved reasoning (thinking, text, thinking, text) keeps its order (issue 61)."""
    model = request.get("model")
    server, named = chosen_server(context.options, model if model is not None else context.option("model"))
    if named and server.reasoning_field is not None and REASONING_OPTION not in context.options:
        chunks = "thinking" in server.parts
        context.options = MappingProxyType(
            {**context.options, REASONING_OPTION: server.reasoning_field, **({IN_CONTENT: True} if chunks else {})}
        )
    if named and server.reasoning_object:
        context.options = MappingProxyType({**context.options, AS_OBJECT: True})
    return server, named


def fit_written(wire: dict[str, Any], server: Server, named: bool, context: EncodeContext) -> None:
    """``wire`` (the body written) fitted to ``server`` (:func:`~.fitting.fit_request`): for the
    default server, unnamed, only when it holds what the writer placed (no call made for the fit
    where it holds none, as most bodies do)."""
    if not named and not holds_placed(wire):
        return
    model = wire.get("model")
    # the class itself: calling the alias ServerCall (kit's ServerCall[Server]) goes through typing's
    # generic alias, which tries to set __orig_class__ on the slotted object and catches the error (8 k)
    call: ServerCall = kit_servers.ServerCall(
        server, wire, model if isinstance(model, str) else None, context.options, context.losses
    )
    fit_request(wire, call, named=named)
