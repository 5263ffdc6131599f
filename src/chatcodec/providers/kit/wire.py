"""Wire shapes: the decorator and the pydantic metadata every provider's ``wire.py`` is written with.

Nothing here imports pydantic until a validator is built from a shape: the metadata a
shape's ``Annotated`` needs (:func:`tagged`, :func:`discriminator`, :func:`tag`, :func:`constrained`) is a
:class:`Deferred` that builds pydantic's own object when the schema is generated, so a
``wire.py`` written with them loads no pydantic at import. A reader whose common shapes
are validated by a closed pydantic-core schema (first use: no model, no pydantic) builds
the full wire validator only when that schema refuses a payload.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from chatcodec._narrow import is_dict

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema

ShapeT = TypeVar("ShapeT", bound=type)

_CONFIG: dict[str, object] = {"extra": "allow", "strict": True, "defer_build": True}
_CONFIG_ATTRIBUTE = "__pydantic_config__"
"""Where pydantic reads a ``TypedDict``'s configuration (what its ``with_config`` sets)."""


def wire_shape(shape: ShapeT) -> ShapeT:
    """The decorator on every wire ``TypedDict``: strict types (``"1"`` is not a number,
    ``1`` is not text), unknown keys allowed and kept (the decoder stores them in the bag,
    so a same-provider round trip is exact), and the validator built on first use, not at
    import.

    ``strict`` on an adapter does not reach into a ``TypedDict``: each one needs its own,
    so every wire shape carries this decorator. It sets the ``__pydantic_config__`` that
    pydantic's ``with_config`` sets, without importing pydantic."""
    setattr(shape, _CONFIG_ATTRIBUTE, _CONFIG)
    return shape


class Deferred:
    """Pydantic metadata in an ``Annotated`` that is built when pydantic generates the
    schema (``build`` imports pydantic then), not when the wire module is imported."""

    __slots__ = ("_build",)

    def __init__(self, build: Callable[[], object]) -> None:
        self._build = build

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        from typing import Annotated

        return handler(Annotated[source, self._build()])


def tagged(known: Iterable[str], key: str = "type", fallback: str = "unknown") -> Deferred:
    """A discriminator routing a wire object to its shape by ``key``; a value not in
    ``known`` (a kind added after this was written, or not an object at all) goes to the
    ``fallback`` shape, which keeps it whole, rather than failing the whole payload."""
    known_tags = frozenset(known)

    def tag_of(value: Any) -> str:  # pydantic-core calls this for every part: kept to the bone
        found: object = value.get(key) if is_dict(value) else None
        return found if isinstance(found, str) and found in known_tags else fallback

    return discriminator(tag_of)


def discriminator(tag_of: Callable[[Any], str]) -> Deferred:
    """pydantic's ``Discriminator(tag_of)``: ``tag_of`` names the :func:`tag` of the choice
    a value goes to (:func:`tagged` is the usual one: the value of a key)."""

    def build() -> object:
        from pydantic import Discriminator

        return Discriminator(tag_of)

    return Deferred(build)


def tag(name: str) -> Deferred:
    """pydantic's ``Tag(name)``: the choice of a :func:`tagged` union it marks."""

    def build() -> object:
        from pydantic import Tag

        return Tag(name)

    return Deferred(build)


def constrained(**constraints: Any) -> Deferred:
    """pydantic's ``Field(**constraints)`` (``min_length=1``, ``ge=0``) on a wire value."""

    def build() -> object:
        from pydantic import Field

        return Field(**constraints)

    return Deferred(build)
