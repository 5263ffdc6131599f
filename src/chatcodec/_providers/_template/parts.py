"""One canonical part -> what it contributes to a wire message.

``encode_part(part, context, at)`` reads a part's canonical *data* and gives the wire
fields it adds, or None for a part the format cannot carry, reported as a loss here (no
silent drop: every change is a loss or an error). Every ``match`` over the canonical
part kinds of a real provider ends in ``assert_never``, so a new kind fails type-checking
in every codec. Decoding parts stays provider-shaped: a wire with content blocks has a
``decode_part`` here too; the toy wire's content is one string, read by ``messages.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers._template.markers import KIT
from chatcodec.contract import EncodeContext, Steps


def encode_part(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The message fields one canonical part contributes (None: not carried, reported)."""
    kind = part["type"]
    if kind != "text":
        context.losses.add(at, f"{kind} part", f"Template Chat messages carry text only, not {kind}")
        return None
    KIT.report_foreign(context.losses, part.get("provider_metadata"), at)
    if part.get("cache_control") is not None:
        context.losses.add((*at, "cache_control"), "cache_control", "Template Chat has no cache breakpoints", "setting")
    return {"content": part["text"]}
