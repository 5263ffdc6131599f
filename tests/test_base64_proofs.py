"""An image's base64 text is checked once: its reader checks it when it splits a data URL,
and the writer that builds a data URL again, and the next request that resends it (an
agent resends its screenshots every turn), find it remembered. Text that is not base64 is
never remembered, and the memory is bounded."""

from __future__ import annotations

import base64

import pytest

import chatcodec
from chatcodec import _compat
from chatcodec._conversion import read_request_data
from chatcodec._text_memory import TextMemory

_DATA = base64.b64encode(bytes(range(256)) * 64).decode()


@pytest.fixture(autouse=True)
def _nothing_checked_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_compat, "_PROVEN", TextMemory(1 << 23))


def _responses_body(url: str) -> dict[str, object]:
    return {
        "model": "gpt-5",
        "input": [{"role": "user", "content": [{"type": "input_image", "image_url": url, "detail": "auto"}]}],
    }


def _counted_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    checked: list[int] = []
    check = _compat._alphabet_only  # pyright: ignore[reportPrivateUsage]

    def counted(data: str) -> bool:
        checked.append(len(data))
        return check(data)

    monkeypatch.setattr(_compat, "_alphabet_only", counted)
    return checked


def test_an_images_base64_is_checked_once_across_a_conversion_and_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = _counted_checks(monkeypatch)
    url = "data:image/png;base64," + _DATA
    for _ in range(2):  # the second: the next turn resending the same screenshot, as a new string
        given = _responses_body("".join(url))
        body = chatcodec.convert_request(given, source="openai-responses", target="openai-chat")
        assert body["messages"][0]["content"][0]["image_url"]["url"] == url
    assert checked == [len(_DATA)]


def test_text_that_is_not_base64_is_checked_each_time_and_never_remembered() -> None:
    assert not _compat.is_base64_text("not base64!")
    assert not _compat.is_base64_text("not base64!")
    assert "not base64!" not in _compat._PROVEN.texts  # pyright: ignore[reportPrivateUsage]
    assert not _compat.is_base64_text("a\ud800")  # a lone surrogate: no UTF-8 body holds it


def test_the_memory_forgets_everything_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_compat, "_PROVEN", TextMemory(10))
    assert _compat.is_base64_text("AAAAAAAA")
    assert _compat.is_base64_text("BBBBBBBB")
    proven = _compat._PROVEN  # pyright: ignore[reportPrivateUsage]
    assert proven.texts == {"BBBBBBBB"}
    assert proven.characters == 8


@pytest.fixture
def _nothing_split_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_compat, "_SPLIT", {})
    monkeypatch.setattr(_compat, "_split_characters", 0)


@pytest.mark.usefixtures("_nothing_split_before")
def test_the_same_data_url_object_is_split_once_and_written_back_as_itself() -> None:
    url = "".join(["data:image/png;base64,", _DATA])
    given = _responses_body(url)
    read = [read_request_data(given, "openai-responses") for _ in range(2)]
    data = [request["messages"][0]["content"][0]["source"]["data"] for request in read]
    assert data[0] == _DATA
    assert data[1] is data[0]  # not split (and hashed) again: the text split before
    body = chatcodec.convert_request(given, source="openai-responses", target="openai-chat")
    assert body["messages"][0]["content"][0]["image_url"]["url"] is url  # not joined again: the URL given


@pytest.mark.usefixtures("_nothing_split_before")
def test_a_split_data_is_joined_anew_under_another_media_type_and_an_equal_url_is_split_anew() -> None:
    url = "data:image/png;base64," + _DATA
    data = _compat.source_from_url(url)["data"]
    assert _compat.data_url("image/png", data) is url
    assert _compat.data_url("image/jpeg", data) == "data:image/jpeg;base64," + _DATA
    copy = "".join(["data:image/png;base64,", _DATA])
    assert _compat.source_from_url(copy) == {"type": "base64", "media_type": "image/png", "data": _DATA}
    assert _compat.source_from_url(copy)["data"] is not data


@pytest.mark.usefixtures("_nothing_split_before")
def test_the_split_memory_forgets_everything_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_compat, "_SPLIT_LIMIT", 40)
    first, second = "data:image/png;base64,AAAA", "data:image/png;base64,BBBB"
    _compat.source_from_url(first)
    _compat.source_from_url(second)
    split = _compat._SPLIT  # pyright: ignore[reportPrivateUsage]
    assert [entry[0] for entry in split.values()] == [second, second]


@pytest.mark.usefixtures("_nothing_split_before")
def test_the_split_memory_counts_the_data_it_holds_beside_each_url(monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry holds the URL and the data split from it (a second text of nearly its size):
    both count toward the bound, so the characters kept alive are the bound the docs state."""
    url = "data:image/png;base64,AAAA"
    monkeypatch.setattr(_compat, "_SPLIT_LIMIT", len(url) + 4)
    _compat.source_from_url(url)
    assert _compat._split_characters == len(url) + 4  # pyright: ignore[reportPrivateUsage]
    _compat.source_from_url("data:image/png;base64,BBBB")
    split = _compat._SPLIT  # pyright: ignore[reportPrivateUsage]
    assert [entry[0] for entry in split.values()] == ["data:image/png;base64,BBBB"] * 2
