"""An image's base64 text is checked once: its reader checks it when it splits a data URL,
and the writer that builds a data URL again, and the next request that resends it (an
agent resends its screenshots every turn), find it remembered. Text that is not base64 is
never remembered, and the memory is bounded. The memory finds a text by its identity or by a
sample of it, never by hashing it whole (a conversion that meets its images for the first
time pays no hash only a later request could use), and what it accepts is the rule's set."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from chatcodec import _compat
from chatcodec._conversion import read_request_data
from chatcodec._text_memory import LongTextMemory

_DATA = base64.b64encode(bytes(range(256)) * 64).decode()


@pytest.fixture(autouse=True)
def _nothing_checked_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_compat, "_PROVEN", LongTextMemory(1 << 23))


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
    assert "not base64!" not in _compat._PROVEN.texts.values()  # pyright: ignore[reportPrivateUsage]
    assert not _compat.is_base64_text("a\ud800")  # a lone surrogate: no UTF-8 body holds it


def test_the_memory_forgets_everything_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_compat, "_PROVEN", LongTextMemory(10))
    assert _compat.is_base64_text("AAAAAAAA")
    assert _compat.is_base64_text("BBBBBBBB")
    proven = _compat._PROVEN  # pyright: ignore[reportPrivateUsage]
    assert set(proven.texts.values()) == {"BBBBBBBB"}
    assert proven.characters == 8


class _Unhashable(str):
    """A text that fails when hashed: the memory must find (and keep) it without its hash."""

    __slots__ = ()

    def __hash__(self) -> int:
        raise AssertionError("the whole text was hashed")


def test_a_text_is_checked_and_found_again_without_hashing_it_whole() -> None:
    first = _Unhashable(_DATA)
    assert _compat.is_base64_text(first)
    assert _compat.is_base64_text(first)  # the same object: by identity
    again = _Unhashable("".join(_DATA))  # the next request's equal text: by its sample, then compared
    assert again is not first
    assert _compat.is_base64_text(again)


def test_a_text_sharing_a_remembered_texts_sample_is_checked_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two images of one length whose middles agree share a sample: the second is compared
    whole with the first, and checked itself when it differs (the newest checked is kept)."""
    checked = _counted_checks(monkeypatch)
    good = "A" * 100
    assert _compat.is_base64_text(good)
    assert not _compat.is_base64_text("!" + "A" * 99)  # the same sample, not base64: refused
    other = "B" + "A" * 99
    assert _compat.is_base64_text(other)
    assert _compat.is_base64_text("".join(other))
    assert checked == [100, 100, 100]
    proven = _compat._PROVEN  # pyright: ignore[reportPrivateUsage]
    assert set(proven.texts.values()) == {other}
    assert proven.characters == 100


_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-"
_NEAR = st.sampled_from([*_ALPHABET, " ", "\n", ".", ",", ":", "*", "é", "\x00", "\x7f", "\ud800", "\U0001f600"])


def _the_rule(text: str) -> bool:
    """What :func:`chatcodec._compat.is_base64_text` accepts: only the base64 alphabet,
    standard or URL-safe, and padding (the accept set its docstring states)."""
    return all(character in _ALPHABET for character in text)


@given(st.text(alphabet=_ALPHABET, min_size=8, max_size=80), st.text(_NEAR, min_size=1, max_size=3), st.data())
def test_what_is_accepted_is_the_rules_set_whatever_the_memory_holds(
    base: str, changed: str, data: st.DataObject
) -> None:
    """A base64 text is remembered, then a text of the same length and sample (changed
    outside its middle) and one changed anywhere are asked about, each twice (as its own
    object and as a new equal one): each answer is the rule's."""
    memory = LongTextMemory(1 << 20)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_compat, "_PROVEN", memory)
        assert _compat.is_base64_text(base)
        outside = data.draw(st.integers(0, max(0, len(base) // 2 - len(changed))))
        anywhere = data.draw(st.integers(0, len(base)))
        for at in (outside, anywhere):
            text = base[:at] + changed + base[at + len(changed) :]
            for asked in (text, "".join(text)):
                assert _compat.is_base64_text(asked) is _the_rule(asked)
        assert all(_the_rule(text) for text in memory.texts.values())


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
