"""A text's url citations (``TextPart.citations``) are written where a format has a place
for them (``Capabilities.citations``) and reported everywhere else, never dropped silently:
in a request's history, in an answer's body and in a stream (on the text's end event, or
a whole text's part event)."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._model.canonical_types import UrlCitationData
from chatcodec.streams._replay import events_from_response

CITATION: UrlCitationData = {
    "type": "url_citation",
    "url": "https://www.britannica.com/place/Mount-Columbia",
    "title": "Mount Columbia | Britannica",
    "start_index": 5,
    "end_index": 20,
}
TEXT = {"type": "text", "text": "It is Mount Columbia.", "citations": [CITATION]}


def _codecs() -> list[Any]:
    from chatcodec._providers.contract.provider_codec import ProviderCodec
    from chatcodec._registry import get_codec, registered_providers

    return [
        ProviderCodec.from_package("chatcodec._providers._template"),
        *(get_codec(name) for name in registered_providers()),
    ]


def _response() -> dict[str, Any]:
    return {
        "id": "resp_1",
        "model": "m",
        "choices": [
            {"message": {"role": "assistant", "content": [TEXT]}, "finish_reason": {"unified": "stop", "raw": "stop"}}
        ],
    }


def _cited(losses: LossRecorder) -> list[tuple[str, str]]:
    return [(loss.path, loss.kind) for loss in losses.losses if "citations" in loss.path]


def test_the_canonical_part_keeps_its_citations() -> None:
    part = chatcodec.TextPart.model_validate(TEXT)
    assert part.citations == [chatcodec.UrlCitation.model_validate(CITATION)]
    assert part.model_dump() == TEXT
    assert "citations" not in chatcodec.TextPart(text="plain").model_dump()  # left out when empty


@pytest.mark.parametrize("codec", _codecs(), ids=lambda codec: codec.name)
def test_every_request_writer_carries_or_reports_them(codec: Any) -> None:
    request = {"model": "m", "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": [TEXT]}]}
    losses = LossRecorder()
    codec.write_request(request, losses)
    if "request" in codec.capabilities.citations:
        assert _cited(losses) == []
    else:
        assert _cited(losses) == [("$.messages[1].content[0].citations", "content")]


@pytest.mark.parametrize("codec", _codecs(), ids=lambda codec: codec.name)
def test_every_response_writer_carries_or_reports_them(codec: Any) -> None:
    losses = LossRecorder()
    codec.write_response(_response(), losses)
    if "response" in codec.capabilities.citations:
        assert _cited(losses) == []
    else:
        assert _cited(losses) == [("$.choices[0].message.content[0].citations", "content")]


@pytest.mark.parametrize("codec", [codec for codec in _codecs() if codec.encodes_streams], ids=lambda codec: codec.name)
def test_every_stream_writer_carries_or_reports_them(codec: Any) -> None:
    events = list(events_from_response(chatcodec.ChatResponse.model_validate(_response())))
    kinds = [event.type for event in events]
    assert kinds[1:4] == ["text_start", "text_delta", "text_end"]
    losses = LossRecorder()
    list(codec.encode_stream(events, losses))
    if "stream" in codec.capabilities.citations:
        assert _cited(losses) == []
    else:
        assert _cited(losses) == [("$.events[3].citations", "content")]
    whole = [events[0], chatcodec.PartEvent(index=0, part=chatcodec.TextPart.model_validate(TEXT)), *events[4:]]
    losses = LossRecorder()
    list(codec.encode_stream(whole, losses))  # a text given whole (a part event)
    if "stream" not in codec.capabilities.citations:
        assert _cited(losses) == [("$.events[1].part.citations", "content")]
