"""An upstream's answer is parsed by pydantic-core first and by ``json.loads`` where it refuses:
the values are ``json.loads``'s in every case (serve's ``json_or_text``)."""

from __future__ import annotations

import json

import pytest

from chatcodec.serve._limits import json_or_text

BODIES = [
    b'{"a": NaN, "b": Infinity, "c": -Infinity}',
    b'{"a": 1e400, "b": -0.0, "c": 1.0, "d": 1E5, "e": -0, "f": 5e-324, "g": 0.1}',
    b'{"a": ' + b"1" * 5000 + b"}",  # past Python's digit limit: text, as json.loads refuses it
    b'{"a": "\\ud83d"}',  # a lone surrogate escape: pydantic-core refuses it, json.loads reads it
    b'{"a": 1, "a": 2}',
    b'\xef\xbb\xbf{"a": 1}',  # a byte-order mark
    b'{"a": "\xff"}',
    b'{"a": 1} trailing',
    b'{"a": "\\u0000", "b": [true, false, null]}',
    b"[1, 2]",
    b"",
]


def _loads_or_text(content: bytes) -> object:
    try:
        return json.loads(content)
    except ValueError:
        return content.decode("utf-8", errors="replace")


@pytest.mark.parametrize("content", BODIES)
def test_an_answer_parses_to_what_json_loads_gives(content: bytes) -> None:
    assert repr(json_or_text(content)) == repr(_loads_or_text(content))
