"""A written ``tool_choice`` and ``thinking`` fitted to what an Anthropic-compatible server
acts on (:attr:`~.server.Server.tool_choices`, :attr:`~.server.Server.thinking_types`).

A local server converts the Messages body to its own chat request and acts on some of
these types only: llama-server turns ``tool`` into "any tool" and ignores ``none``
(``server_chat_convert_anthropic_to_oai`` in ggml-org/llama.cpp's
``tools/server/server-chat.cpp``), Ollama ignores ``tool_choice`` altogether and
``thinking`` ``adaptive`` (``anthropic/anthropic.go``, ``FromMessagesRequest``). Sent as
they are, the server does something other than asked with no word of it; so each is sent
as the nearest type the server acts on, with the same outcome where there is one, each
change a ``rule`` loss:

- ``tool_choice`` ``none``: no ``tools`` (no tool can be called, as asked);
- ``tool``, where ``any`` is acted on: ``any`` over the named tool alone (that tool is
  called, as asked);
- ``any`` or ``tool`` otherwise: not sent (the model chooses);
- ``auto``: not sent, silently (what the server does without one);
- ``thinking`` ``adaptive``: left to ``output_config.effort`` where the server reads it and
  the body has one, else sent as ``enabled`` where that is acted on;
- any other ``thinking`` type the server does not act on: not sent.
"""

from __future__ import annotations

from typing import Any

from chatcodec._providers.anthropic.servers.server import ServerCall
from chatcodec.codec_kit import as_dict, as_list

__all__ = ["fit_thinking", "fit_tool_choice"]


def fit_tool_choice(body: dict[str, Any], call: ServerCall) -> None:
    """``tool_choice`` as the nearest type the server acts on (see the module docstring)."""
    acted = call.server.tool_choices
    choice = as_dict(body.get("tool_choice"))
    kind = choice.get("type") if choice is not None else None
    if acted is None or choice is None or kind in acted:
        return
    call.rule = "tool_choice"
    title = call.server.title
    if kind == "auto":
        del body["tool_choice"]  # what the server does without one
        if len(choice) > 1:  # disable_parallel_tool_use, which it then cannot be told
            call.report(("tool_choice",), "tool_choice auto", f"not sent: {title} ignores tool_choice")
    elif kind == "none":
        del body["tool_choice"]
        if "tools" in body:
            del body["tools"]
            call.report(("tools",), "tools", f"not sent: tool_choice none asks for no tool call, which {title} ignores")
        else:
            call.report(("tool_choice",), "tool_choice none", f"not sent: {title} ignores it")
    elif kind == "tool" and "any" in acted and _narrowed(body, choice.get("name")):
        body["tool_choice"] = {**choice, "type": "any"}
        body["tool_choice"].pop("name", None)
        call.report(
            ("tool_choice",), "tool_choice tool", f"sent as any over the named tool alone ({title} takes no tool name)"
        )
    else:
        del body["tool_choice"]
        call.report(("tool_choice",), f"tool_choice {kind}", f"not sent: {title} ignores it, and the model chooses")


def _narrowed(body: dict[str, Any], name: object) -> bool:
    """``tools`` left holding the tool called ``name`` alone; False when none is so called."""
    tools = as_list(body.get("tools")) or []
    named = [tool for tool in tools if (as_dict(tool) or {}).get("name") == name]
    if not named:
        return False
    body["tools"] = named[:1]
    return True


def fit_thinking(body: dict[str, Any], call: ServerCall) -> None:
    """``thinking`` as the nearest type the server acts on (see the module docstring)."""
    acted = call.server.thinking_types
    thinking = as_dict(body.get("thinking"))
    kind = thinking.get("type") if thinking is not None else None
    if acted is None or thinking is None or kind in acted:
        return
    call.rule = "thinking"
    title = call.server.title
    effort = (as_dict(body.get("output_config")) or {}).get("effort")
    fields = call.server.fields
    reads_effort = fields is None or "output_config" in fields
    if kind == "adaptive" and effort is not None and reads_effort:
        del body["thinking"]
        call.report(("thinking",), "thinking adaptive", f"not sent: {title} ignores it and reads output_config.effort")
    elif kind == "adaptive" and "enabled" in acted:
        body["thinking"] = {"type": "enabled"}
        call.report(("thinking",), "thinking adaptive", f"sent as enabled, the type {title} acts on")
    else:
        del body["thinking"]
        call.report(("thinking",), f"thinking {kind}", f"not sent: {title} ignores it")
