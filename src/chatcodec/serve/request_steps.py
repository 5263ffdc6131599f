"""The records a request hands from one step to the next in the proxy (:mod:`.app`): read
and routed (:class:`ReadRequest`), then continued and written for its upstream
(:class:`Prepared`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chatcodec.losses import Loss
from chatcodec.serve.config import Route as UpstreamRoute
from chatcodec.serve.fronts import Call, answering


@dataclass(frozen=True)
class ReadRequest:
    """A request read as canonical data and routed, before the store is asked for it."""

    answer: answering.Prepared
    route: UpstreamRoute
    model: str
    canonical: dict[str, Any]
    version: str | None
    losses: list[Loss]
    """What the request lost before it was read (a seal this server did not write: :mod:`.seals`)."""
    sealed: bool
    """Whether it brought sealed reasoning this server wrote."""


@dataclass(frozen=True)
class Prepared:
    """A request read, routed and converted, ready to send."""

    call: Call
    """The front's call, continued where it names an earlier answer (``answer.call``)."""
    answer: answering.Prepared
    """What the front owes this answer (its own id, the request echoed, kept for later)."""
    route: UpstreamRoute
    model: str
    """The model name sent upstream (after ``model_map``)."""
    body: dict[str, Any]
    canonical: dict[str, Any]
    version: str | None
    """The upstream API version whose rules wrote ``body``, sent in its version header."""
