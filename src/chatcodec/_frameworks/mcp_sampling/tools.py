"""Tool definitions (``tools``: ``name``, ``description``, ``inputSchema``) and
``toolChoice`` (``{"mode": "auto" | "none" | "required"}``), both ways.

A definition's other fields (``title``, ``annotations``, ``outputSchema``, ``icons``,
``_meta``) ride in its bag. The wire cannot force one named tool: such a choice is sent as
``required`` and reported."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.mcp_sampling.markers import DISPLAY, KIT, PROVIDER
from chatcodec.codec_kit import as_dict, leftovers, tool_name, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext

EMPTY_SCHEMA: dict[str, Any] = {"type": "object"}
"""The ``inputSchema`` of a tool that takes no parameters (the schema requires one)."""


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Read ``tools`` and ``toolChoice`` into ``canonical``; a choice without a mode stays in ``bag``."""
    del context
    tools = bag.pop("tools", None)
    if tools is not None:
        canonical["tools"] = [
            KIT.attach(
                {
                    "type": "function",
                    "name": tool["name"],
                    **({"description": tool["description"]} if "description" in tool else {}),
                    "parameters": tool["inputSchema"],
                },
                leftovers(tool, ("name", "description", "inputSchema")),
            )
            for tool in tools
        ]
    choice = bag.get("toolChoice")
    if choice is not None and set(choice) == {"mode"}:
        del bag["toolChoice"]
        canonical["tool_choice"] = {"type": choice["mode"]}


def encode_tools(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext) -> None:
    """Write ``tools`` and ``toolChoice``; what the wire cannot say is a loss."""
    losses = context.losses
    tools = request.get("tools")
    if tools:
        written: list[dict[str, Any]] = []
        for index, tool in enumerate(tools):
            at = ("tools", index)
            if tool.get("type", "function") != "function":
                losses.add(at, f"{tool.get('type')} tool", f"{DISPLAY} tools are functions")
                continue
            definition = wire_fields(KIT.claim(losses, tool.get("provider_metadata"), at))
            definition["name"] = tool_name(tool["name"], losses, at, PROVIDER)
            if tool.get("description") is not None:
                definition["description"] = tool["description"]
            parameters = tool.get("parameters")
            definition["inputSchema"] = dict(parameters) if parameters is not None else dict(EMPTY_SCHEMA)
            for key in ("strict", "cache_control"):
                if tool.get(key) is not None:
                    losses.add((*at, key), key, f"{DISPLAY} tools have no {key}", "setting")
            written.append(definition)
        wire["tools"] = written
    for key in ("provider_tools", "parallel_tool_calls"):
        if request.get(key) is not None:
            losses.add((key,), key, f"{DISPLAY} requests have no {key}", "setting")
    choice = request.get("tool_choice")
    if choice is None:
        return
    kind = choice["type"]
    if kind == "tool":
        losses.add(
            ("tool_choice",),
            f"tool choice {choice.get('name')!r}",
            f"{DISPLAY} cannot force one tool; sent 'required'",
            "setting",
        )
        kind = "required"
    kept = as_dict(wire.get("toolChoice")) or {}
    wire["toolChoice"] = {**kept, "mode": kind}
