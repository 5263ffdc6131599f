"""The wire's message list <-> canonical messages.

``decode_messages(wire, context)`` gives canonical message dicts (what
:class:`~chatcodec.UserMessage` and the others validate: tags written, no ``None``);
``encode_messages(messages, start, context)`` writes ``messages[start:]`` (a format that
keeps a leading system prompt elsewhere writes it from ``request.py`` and passes the
count of those messages as ``start``; this one keeps system turns in the list: 0).
What a wire message holds beyond the canonical fields is kept in its bag
(``provider_metadata[PROVIDER]``) and written back from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._providers._template.markers import KIT
from chatcodec._providers._template.parts import encode_part
from chatcodec.codec_kit import leftovers, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext, Steps

_MAPPED = ("role", "content")
"""A wire message's fields with a canonical home."""


def decode_messages(wire: list[Any], context: DecodeContext) -> list[dict[str, Any]]:
    """Wire messages as canonical message dicts."""
    del context  # nothing shared between messages on this wire
    decoded: list[dict[str, Any]] = []
    for message in wire:
        content = message["content"]
        canonical = {"role": message["role"], "content": [{"type": "text", "text": content}] if content else []}
        decoded.append(KIT.attach(canonical, leftovers(message, _MAPPED)))
    return decoded


def encode_messages(messages: Sequence[Mapping[str, Any]], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as wire messages: each part's text joined (what the wire cannot
    carry reported by :func:`~.parts.encode_part`)."""
    return [
        encode_message(message, context, ("messages", index)) for index, message in enumerate(messages[start:], start)
    ]


def encode_message(message: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """One canonical message as a wire message (a response's too, at its own path)."""
    role = message["role"]
    if role == "developer":  # reported by the shared history rules (capabilities: no developer role)
        role = "system"
    elif role not in ("system", "user", "assistant"):
        context.losses.add(at, f"{role} message", "Template Chat has no such role; sent as a user turn")
        role = "user"
    written = wire_fields(KIT.claim(context.losses, message.get("provider_metadata"), at))
    written["role"] = role
    written["content"] = _text(message["content"], context, at)
    return written


def _text(content: str | Sequence[Mapping[str, Any]], context: EncodeContext, at: Steps) -> str:
    if isinstance(content, str):
        return content
    pieces = (encode_part(part, context, (*at, "content", index)) for index, part in enumerate(content))
    return "".join(piece["content"] for piece in pieces if piece is not None)
