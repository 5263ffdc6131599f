from __future__ import annotations

import json
import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chatcodec._errors import StreamError
from chatcodec.streams._sse import (
    SSEEvent,
    SSEParser,
    format_sse,
    iter_jsonl,
    iter_sse,
    iter_sse_json,
    looks_like_sse,
)

_REPO_ROOT = Path(__file__).resolve().parent.parent
_LOCAL_FIXTURES = _REPO_ROOT / "tests" / "fixtures"


def _recorded_streams() -> list[Path]:
    return sorted(_LOCAL_FIXTURES.glob("**/*.sse"))


def _fixture_id(path: Path) -> str:
    return path.relative_to(_LOCAL_FIXTURES).as_posix()


def _chunks(data: bytes, size: int) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


# --- framing -----------------------------------------------------------------


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_line_endings(ending: str) -> None:
    stream = ending.join(["event: a", "data: 1", "", "data: 2", "", ""])
    assert list(iter_sse(stream)) == [SSEEvent("a", "1"), SSEEvent(None, "2")]


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_line_endings_in_single_character_chunks(ending: str) -> None:
    stream = ending.join(["event: a", "data: 1", "", "data: 2", "", ""])
    assert list(iter_sse(iter(stream))) == [SSEEvent("a", "1"), SSEEvent(None, "2")]


def test_crlf_split_across_chunks_is_one_line_end() -> None:
    chunks = ["data: one\r", "\ndata: two\r", "\n\r", "\n", "data: three\r", "", "\n\r\n"]
    assert list(iter_sse(chunks)) == [SSEEvent(None, "one\ntwo"), SSEEvent(None, "three")]


def test_crlf_split_across_byte_chunks() -> None:
    assert list(iter_sse([b"data: x\r", b"\n\r", b"\ndata: y\r\n\r\n"])) == [SSEEvent(None, "x"), SSEEvent(None, "y")]


def test_lone_cr_then_lf_in_next_chunk_is_not_an_extra_blank_line() -> None:
    # Were the split CRLF counted twice, "a" and "b" would become two events.
    assert list(iter_sse(["data: a\r", "\ndata: b\n\n"])) == [SSEEvent(None, "a\nb")]


def test_multibyte_utf8_split_across_byte_chunks() -> None:
    encoded = 'data: {"text": "héllo 世界 🎉"}\n\n'.encode()
    events = list(iter_sse(_chunks(encoded, 1)))
    assert events == [SSEEvent(None, '{"text": "héllo 世界 🎉"}')]
    assert list(iter_sse_json(_chunks(encoded, 3))) == [{"text": "héllo 世界 🎉"}]


def test_bytearray_and_mixed_chunk_types() -> None:
    assert list(iter_sse(bytearray(b"data: a\n\n"))) == [SSEEvent(None, "a")]
    assert list(iter_sse([b"data: ", "b", b"\n\n"])) == [SSEEvent(None, "b")]


def test_invalid_utf8_is_refused_with_its_byte_offset() -> None:
    # Replacing it with U+FFFD would change the payload without a word.
    with pytest.raises(StreamError, match="not UTF-8 text: invalid start byte at byte 6"):
        list(iter_sse(b"data: \xff\n\n"))
    with pytest.raises(StreamError, match="at byte 9"):
        list(iter_sse([b"data: ab", b"c\xff\n\n"]))


def test_comments_are_ignored() -> None:
    stream = ": ping\n\n: OPENROUTER PROCESSING\ndata: x\n:\n\n"
    assert list(iter_sse(stream)) == [SSEEvent(None, "x")]


def test_multiple_data_lines_are_joined_with_newline() -> None:
    assert list(iter_sse("data: a\ndata:\ndata: b\n\n")) == [SSEEvent(None, "a\n\nb")]


def test_only_one_leading_space_is_stripped() -> None:
    assert list(iter_sse("data:no-space\n\ndata:   three  \n\n")) == [
        SSEEvent(None, "no-space"),
        SSEEvent(None, "  three  "),
    ]


