"""Request fields that name state only the front's own provider keeps.

A Responses request may point at what OpenAI keeps for it instead of carrying it: a
``conversation`` (its items) or a stored ``prompt`` template; the front's edge lists such
fields (``Front.provider_state``, with their sources). Another upstream cannot resolve
them, and dropping the field would send a request whose conversation or instructions
silently went missing; so, as ``previous_response_id`` without a store is, such a
request is refused 400 unless the upstream is that same API.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.serve._fronts import front
from chatcodec.serve._refusal import RefusalError

__all__ = ["check_provider_state"]


def check_provider_state(api: str, payload: Mapping[str, Any], upstream: str) -> None:
    """Refuse (400) a request of ``api`` naming its provider's state for another ``upstream``."""
    if upstream == api:
        return
    for name in front(api).provider_state:
        if payload.get(name) is not None:
            raise RefusalError(
                400,
                f"`{name}` names state kept by the {api} provider, which the {upstream} upstream this "
                f"model is routed to cannot read: send its content in the request instead",
            )
