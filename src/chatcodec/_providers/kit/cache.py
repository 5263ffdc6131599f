"""Cache markers: a canonical ``cache_control`` <-> the wire's ``cache_control`` object
(Anthropic's spelling, which the canonical marker copies). OpenAI's
``prompt_cache_breakpoint`` is OpenAI's own: :mod:`chatcodec._providers.families.openai.cache_breakpoint`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._narrow import as_dict

if TYPE_CHECKING:  # annotations only: decoding a marker loads no content model
    pass


def decode_cache_control(value: object) -> dict[str, Any] | None:
    """The canonical marker for a wire ``cache_control``, or None when it has another shape
    (an unknown ``type`` or extra keys), in which case the caller keeps it in the bag."""
    fields = as_dict(value)
    if fields is None:
        return None
    if fields.get("type") != "ephemeral" or not set(fields) <= {"type", "ttl"}:
        return None
    if "ttl" in fields and not isinstance(fields["ttl"], str):
        return None
    return dict(fields)


def encode_cache_control(cache_control: Mapping[str, Any]) -> dict[str, Any]:
    """``{"type": "ephemeral"}`` plus the TTL when one is set (``cache_control``: the
    canonical marker's data, or the model)."""
    ttl: str | None = cache_control.get("ttl")
    kind: str = cache_control.get("type", "ephemeral")
    return {"type": kind} if ttl is None else {"type": kind, "ttl": ttl}