def test_field_without_colon_has_empty_value() -> None:
    assert list(iter_sse("data\n\ndata\ndata\n\n")) == [SSEEvent(None, ""), SSEEvent(None, "\n")]


def test_event_without_data_is_not_dispatched() -> None:
    assert list(iter_sse("event: ping\n\nid: 3\n\nevent: real\ndata: d\n\n")) == [SSEEvent("real", "d", id="3")]


def test_event_name_does_not_leak_into_next_event() -> None:
    assert list(iter_sse("event: a\ndata: 1\n\ndata: 2\n\n")) == [SSEEvent("a", "1"), SSEEvent(None, "2")]


def test_unknown_fields_are_ignored() -> None:
    assert list(iter_sse("foo: bar\ndata: x\nData: y\n\n")) == [SSEEvent(None, "x")]


def test_final_event_without_blank_line_is_dispatched() -> None:
    assert list(iter_sse("data: 1\n\ndata: 2")) == [SSEEvent(None, "1"), SSEEvent(None, "2")]
    assert list(iter_sse("data: 1\n\ndata: 2\n")) == [SSEEvent(None, "1"), SSEEvent(None, "2")]


def test_byte_order_mark_is_skipped() -> None:
    assert list(iter_sse("\ufeffdata: a\n\n")) == [SSEEvent(None, "a")]
    assert list(iter_sse(b"\xef\xbb\xbfdata: a\n\n")) == [SSEEvent(None, "a")]
    assert list(iter_sse([b"\xef", b"\xbb", b"\xbfdata: a\n\n"])) == [SSEEvent(None, "a")]


def test_byte_order_mark_is_only_skipped_at_the_start() -> None:
    assert list(iter_sse("data: a\n\n\ufeffdata: b\n\n")) == [SSEEvent(None, "a")]


def test_id_persists_and_retry_requires_digits() -> None:
    stream = "id: 7\nretry: 1500\ndata: a\n\ndata: b\n\nretry: 12x\nid\ndata: c\n\nid: bad\0id\nretry: ²\ndata: d\n\n"
    assert list(iter_sse(stream)) == [
        SSEEvent(None, "a", id="7", retry=1500),
        SSEEvent(None, "b", id="7"),
        SSEEvent(None, "c", id=""),
        SSEEvent(None, "d", id=""),
    ]


def test_empty_input_has_no_events() -> None:
    assert list(iter_sse("")) == []
    assert list(iter_sse([])) == []
    assert list(iter_sse([b"", "", b"\n\n"])) == []


def test_long_line_in_tiny_chunks_is_read_in_one_pass() -> None:
    # A quadratic buffer would copy ~10^10 characters here; a linear one finishes at once.
    count = 200_000
    chunks = ["data: ", *("x" for _ in range(count)), "\n\n"]
    assert list(iter_sse(chunks)) == [SSEEvent(None, "x" * count)]


# --- JSON events -----------------------------------------------------------------


def test_json_events_tolerate_padding() -> None:
    stream = 'event: message_start\ndata:   {"type": "message_start"}   \n\ndata: \t{"a": [1,  2]}\t\n\n'
    assert list(iter_sse_json(stream)) == [{"type": "message_start"}, {"a": [1, 2]}]


def test_blank_data_is_skipped() -> None:
    assert list(iter_sse_json('data:\n\ndata:    \n\ndata: {"a": 1}\n\n')) == [{"a": 1}]


def test_done_stops_iteration() -> None:
    stream = 'data: {"a": 1}\n\ndata:  [DONE] \n\ndata: not json at all\n\n'
    assert list(iter_sse_json(stream)) == [{"a": 1}]


def test_error_event_without_type_is_wrapped() -> None:
    stream = 'event: error\ndata: {"message": "overloaded"}\n\n'
    assert list(iter_sse_json(stream)) == [{"type": "error", "error": {"message": "overloaded"}}]


