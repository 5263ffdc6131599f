"""Serve's JSON bodies are byte for byte what ``json.dumps(value, ensure_ascii=False,
separators=(",", ":")).encode()`` writes, whichever writer wrote them (``serve._json_body``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

import pytest

from chatcodec.serve._json_body import json_body


def _dumped(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def test_every_code_point_is_written_as_json_writes_it() -> None:
    points = [chr(point) for point in range(sys.maxunicode + 1) if not 0xD800 <= point <= 0xDFFF]
    for start in range(0, len(points), 4096):
        text = "".join(points[start : start + 4096])
        value = {"text": text, "list": [text[:5], {"k" + text[:3]: text[-3:]}]}
        assert json_body(value) == _dumped(value)


@pytest.mark.parametrize(
    "value",
    [
        {"a": 1, "b": [True, False, None], "c": {"d": 'é\n\t"\\'}, "e": -(2**63), "f": 2**63 - 1},
        {"f": 1.5, "small": 1e-05, "big": 1e16, "neg": -0.0},  # floats: json's spelling
        {"big": 2**64, "huge": -(10**30)},  # past 64 bits
        {"first": int("7" * 3000)},
        [1, "x", {"y": [2.5]}],
        {"a": (1, 2)},  # a tuple, written as json writes it
        {"nan": float("nan"), "inf": float("inf")},  # json's own spelling, not JSON
        {},
        [],
    ],
)
def test_a_body_is_what_json_writes(value: object) -> None:
    assert json_body(value) == _dumped(value)


@pytest.mark.parametrize("value", [{"lone": "\ud800"}, {"digits": 10**5000}])
def test_what_json_cannot_write_fails_as_json_fails(value: object) -> None:
    assert repr(_failure(lambda: json_body(value))) == repr(_failure(lambda: _dumped(value)))


def _failure(write: Callable[[], bytes]) -> BaseException | bytes:
    """What ``write`` raised (UnicodeEncodeError and the digit limit's are ValueErrors), or its bytes."""
    try:
        return write()
    except ValueError as error:
        return error
