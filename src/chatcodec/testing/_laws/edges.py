"""What the edge laws read of a codec's HTTP facts, through public names only: the codec's
``edge`` (a codec without one converts bodies and is neither served nor called, so the edge
laws have no case for it) and the status an error type stands for, read from every
installed codec's edge as the gateway reads it."""

from __future__ import annotations

import chatcodec
from chatcodec.contract import Edge


def edge_of(name: str) -> Edge | None:
    """The codec's edge, or None for a codec without one."""
    edge = getattr(chatcodec.get_codec(name), "edge", None)
    return edge if isinstance(edge, Edge) else None


def the_edge(name: str) -> Edge:
    """The edge of a codec a law's cases say has one."""
    edge = edge_of(name)
    assert edge is not None, f"{name} has no edge"
    return edge


def status_of(error_type: str | None, provider: str | None = None) -> int:
    """The HTTP status an error type stands for: in ``provider``'s own vocabulary first (error
    types are namespaced per codec), else in any installed codec's (500 for one none names)."""
    for name in (*((provider,) if provider is not None else ()), *chatcodec.registered_providers()):
        edge = edge_of(name)
        if edge is not None and error_type is not None and error_type in (statuses := edge.errors.statuses()):
            return statuses[error_type]
    return 500
