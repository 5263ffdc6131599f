"""``dump_json``, what every converted row of ``chatcodec convert`` is written with: its encoder
is made once, without ``json.dumps``' watch for an object inside itself, and its bytes must
stay ``json.dumps(value, ensure_ascii=False)``'s, UTF-8 encoded (ASCII with escapes when a
text holds an unpaired surrogate), its errors ``json.dumps``' own."""

from __future__ import annotations

import json
import sys
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chatcodec.batch import _json_dump
from chatcodec.batch._json_dump import dump_json

_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=30)
_SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | _TEXT
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_TEXT, inner, max_size=5),
    max_leaves=40,
)


def _by_json_dumps(value: object, indent: int | None = None) -> bytes:
    try:
        return json.dumps(value, ensure_ascii=False, indent=indent).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, indent=indent).encode("ascii")


@given(_VALUES)
def test_a_value_is_written_as_json_dumps_writes_it(value: object) -> None:
    """Any JSON value, floats past a double's range, NaN, unpaired surrogates and control
    characters included, one line and indented."""
    assert dump_json(value) == _by_json_dumps(value)
    assert dump_json(value, 2) == _by_json_dumps(value, 2)


def test_a_converted_row_is_written_as_before() -> None:
    row = {"model": "m", "temperature": 1e16, "stop": ["\n", "\u2028", "\x7f"], "n": 10**30, "t": "é\ud800"}
    assert dump_json(row) == _by_json_dumps(row)
    assert dump_json(row).isascii()  # the surrogate: every text escaped


def test_an_object_inside_itself_is_refused_as_json_dumps_refuses_it() -> None:
    """A caller's row field may hold itself (the rows read from JSON cannot): ``json.dumps``
    names it, not a recursion error."""
    looped: dict[str, Any] = {"id": 1}
    looped["self"] = [looped]
    with pytest.raises(ValueError, match="Circular reference detected"):
        dump_json(looped)


def test_a_value_nested_past_the_limit_is_refused_as_json_dumps_refuses_it() -> None:
    deep: list[Any] = []
    inner = deep
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]
    with pytest.raises(RecursionError, match="while encoding a JSON"):
        json.dumps(deep, ensure_ascii=False)
    with pytest.raises(RecursionError, match="while encoding a JSON"):
        dump_json(deep)


def test_a_value_json_cannot_write_is_refused_as_json_dumps_refuses_it() -> None:
    with pytest.raises(TypeError) as by_json_dumps:
        json.dumps({"row": [object()]}, ensure_ascii=False)
    with pytest.raises(TypeError) as by_dump_json:
        dump_json({"row": [object()]})
    assert str(by_dump_json.value) == str(by_json_dumps.value)


@given(_VALUES)
def test_without_the_c_encoder_the_text_is_the_same(value: object) -> None:
    """Where ``_json`` cannot be imported (a Python without the C accelerator), the encoder's own
    ``encode`` writes the row: the same text as the C encoder made once."""
    with patch.dict(sys.modules, {"_json": None}):  # importing it raises ImportError
        fallback = _json_dump._chunks()
    assert "".join(fallback(value, 0)) == "".join(_json_dump._JSON_LINE(value, 0))
