"""OpenAI's ``prompt_cache_breakpoint`` <-> the canonical cache marker, the same object on
Chat parts and Responses input parts (both folders read and write it here).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._narrow import as_dict

if TYPE_CHECKING:  # annotations only: decoding a marker loads no content model
    from chatcodec._losses import LossRecorder, Steps


OPENAI_CACHE_TTLS = ("30m", "12h")
"""The lifetimes OpenAI's ``prompt_cache_breakpoint`` accepts (Chat and Responses)."""


def decode_prompt_cache_breakpoint(value: object) -> dict[str, Any] | None:
    """The canonical cache marker for OpenAI's ``prompt_cache_breakpoint``
    (``{"mode": "explicit", "ttl"?: "30m" | "12h"}``, the same object on Chat parts and
    Responses input parts), or None when it has another shape (kept in the bag)."""
    fields = as_dict(value)
    if fields is None:
        return None
    if fields.get("mode") != "explicit" or set(fields) - {"mode", "ttl"}:
        return None
    if "ttl" not in fields:
        return {"type": "ephemeral"}
    return {"type": "ephemeral", "ttl": fields["ttl"]} if fields["ttl"] in OPENAI_CACHE_TTLS else None


def encode_prompt_cache_breakpoint(cache_control: Mapping[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """OpenAI's ``prompt_cache_breakpoint`` for a canonical marker; a lifetime OpenAI does
    not offer is left to the default, with a loss."""
    breakpoint: dict[str, Any] = {"mode": "explicit"}
    ttl: str | None = cache_control.get("ttl")
    if ttl in OPENAI_CACHE_TTLS:
        breakpoint["ttl"] = ttl
    elif ttl is not None:
        why = f"OpenAI cache breakpoints last {' or '.join(OPENAI_CACHE_TTLS)}; the default is used"
        losses.add((*at, "cache_control", "ttl"), f"cache ttl {ttl!r}", why)
    return breakpoint
