"""A wire shape's validator, built once on first use: what every reader checks its wire with.

A reader validates the wire once, with a ``TypeAdapter`` of its shape (a ``TypedDict``);
building one costs far more than using it (docs/performance.md), so each shape's is built
on first use, when pydantic is imported, and kept. The memory is :data:`_VALIDATORS`, owned
by this module and bounded by the shapes the installed codecs define (a codec's classes, not
caller data): no caller's value is ever a key. Errors name the payload's JSON paths and
rules, as a :class:`~chatcodec.ValidationError` (:func:`~chatcodec._canonical_validation.validate_with`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chatcodec._canonical_validation import validate_with
from chatcodec._narrow import as_dict

if TYPE_CHECKING:
    from pydantic import TypeAdapter

_VALIDATORS: dict[Any, TypeAdapter[Any]] = {}
"""Each wire shape's validator, by the shape (a class a codec defines)."""


def validate_shape(shape: Any, payload: object, title: str) -> dict[str, Any]:
    """``payload`` (Python data, JSON text or bytes) checked as the wire ``shape`` (a
    ``TypedDict`` an object satisfies), as a plain dict; ``title`` names the payload in the
    error (``"Template request"``)."""
    validator = _VALIDATORS.get(shape)
    if validator is None:
        from pydantic import TypeAdapter

        validator = _VALIDATORS[shape] = TypeAdapter(shape)
    checked = as_dict(validate_with(validator, payload, title))
    if checked is None:  # the codec's own mistake, not its input's
        raise TypeError(f"{shape!r} is no object's shape (validate_shape returns the object)")
    return checked
