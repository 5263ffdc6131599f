"""A conversion checks an image's base64 text once: its reader proves it when it splits a
data URL, and the writer that builds a data URL again takes that proof (the check is a pass
over what may be megabytes). Outside a conversion nothing is remembered, and text that is
not base64 is never taken as proven."""

from __future__ import annotations

import base64

import pytest

import chatcodec
from chatcodec import _compat
from chatcodec._providers.contract.context import close_conversion, open_conversion

_DATA = base64.b64encode(bytes(range(256)) * 64).decode()


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


def test_a_conversion_checks_an_images_base64_once(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = _counted_checks(monkeypatch)
    url = "data:image/png;base64," + _DATA
    body = chatcodec.convert_request(_responses_body(url), source="openai-responses", target="openai-chat")
    assert body["messages"][0]["content"][0]["image_url"]["url"] == url
    assert checked == [len(_DATA)]


def test_a_decode_then_an_encode_check_it_each(monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside one conversion the reader's proof is not kept: each step checks (the reason
    the test above can fail)."""
    checked = _counted_checks(monkeypatch)
    request = chatcodec.decode_request("openai-responses", _responses_body("data:image/png;base64," + _DATA))
    chatcodec.encode_request("openai-chat", request)
    assert checked == [len(_DATA), len(_DATA)]


def test_outside_a_conversion_nothing_is_remembered() -> None:
    assert _compat.PROVEN_BASE64.get() is None
    assert _compat.is_base64_text(_DATA)
    assert _compat.PROVEN_BASE64.get() is None


def test_within_a_span_only_base64_text_is_proven() -> None:
    span = open_conversion()
    try:
        assert _compat.is_base64_text(_DATA)
        assert not _compat.is_base64_text("not base64!")
        proven = _compat.PROVEN_BASE64.get()
        assert proven is not None
        assert list(proven.values()) == [_DATA]
        assert _compat.is_base64_text(_DATA)
    finally:
        close_conversion(span)
    assert _compat.PROVEN_BASE64.get() is None
