"""A data URL's base64 text is carried as given: split from its URL without its alphabet
proved (only ASCII, which no lone surrogate or other non-ASCII text is), sent unchanged where
the target takes the same text (OpenAI Chat and Responses data URLs, Anthropic's base64
sources), and proved only where a writer decodes it or sends bytes (Gemini, Bedrock). A
payload that is not base64 is the caller's, and the provider's 400 names it; proving every
byte cost more than the whole conversion of a session with screenshots
(``docs/performance-history.md``). The split is remembered by the identity of the URL text,
bounded."""

from __future__ import annotations

import base64
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from chatcodec import _compat
from chatcodec._conversion import read_request_data

_DATA = base64.b64encode(bytes(range(256)) * 64).decode()

_NOT_BASE64 = ["not base64!", "aGk=\n", "a,b;c", "%%%"]
"""ASCII data outside the base64 alphabet: carried as given."""


def _chat_body(url: str) -> dict[str, object]:
    image = {"type": "image_url", "image_url": {"url": url, "detail": "auto"}}  # Responses requires a detail
    content = [{"type": "text", "text": "q"}, image]
    return {"model": "gpt-4o", "max_completion_tokens": 100, "messages": [{"role": "user", "content": content}]}


def _responses_body(url: str) -> dict[str, object]:
    return {
        "model": "gpt-5",
        "input": [{"role": "user", "content": [{"type": "input_image", "image_url": url, "detail": "auto"}]}],
    }


_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-"
_NEAR = st.sampled_from([*_ALPHABET, " ", "\n", ".", ",", ":", "*", "é", "\x00", "\x7f", "\ud800", "\U0001f600"])


@given(st.text(_NEAR, max_size=40))
def test_what_fits_a_data_url_is_ascii_and_a_fitting_data_url_reads_back_as_its_text(data: str) -> None:
    assert _compat.fits_a_data_url(data) is data.isascii()
    url = "data:image/png;base64," + data
    read = _compat.source_from_url(url)
    if data.isascii():
        assert read == {"type": "base64", "media_type": "image/png", "data": data}
        assert _compat.data_url("image/png", read["data"]) == url
        assert _compat.reads_back("image/png", data)
    else:
        assert read == {"type": "url", "url": url}
        assert not _compat.reads_back("image/png", data)


@pytest.mark.parametrize("data", _NOT_BASE64)
def test_a_data_url_that_is_not_base64_goes_to_anthropic_as_a_base64_source_of_the_same_text(data: str) -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        _chat_body("data:image/png;base64," + data), source="openai-chat", target="anthropic", losses=losses
    )
    assert body["messages"][0]["content"][1] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": data},
    }
    assert losses == []  # nothing of the image reported: the text is the caller's, sent unchanged


@pytest.mark.parametrize("data", _NOT_BASE64)
@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
def test_a_data_url_that_is_not_base64_round_trips_exactly(data: str, target: str) -> None:
    given_body = _chat_body("data:image/png;base64," + data)
    losses: list[chatcodec.Loss] = []
    there = chatcodec.convert_request(given_body, source="openai-chat", target=target, losses=losses)
    back = chatcodec.convert_request(there, source=target, target="openai-chat", losses=losses)
    assert back == given_body
    assert losses == []
    anthropic = chatcodec.convert_request(given_body, source="openai-chat", target="anthropic", on_loss="ignore")
    again = chatcodec.convert_request(anthropic, source="anthropic", target="openai-chat", on_loss="ignore")
    assert again["messages"][0]["content"][1]["image_url"]["url"] == "data:image/png;base64," + data


def test_a_data_url_of_non_ascii_text_stays_the_url_it_is() -> None:
    """Text outside ASCII is in no base64 alphabet: read as the URL source it is (Anthropic is
    sent it as a URL, as before), and a canonical base64 source of it is not written as a data
    URL (a lone surrogate could not even be written into a UTF-8 body)."""
    url = "data:image/png;base64,iVBOR\u00e9w0KGgo="
    body = chatcodec.convert_request(_chat_body(url), source="openai-chat", target="anthropic", on_loss="ignore")
    assert body["messages"][0]["content"][1]["source"] == {"type": "url", "url": url}
    for data in ("iVBOR\u00e9w0KGgo=", "iVBOR\ud800w0KGgo="):
        part = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}
        request = {"model": "gpt-4o", "messages": [{"role": "user", "content": [{"type": "text", "text": "q"}, part]}]}
        losses: list[chatcodec.Loss] = []
        written = chatcodec.encode_request("openai-chat", request, on_loss="ignore", losses=losses)
        assert written["messages"][0]["content"] == [{"type": "text", "text": "q"}]
        assert [(loss.path, loss.what) for loss in losses] == [("$.messages[0].content[1].source.data", "media data")]
        json.dumps(written).encode()  # writable


@pytest.mark.parametrize(("target", "what"), [("gemini", "media data"), ("bedrock-converse", "image data")])
@pytest.mark.parametrize("data", _NOT_BASE64)
def test_a_target_that_decodes_the_data_still_proves_it(target: str, what: str, data: str) -> None:
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(
        _chat_body("data:image/png;base64," + data),
        source="openai-chat",
        target=target,
        on_loss="ignore",
        losses=losses,
    )
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[0].content[1].source.data", what)]
    chatcodec.convert_request(_chat_body("data:image/png;base64,aGk="), source="openai-chat", target=target)


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
    assert data[1] is data[0]  # not split again: the text split before
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
