"""An image's base64 text is checked once: its reader checks it when it splits a data URL,
and the writer that builds a data URL again, and the next request that resends it (an
agent resends its screenshots every turn), find it remembered. Text that is not base64 is
never remembered, and the memory is bounded."""

from __future__ import annotations

import base64

import pytest

import chatcodec
from chatcodec import _compat
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
