"""What the dialect readers (:mod:`chatcodec._dialects`) read of the Anthropic shape outside
a request body: a content block found in a history of another shape (a ``thinking`` or
``tool_use`` block in a message list) and a tool definition, as canonical data (the codec's
``decode_part`` / ``decode_tools``, reached through ``get_codec``). An Anthropic assistant
message is not one of the readers' shapes: its blocks are read one by one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chatcodec._providers.anthropic import parts, tools
from chatcodec._providers.anthropic.markers import PROVIDER

if TYPE_CHECKING:
    from chatcodec.contract import DecodeContext

_ANY_BLOCK = parts.ASSISTANT_KINDS | parts.USER_KINDS
"""A block read outside its message may be of any kind a user or assistant turn holds."""


def decode_part(part: dict[str, Any]) -> dict[str, Any]:
    """One content block, of any kind a turn holds, as canonical part data."""
    return parts.decode_part(part, allowed=_ANY_BLOCK)


def decode_assistant(message: dict[str, Any]) -> dict[str, Any]:
    """Not read outside a body (see the module docstring)."""
    del message
    raise NotImplementedError(f"the {PROVIDER} codec reads no assistant messages outside a body")


def decode_tools(definitions: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """A ``tools`` list as canonical tool data (client tools only: a server tool has no
    canonical tool and is left out)."""
    canonical: dict[str, Any] = {}
    tools.decode_tools({"tools": definitions}, canonical, {}, context)
    decoded: list[dict[str, Any]] = canonical.get("tools") or []
    return decoded
