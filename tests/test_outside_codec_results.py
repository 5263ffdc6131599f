"""What an outside codec's ``read_request`` and ``write_request`` give back is checked at the
conversion's boundary (issue 108): a NaN, an object or bytes in it is the codec's error, named with
where the codec came from, never passed on to fail later as chatcodec's "internal error"."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from chatcodec import CodecNotAvailableError, convert_request, register_codec, unregister_codec
from chatcodec._option_table import NO_OPTIONS
from chatcodec.cli import main

BODY = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


class _Garbage:
    """A canonical-data codec whose reader and writer put ``value`` where JSON is due."""

    name = "garbage"
    options = NO_OPTIONS

    def __init__(self, value: object, *, raises: bool = False) -> None:
        self.value = value
        self.raises = raises

    def read_request(self, payload: dict[str, Any]) -> dict[str, Any]:
        if self.raises:
            raise KeyError("messages")
        return {"messages": [{"role": "user", "content": self.value}]}

    def read_request_json(self, text: str | bytes | bytearray) -> dict[str, Any]:
        return self.read_request(json.loads(text))

    def write_request(
        self, request: Mapping[str, Any], losses: object, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        if self.raises:
            raise KeyError("model")
        return {"model": "m", "x": self.value}


@pytest.fixture
def garbage() -> Iterator[None]:
    yield
    unregister_codec("garbage")


@pytest.mark.usefixtures("garbage")
@pytest.mark.parametrize(
    ("value", "named"), [(float("nan"), "NaN"), (object(), "a value of type object"), (b"x", "a value of type bytes")]
)
def test_a_value_no_json_holds_is_the_codecs_error_both_ways(value: object, named: str) -> None:
    register_codec("garbage", lambda: _Garbage(value))  # type: ignore[arg-type,return-value]
    with pytest.raises(
        CodecNotAvailableError,
        match=rf"'garbage' \(registered with register_codec\) returned {named} at \$\.x from write_request",
    ):
        convert_request(BODY, source="openai-chat", target="garbage", on_loss="ignore")
    where = r"\$\.messages\[0\]\.content from read_request"
    with pytest.raises(CodecNotAvailableError, match=rf"returned {named} at {where}"):
        convert_request(BODY, source="garbage", target="openai-chat", on_loss="ignore")


@pytest.mark.usefixtures("garbage")
def test_json_that_is_no_canonical_request_and_a_raised_error_are_the_codecs() -> None:
    register_codec("garbage", lambda: _Garbage(1.5))  # type: ignore[arg-type,return-value]
    with pytest.raises(CodecNotAvailableError, match=r"returned data from read_request that is no canonical request"):
        convert_request(BODY, source="garbage", target="openai-chat", on_loss="ignore")
    register_codec("garbage", lambda: _Garbage("hi", raises=True))  # type: ignore[arg-type,return-value]
    with pytest.raises(
        CodecNotAvailableError, match=r"'garbage' \(registered with register_codec\) failed in write_request: KeyError"
    ):
        convert_request(BODY, source="openai-chat", target="garbage", on_loss="ignore")
    with pytest.raises(CodecNotAvailableError, match=r"failed in read_request: KeyError"):
        convert_request(BODY, source="garbage", target="openai-chat", on_loss="ignore")


@pytest.mark.usefixtures("garbage")
def test_the_command_line_names_the_codec_not_an_internal_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_codec("garbage", lambda: _Garbage(float("nan")))  # type: ignore[arg-type,return-value]
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(BODY) + "\n")
    code = main(
        ["convert", str(source), "--from", "openai-chat", "--to", "garbage", "--out", str(tmp_path / "o.jsonl")]
    )
    error = capsys.readouterr().err
    assert code == 1
    assert "the codec 'garbage' (registered with register_codec) returned NaN at $.x from write_request" in error
    assert "internal error" not in error
