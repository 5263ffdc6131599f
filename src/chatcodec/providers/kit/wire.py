"""Wire shapes: the decorator and the discriminator every provider's ``wire.py`` is written with."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import ConfigDict, Discriminator, with_config

from chatcodec._narrow import is_dict

wire_shape = with_config(ConfigDict(extra="allow", strict=True, defer_build=True))
"""The decorator on every wire ``TypedDict``: strict types (``"1"`` is not a number, ``1``
is not text), unknown keys allowed and kept (the decoder stores them in the bag, so a
same-provider round trip is exact), and the validator built on first use, not at import.

``strict`` on an adapter does not reach into a ``TypedDict``: each one needs its own, so
every wire shape carries this decorator."""


def tagged(known: Iterable[str], key: str = "type", fallback: str = "unknown") -> Discriminator:
    """A discriminator routing a wire object to its shape by ``key``; a value not in
    ``known`` (a kind added after this was written, or not an object at all) goes to the
    ``fallback`` shape, which keeps it whole, rather than failing the whole payload."""
    known_tags = frozenset(known)

    def tag(value: Any) -> str:  # pydantic-core calls this for every part: kept to the bone
        found: object = value.get(key) if is_dict(value) else None
        return found if isinstance(found, str) and found in known_tags else fallback

    return Discriminator(tag)
