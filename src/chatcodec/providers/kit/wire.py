"""Wire shapes: the decorator and the discriminators every provider's ``wire.py`` is written with.

Nothing here imports pydantic when the module loads: a ``wire.py`` written with
:func:`wire_shape` and :class:`TaggedShapes` can be imported by a reader that validates
its common shapes in pydantic-core alone (first use loads no pydantic), and pydantic
reads the shapes only when an adapter is built from them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from chatcodec._narrow import is_dict

if TYPE_CHECKING:
    from pydantic import Discriminator, GetCoreSchemaHandler
    from pydantic_core import CoreSchema

ShapeT = TypeVar("ShapeT", bound=type)

WIRE_CONFIG: Mapping[str, Any] = {"extra": "allow", "strict": True, "defer_build": True}
"""The pydantic config of every wire ``TypedDict`` (a ``ConfigDict``: strict types, ``"1"``
is not a number, ``1`` is not text; unknown keys allowed and kept, the decoder stores
them in the bag, so a same-provider round trip is exact; the validator built on first
use, not at import)."""


def wire_shape(shape: ShapeT) -> ShapeT:
    """The decorator on every wire ``TypedDict``: gives it :data:`WIRE_CONFIG`, as
    ``pydantic.with_config`` does (it sets ``__pydantic_config__``), without importing pydantic.

    ``strict`` on an adapter does not reach into a ``TypedDict``: each one needs its own, so
    every wire shape carries this decorator."""
    shape.__pydantic_config__ = dict(WIRE_CONFIG)  # type: ignore[attr-defined]  # pydantic's own hook
    return shape


def _tag_of(known: frozenset[str], key: str, fallback: str) -> Any:
    def tag(value: Any) -> str:  # pydantic-core calls this for every part: kept to the bone
        found: object = value.get(key) if is_dict(value) else None
        return found if isinstance(found, str) and found in known else fallback

    return tag


def tagged(known: Iterable[str], key: str = "type", fallback: str = "unknown") -> Discriminator:
    """A discriminator routing a wire object to its shape by ``key``; a value not in
    ``known`` (a kind added after this was written, or not an object at all) goes to the
    ``fallback`` shape, which keeps it whole, rather than failing the whole payload."""
    from pydantic import Discriminator

    return Discriminator(_tag_of(frozenset(known), key, fallback))


class TaggedShapes:
    """``Annotated`` metadata making a union of wire shapes a tagged union: the shape of
    ``choices`` named by ``key``, or ``choices[fallback]`` for any other value (as
    :func:`tagged` with ``Tag``-annotated members, and the same core schema, so the same
    errors), written without a pydantic object so the ``wire.py`` holding it imports no
    pydantic (``Annotated[TextBlock | OtherBlock, TaggedShapes({...}, fallback="other")]``)."""

    __slots__ = ("choices", "fallback", "key")

    def __init__(self, choices: Mapping[str, type], *, key: str = "type", fallback: str) -> None:
        self.choices = dict(choices)
        self.key = key
        self.fallback = fallback

    def __get_pydantic_core_schema__(self, source: object, handler: GetCoreSchemaHandler) -> CoreSchema:
        from pydantic_core import core_schema

        del source  # the union it annotates, for the type checkers: built from ``choices``
        known = frozenset(tag for tag in self.choices if tag != self.fallback)
        return core_schema.tagged_union_schema(
            {tag: handler.generate_schema(shape) for tag, shape in self.choices.items()},
            discriminator=_tag_of(known, self.key, self.fallback),
        )
