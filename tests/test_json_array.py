"""The JSON array reader of the command line (``chatcodec.cli._json_array``): each item's
exact bytes, read block by block, and the index of the item where an array breaks."""

from __future__ import annotations

import io
import json

import pytest

from chatcodec._errors import PayloadError
from chatcodec.cli import _json_array as json_array


def _items(text: str) -> list[object]:
    return [json.loads(item) for item in json_array.array_items(io.BytesIO(text.encode()))]


@pytest.mark.parametrize(
    "text",
    ["[]", " [ ] ", "[1, 2.5e3, -0, true, null]", '[{"a": "]"}, ["[", "\\"]"], "é\\u00e9"]', '\ufeff[{"x": 1}]\n'],
)
def test_items_are_the_arrays_values(text: str) -> None:
    assert _items(text) == json.loads(text.lstrip("\ufeff"))


def test_an_item_is_its_exact_bytes() -> None:
    text = '[\n    {\n        "a": "x\\ny"\n    },\n    7\n]'
    assert list(json_array.array_items(io.BytesIO(text.encode()))) == [b'{\n        "a": "x\\ny"\n    }', b"7"]


def test_items_stream_block_by_block(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_array, "BLOCK", 64)
    rows = [{"text": "x" * 40, "n": index} for index in range(200)]
    stream = io.BytesIO(json.dumps(rows, indent=2).encode())
    items = json_array.array_items(stream)
    assert json.loads(next(items)) == rows[0]
    assert stream.tell() < 256  # the first item came before the file was read
    assert [json.loads(item) for item in items] == rows[1:]


def test_a_number_cut_by_a_block_is_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_array, "BLOCK", 4)
    assert _items("[1234567, 89]") == [1234567, 89]


@pytest.mark.parametrize(
    ("text", "path", "said"),
    [
        ('{"a": 1}', "$", "expected a JSON array starting with '['"),
        ('[{"a": 1} {"b": 2}]', "$[1]", "expected ',' or ']' after item 0, found '{'"),
        ('[{"a": 1}, {"b" 2}]', "$[1]", "not valid JSON: Expecting ':' delimiter"),
        ('[{"a": 1},', "$[1]", "the file ends before the array's closing ']'"),
        ('[{"a": 1}', "$[1]", "expected ',' or ']' after item 0, found the end of the file"),
        ("[1] [2]", "$", "text after the array's closing ']'"),
    ],
)
def test_a_broken_array_names_the_item(text: str, path: str, said: str) -> None:
    with pytest.raises(PayloadError) as raised:
        list(json_array.array_items(io.BytesIO(text.encode())))
    assert raised.value.path == path
    assert said in str(raised.value)


def test_text_that_is_not_utf8_is_refused() -> None:
    with pytest.raises(PayloadError, match="not UTF-8"):
        list(json_array.array_items(io.BytesIO(b'["\xff"]')))
