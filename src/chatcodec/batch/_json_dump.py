"""JSON as the converters write it: one line a row, UTF-8, made by one encoder built once.

Every row a conversion writes goes through :func:`dump_json`; the encoder behind it is
``json.dumps(value, ensure_ascii=False)``'s own C encoder, made once rather than at every call.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

_ONE_LINE = json.JSONEncoder(ensure_ascii=False, check_circular=False)
"""``json.dumps(value, ensure_ascii=False)`` made once, not at every row, without its watch for an
object inside itself at each object and list (JSON read and converted holds none; a caller's row
field might, and :func:`dump_json` then asks ``json.dumps``, which names it)."""


def _chunks() -> Callable[[object, int], Any]:
    """The C encoder ``_ONE_LINE.encode`` makes anew at every call (the markers, default, escaping,
    separators and NaN policy its ``iterencode`` passes), made once; it keeps nothing between calls."""
    try:
        from _json import encode_basestring, make_encoder
    except ImportError:  # no C accelerator (another Python): the encoder's own ``encode``
        return lambda value, _: (_ONE_LINE.encode(value),)
    return make_encoder(None, _ONE_LINE.default, encode_basestring, None, ": ", ", ", False, False, True)


_JSON_LINE = _chunks()


def dump_json(value: object, indent: int | None = None) -> bytes:
    """``value`` as UTF-8 JSON; text the input held as unpaired surrogates stays escaped."""
    try:
        text = "".join(_JSON_LINE(value, 0)) if indent is None else json.dumps(value, ensure_ascii=False, indent=indent)
    except RecursionError:  # an object inside itself, or nested past the limit: json.dumps raises which
        text = json.dumps(value, ensure_ascii=False, indent=indent)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, indent=indent).encode("ascii")
