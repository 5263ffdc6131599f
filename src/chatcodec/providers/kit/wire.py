"""Wire shapes: the decorator and the discriminator every provider's ``wire.py`` is written with."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from chatcodec._narrow import is_dict

if TYPE_CHECKING:
    from pydantic import Discriminator

ShapeT = TypeVar("ShapeT", bound=type)

_WIRE_CONFIG: dict[str, Any] = {"extra": "allow", "strict": True, "defer_build": True}
"""pydantic's ``ConfigDict`` for wire shapes, as a plain dict: what ``with_config`` sets."""


def wire_shape(shape: ShapeT) -> ShapeT:
    """The decorator on every wire ``TypedDict``: strict types (``"1"`` is not a number, ``1``
    is not text), unknown keys allowed and kept (the decoder stores them in the bag, so a
    same-provider round trip is exact), and the validator built on first use, not at import.

    ``strict`` on an adapter does not reach into a ``TypedDict``: each one needs its own, so
    every wire shape carries this decorator. It sets ``__pydantic_config__`` as pydantic's
    ``with_config`` does, without importing pydantic: a codec whose shapes are checked only
    on a rare path loads pydantic there (first use, issue 29)."""
    cast(Any, shape).__pydantic_config__ = _WIRE_CONFIG
    return shape


def tagged(known: Iterable[str], key: str = "type", fallback: str = "unknown") -> Discriminator:
    """A discriminator routing a wire object to its shape by ``key``; a value not in
    ``known`` (a kind added after this was written, or not an object at all) goes to the
    ``fallback`` shape, which keeps it whole, rather than failing the whole payload."""
    from pydantic import Discriminator

    known_tags = frozenset(known)

    def tag(value: Any) -> str:  # pydantic-core calls this for every part: kept to the bone
        found: object = value.get(key) if is_dict(value) else None
        return found if isinstance(found, str) and found in known_tags else fallback

    return Discriminator(tag)