def test_error_event_with_type_is_unchanged() -> None:
    stream = 'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error"}}\n\n'
    assert list(iter_sse_json(stream)) == [{"type": "error", "error": {"type": "overloaded_error"}}]


def test_error_event_naming_itself_under_another_key_is_unchanged() -> None:
    """The Interactions API's ``error`` event names its kind by ``event_type`` (google-genai 3.6.1
    ``ErrorEvent``): wrapped, its decoder would find no event_type."""
    stream = 'event: error\ndata: {"event_type": "error", "error": {"code": "INTERNAL", "message": "x"}}\n\n'
    assert list(iter_sse_json(stream)) == [{"event_type": "error", "error": {"code": "INTERNAL", "message": "x"}}]


def test_named_event_without_type_is_not_given_one() -> None:
    assert list(iter_sse_json('event: message_stop\ndata: {"x": 1}\n\n')) == [{"x": 1}]


def test_bad_json_raises_stream_error_with_event_index() -> None:
    stream = 'data: {"ok": 1}\n\n: comment\n\ndata: {"broken": \n\n'
    with pytest.raises(StreamError, match=r"not valid JSON") as raised:
        list(iter_sse_json(stream))
    assert raised.value.event_index == 1
    assert raised.value.path == "$"
    assert '{"broken":' in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_bad_json_message_shows_only_first_80_characters() -> None:
    data = "x" * 80 + "TAIL"
    with pytest.raises(StreamError) as raised:
        list(iter_sse_json(f"data: {data}\n\n"))
    assert "x" * 80 in str(raised.value)
    assert "TAIL" not in str(raised.value)
    assert raised.value.event_index == 0


def test_event_index_counts_skipped_events() -> None:
    with pytest.raises(StreamError) as raised:
        list(iter_sse_json("data:\n\ndata: {}\n\ndata: nope\n\n"))
    assert raised.value.event_index == 2


@pytest.mark.parametrize(
    ("data", "kind"), [("[1, 2]", "array"), ('"text"', "string"), ("3", "number"), ("null", "null")]
)
def test_non_object_json_raises_stream_error(data: str, kind: str) -> None:
    with pytest.raises(StreamError, match=f"JSON {kind}, not an object") as raised:
        list(iter_sse_json(f'data: {{"ok": 1}}\n\ndata: {data}\n\n'))
    assert raised.value.event_index == 1


# --- format detection ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "data: {}\n\n",
        "\n\n  \nevent: message_start\ndata: {}\n",
        ": OPENROUTER PROCESSING\n\n",
        "id: 1\n",
        "retry: 100\n",
        "\ufeffdata: {}",
        "\r\n\r\ndata:{}",
    ],
)
def test_looks_like_sse(text: str) -> None:
    assert looks_like_sse(text)


@pytest.mark.parametrize("text", ['{"a": 1}\n{"b": 2}\n', '\n\n  [{"a": 1}]', "", "   \n\n", "hello: world\n"])
def test_does_not_look_like_sse(text: str) -> None:
    assert not looks_like_sse(text)


# --- JSON Lines ------------------------------------------------------------------


def test_jsonl_skips_blank_lines() -> None:
    text = '{"a": 1}\n\n   \r\n{"b": 2}\r{"c": 3}'
    assert list(iter_jsonl(text)) == [{"a": 1}, {"b": 2}, {"c": 3}]
    assert list(iter_jsonl(_chunks(text.encode(), 2))) == [{"a": 1}, {"b": 2}, {"c": 3}]


def test_jsonl_bad_line_names_its_line_number() -> None:
    text = '{"a": 1}\n\n{"b": 2}\n{oops\n'
    with pytest.raises(StreamError, match=r"line 4 is not valid JSON") as raised:
        list(iter_jsonl(text))
    assert raised.value.event_index == 2
    assert raised.value.path == "$"


