"""What the dialect readers (:mod:`chatcodec._dialects`) read of the OpenAI Chat shape
outside a request body: a content part, an assistant message with its compatible servers'
reasoning fields and tool calls, and a ``tools`` list, as canonical data (the codec's
``decode_part`` / ``decode_assistant`` / ``decode_tools``, reached through ``get_codec``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chatcodec._providers.openai_chat import assistant, parts, tools

if TYPE_CHECKING:
    from chatcodec.contract import DecodeContext


def decode_part(part: dict[str, Any]) -> dict[str, Any]:
    """A content part of a system, user or tool message, as canonical part data."""
    return parts.decode_part(part)


def decode_assistant(message: dict[str, Any]) -> dict[str, Any]:
    """One assistant message of a request's history, as canonical message data."""
    return assistant.decode_assistant(message)


def decode_tools(definitions: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """A ``tools`` list as canonical tool data (function tools only: a custom tool has no
    canonical tool and is left out)."""
    canonical: dict[str, Any] = {}
    tools.decode_tools({"tools": definitions}, canonical, {}, context)
    decoded: list[dict[str, Any]] = canonical.get("tools") or []
    return decoded
