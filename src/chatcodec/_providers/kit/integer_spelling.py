"""Sampling numbers a body spelled as JSON integers, written back as integers at home.

Canonical holds a sampling number (``temperature``, ``top_p``, the penalties) as a float
(:func:`chatcodec._narrow.as_sampling_number`): ``1`` and ``1.0`` are one JSON number to
every server, so no other format needs the spelling. A home round trip, though, should
write the text it read (a diff, a dedup hash or a Parquet payload column of the converted
file sees it). A reader records the keys spelled as integers under the
pure spelling marker :data:`INTEGERS`, only when there are some; its writer spells those
keys as integers again while their value is still integral (a changed value is written
as canonical holds it). The marker rides in the bag, so it survives canonical Parquet.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

INTEGERS = "_integers"
"""The bag marker: the sampling keys the body spelled as integers, in its order."""


def mark_integers(wire: Mapping[str, Any], keys: Iterable[str], bag: dict[str, Any]) -> None:
    """Record in ``bag`` which of ``keys`` ``wire`` spelled as integers (nothing when none)."""
    integers = [key for key in keys if type(wire.get(key)) is int]
    if integers:
        bag[INTEGERS] = integers


def respell_integers(wire: dict[str, Any], bag: Mapping[str, Any]) -> None:
    """Write back as integers the keys the reader marked, whose value is still integral."""
    integers: object = bag.get(INTEGERS)
    if not isinstance(integers, list):
        return
    for key in cast("list[object]", integers):  # a caller's bag may hold anything
        value = wire.get(key) if isinstance(key, str) else None
        if type(value) is float and value.is_integer():
            wire[cast("str", key)] = int(value)
