"""Whether what an installed codec gives back is JSON data, and where it is not.

A wire body, a wire event and canonical data are JSON: objects with text keys, arrays,
text, finite numbers, booleans and null. An installed codec is someone else's code, and a
dict it returns can hold what JSON has no spelling for (``float("nan")``, ``b"bytes"``, an
``object()``, a key that is no text): passed on unchecked, it fails later inside chatcodec
(the JSON writer of ``chatcodec convert``, a validator), where it reads as chatcodec's own
bug. :func:`stray_value` finds the first such value and its place, so the boundary
(:mod:`chatcodec._providers.contract.outside_roles`, the registry's ``ModelCodec``) can name
the codec that returned it. Built-in codecs are never walked: the laws hold them.
"""

from __future__ import annotations

import math
from typing import cast

from chatcodec._errors import CodecNotAvailableError

MAX_DEPTH = 1000
"""Nesting past this (or a value that holds itself) is no JSON a parser gives back:
Python's own ``json`` stops at its recursion limit near the same depth."""


def stray_value(value: object) -> tuple[str, str] | None:
    """The JSON path of the first value in ``value`` that is not JSON data, and what is
    there (``("$.model", "NaN")``); None when all of it is JSON data. Walked with a stack
    of its own, so a deep value raises no ``RecursionError``."""
    pending: list[tuple[object, str, int]] = [(value, "$", 0)]
    while pending:
        item, path, depth = pending.pop()
        if depth > MAX_DEPTH:
            return path, f"a value nested deeper than {MAX_DEPTH} (or holding itself)"
        if isinstance(item, dict):
            for key, child in reversed(cast("dict[object, object]", item).items()):
                if not isinstance(key, str):
                    return path, f"a key of type {type(key).__name__} ({key!r}), not text,"
                pending.append((child, f"{path}.{key}", depth + 1))
        elif isinstance(item, list | tuple):  # a tuple is written as an array, as json writes it
            children = cast("list[object] | tuple[object, ...]", item)
            pending.extend((children[index], f"{path}[{index}]", depth + 1) for index in reversed(range(len(children))))
        else:
            stray = _scalar_stray(item)
            if stray is not None:
                return path, stray
    return None


def not_json_data(codec: str, origin: str, where: str, result: object) -> CodecNotAvailableError | None:
    """The error blaming the codec ``codec`` (``origin``: where it came from) for what its
    ``where`` returned, when ``result`` is not JSON data all through; None when it is."""
    stray = stray_value(result)
    if stray is None:
        return None
    place, what = stray
    return CodecNotAvailableError(
        f"the codec {codec!r} ({origin}) returned {what} at {place} from {where}: what a codec returns "
        "is JSON data (text keys, arrays, text, finite numbers, booleans, null)"
    )


def _scalar_stray(item: object) -> str | None:
    """What a scalar is when it is no JSON value (None when it is one)."""
    if item is None or isinstance(item, str | bool | int):
        return None
    if isinstance(item, float):
        return None if math.isfinite(item) else ("NaN" if math.isnan(item) else "an infinite number")
    return f"a value of type {type(item).__name__}"