def test_jsonl_non_object_line_raises() -> None:
    with pytest.raises(StreamError, match=r"line 1 is a JSON array") as raised:
        list(iter_jsonl(b"[1]\n"))
    assert raised.value.event_index == 0


# --- recorded provider streams ---------------------------------------------------

_RECORDED_STREAMS = _recorded_streams()


def test_the_recorded_streams_are_in_the_repository() -> None:
    # the shared corpus's 22 SSE recordings (copied with their provenance), the Interactions API's
    # the AG-UI runs a pydantic-ai agent's endpoint sent (tests/ag_ui_run.py), and the A2A
    # specification's streaming example (tests/fixtures/a2a/PROVENANCE.md)
    assert {path.relative_to(_LOCAL_FIXTURES).parts[0] for path in _RECORDED_STREAMS} == {
        "a2a",
        "ag_ui",
        "anthropic",
        "gemini",
        "gemini-interactions",
        "openai-chat",
        "openai-responses",
    }
    assert len(_RECORDED_STREAMS) >= 24


@pytest.mark.parametrize("path", _RECORDED_STREAMS, ids=_fixture_id)
def test_recorded_stream_parses(path: Path) -> None:
    raw = path.read_bytes()
    parsed = list(iter_sse_json(raw))
    assert parsed
    assert all(isinstance(item, dict) for item in parsed)
    assert list(iter_sse_json(_chunks(raw, 1))) == parsed
    assert list(iter_sse_json(_chunks(raw, 7))) == parsed
    assert looks_like_sse(raw.decode())


# --- property: what is written comes back ---------------------------------------

_JSON_TEXT = st.text(st.characters(codec="utf-8"), max_size=12)
_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | _JSON_TEXT,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_JSON_TEXT, children, max_size=3),
    max_leaves=8,
)
_JSON_OBJECTS = st.dictionaries(_JSON_TEXT, _JSON_VALUES, max_size=4)
_LINE_ENDINGS = st.sampled_from(["\n", "\r\n", "\r"])
_ENDINGS_AFTER_CR = st.sampled_from(["\r\n", "\r"])


@st.composite
def _serialized_event(draw: st.DrawFn, payload: dict[str, Any]) -> str:
    indent = draw(st.sampled_from([None, 1]))
    data_lines = json.dumps(payload, ensure_ascii=draw(st.booleans()), indent=indent).split("\n")
    lines: list[str] = []
    if draw(st.booleans()):
        lines.append(": keep-alive")
    if draw(st.booleans()):
        lines.append("event: " + draw(st.sampled_from(["message", "delta", "response.created"])))
    for data_line in data_lines:
        padding = " " * draw(st.integers(0, 3))
        lines.append(f"data:{padding}{data_line}{padding}")
    lines.append("")
    written: list[str] = []
    ending = ""
    for line in lines:
        # CR then an empty line's LF would read as one CRLF and swallow the blank line.
        ending = draw(_ENDINGS_AFTER_CR if ending == "\r" and not line else _LINE_ENDINGS)
        written.append(line + ending)
    return "".join(written)


@st.composite
def _stream_and_payloads(draw: st.DrawFn) -> tuple[list[str | bytes], list[dict[str, Any]]]:
    payloads = draw(st.lists(_JSON_OBJECTS, max_size=5))
    text = "".join([draw(_serialized_event(payload)) for payload in payloads])
    as_bytes = draw(st.booleans())
    whole: str | bytes = text.encode() if as_bytes else text
    cuts = sorted(draw(st.lists(st.integers(0, len(whole)), max_size=12)))
    bounds = [0, *cuts, len(whole)]
    chunks = [whole[start:end] for start, end in pairwise(bounds)]
    return chunks, payloads


@settings(max_examples=200, database=None, deadline=None)
@given(_stream_and_payloads())
def test_round_trip_through_random_chunks(case: tuple[list[str | bytes], list[dict[str, Any]]]) -> None:
    chunks, payloads = case
    assert list(iter_sse_json(chunks)) == payloads


