"""Tool definitions in the providers' shapes, read wherever chatcodec takes tools.

People hold their tools in the shape their SDK wants: OpenAI's ``{"type": "function",
"function": {name, description, parameters, strict}}`` or Anthropic's ``{name,
description, input_schema}``. ``ChatRequest(tools=...)`` mappings (``encode_request``
given a dict, ``Conversation.dump(tools=...)``, ``validate_model(ChatRequest, ...)``)
read both here, each with its own codec's tool decoder, so a tool given in a provider's
shape is the same canonical tool the codec decodes from that provider's request body
(fields with no canonical place ride in ``provider_metadata``). Canonical tools
(``{name, description, parameters}``) pass through; anything else is left for the
schema to report where the caller wrote it.
"""

from __future__ import annotations

from typing import Any

from chatcodec._dialects.base import ANTHROPIC, OPENAI_CHAT, dialect_codec
from chatcodec._narrow import as_dict, as_list


def read_tool(tool: object) -> Any:
    """One tool definition as canonical data; ``tool`` itself when it already is, or
    when it is in no shape known here."""
    fields = as_dict(tool)
    if fields is None:
        return tool
    function = as_dict(fields.get("function"))
    if fields.get("type") == "function" and function is not None and isinstance(function.get("name"), str):
        return _decoded_with(OPENAI_CHAT, fields)
    if "input_schema" in fields and "parameters" not in fields and isinstance(fields.get("name"), str):
        return _decoded_with(ANTHROPIC, fields)
    return tool


def read_tools(tools: object) -> Any:
    """A tools list with each tool read; the same list when none needed it."""
    listed = as_list(tools)
    if listed is None:
        return tools
    read = [read_tool(tool) for tool in listed]
    return listed if all(new is old for new, old in zip(read, listed, strict=True)) else read


def _decoded_with(provider: str, tool: dict[str, Any]) -> Any:
    """``tool`` read by ``provider``'s own request decoder for tools (loaded on first use)."""
    decoded = dialect_codec(provider).decode_tools([tool])
    return tool if not decoded else decoded[0]  # a server tool is no function tool: the schema says so