@settings(max_examples=300, database=None, deadline=None)
@given(_stream_and_payloads())
def test_the_incremental_parser_reads_every_chunking_as_the_whole_stream(
    case: tuple[list[str | bytes], list[dict[str, Any]]],
) -> None:
    """:class:`SSEParser` (a stream's reader, chunk by chunk: LF-only chunks split without a
    regex) gives the events :func:`iter_sse` reads from the whole text, whatever the line
    endings (LF, CRLF, CR, a CRLF cut between chunks) and wherever the chunks are cut."""
    chunks, _ = case
    whole = b"".join(chunk if isinstance(chunk, bytes) else chunk.encode() for chunk in chunks)
    parser = SSEParser()
    events = [event for chunk in chunks for event in parser.feed(chunk)]
    assert [*events, *parser.close()] == list(iter_sse(whole))


@given(
    st.text(alphabet=st.sampled_from(["a", " ", "\n", "\r", "\u2028", "é", "{"]), max_size=12),
    st.none() | st.sampled_from(["message", "response.created"]),
    st.sampled_from(["\n", "\r\n"]),
)
def test_an_event_is_written_a_data_line_a_line_of_its_data(data: str, event: str | None, line_end: str) -> None:
    """One line of data (JSON text always is) is written without the general split, to the
    same text: an ``event:`` line when named, a ``data:`` line per line (LF, CRLF or CR), a
    blank line."""
    lines = [f"event: {event}"] if event is not None else []
    lines += [f"data: {line}" for line in data.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    assert format_sse(data, event, line_end=line_end) == line_end.join(lines) + line_end * 2


def test_the_incremental_parser_takes_a_crlf_cut_between_chunks_as_one_line_end() -> None:
    """A chunk that starts with the LF of a CRLF the last chunk's CR began (then read by
    the LF-only split) ends no second line: no blank line, no early event."""
    parser = SSEParser()
    chunks = ["data: one\r", "\ndata: two\r", "\n\r", "\n", "data: three\r", "", "\n\r\n"]
    events = [event for chunk in chunks for event in parser.feed(chunk)]
    assert [*events, *parser.close()] == [SSEEvent(None, "one\ntwo"), SSEEvent(None, "three")]


@settings(max_examples=100, database=None, deadline=None)
@given(_stream_and_payloads())
def test_the_incremental_parser_reads_chunks_cut_after_every_cr(
    case: tuple[list[str | bytes], list[dict[str, Any]]],
) -> None:
    chunks, _ = case
    text = b"".join(chunk if isinstance(chunk, bytes) else chunk.encode() for chunk in chunks).decode()
    cut = [piece + "\r" for piece in text.split("\r")]
    cut[-1] = cut[-1][:-1]
    parser = SSEParser()
    events = [event for chunk in cut for event in parser.feed(chunk)]
    assert [*events, *parser.close()] == list(iter_sse(text))


@settings(max_examples=300, database=None, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(["a", "é", " ", "\n", "\r", "\u2028"]), max_size=40),
    st.lists(st.integers(0, 40), max_size=8),
)
def test_lines_are_those_of_the_whole_text_however_it_is_cut(text: str, cuts: list[int]) -> None:
    """The line splitter the parser, ``iter_sse`` and JSON Lines share (an LF-only chunk split
    by ``str.split``, one with a CR by the regular expression) gives, for any cuts, the lines
    a split of the whole text on LF, CRLF and CR gives (a last line with no end included)."""
    from chatcodec.streams._sse import _LineSplitter  # pyright: ignore[reportPrivateUsage]

    bounds = [0, *sorted(min(cut, len(text)) for cut in cuts), len(text)]
    splitter = _LineSplitter()
    lines = [line for start, end in pairwise(bounds) for line in splitter.feed(text[start:end])]
    last = splitter.close()
    expected = re.split(r"\r\n|\r|\n", text)
    if expected[-1] == "":
        expected.pop()
    assert [*lines, *([last] if last is not None else [])] == expected
