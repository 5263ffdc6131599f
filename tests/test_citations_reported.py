"""A text's url citations (``TextPart.citations``) are written where a format has a place
for them (``Capabilities.citations``) and reported everywhere else, never dropped silently:
in a request's history, in an answer's body and in a stream (on the text's end event, or
a whole text's part event)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._model.canonical_types import UrlCitationData
from chatcodec._providers.contract.context import Reading
from chatcodec._registry import get_codec
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
    from chatcodec._registry import registered_providers

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


def _cited_history() -> dict[str, Any]:
    """A Responses request replaying a cited answer (an ``output_text`` with a
    ``url_citation`` annotation of exactly the SDK's ``AnnotationURLCitation`` fields)."""
    annotation = {
        "type": "url_citation",
        **{key: CITATION[key] for key in ("end_index", "start_index", "title", "url")},
    }
    answer = {"type": "output_text", "text": TEXT["text"], "annotations": [annotation]}
    replayed = {"type": "message", "role": "assistant", "content": [answer]}
    return {"model": "m", "input": [{"role": "user", "content": "Which peak?"}, replayed]}


_UNCITED_TARGETS = [codec.name for codec in _codecs()[1:] if "request" not in codec.capabilities.citations]


@pytest.mark.parametrize("form", ["dict", "bytes"])
@pytest.mark.parametrize("target", _UNCITED_TARGETS)
def test_a_conversion_reports_the_citations_its_reading_read(target: str, form: str) -> None:
    """A conversion's writer skips the look for citations only for a history its reading
    noted without any (``contract.context.note_citations``): the Responses reader says it
    read one, so the replayed answer's citations are still reported, read from a dict or
    from JSON."""
    request = _cited_history()
    payload: dict[str, Any] | bytes = request if form == "dict" else json.dumps(request).encode()
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(payload, source="openai-responses", target=target, on_loss="ignore", losses=losses)
    cited = [(loss.path, loss.kind) for loss in losses if "citations" in loss.path]
    assert cited == [("$.input[1].content[0].citations", "content")]


def test_the_record_names_only_the_history_read_without_citations() -> None:
    """The reading's record (:class:`Reading`) holds the ``messages`` list read when the
    reading put no url citation on it; the writer skips its look only for that list:
    another list (a copy), or a reading that read citations, and the writer looks."""
    noted = Reading()
    plain = get_codec("openai-chat").read_request(
        {"model": "m", "messages": [{"role": "user", "content": "q"}]}, noted=noted
    )
    assert noted.uncited is plain["messages"]
    cited_noted = Reading()
    cited = get_codec("openai-responses").read_request(_cited_history(), noted=cited_noted)
    assert cited["messages"][1]["content"][0]["citations"] == [CITATION]
    assert cited_noted.uncited is None
    uncited_noted = Reading()
    uncited = get_codec("openai-responses").read_request({"model": "m", "input": "q"}, noted=uncited_noted)
    assert uncited_noted.uncited is uncited["messages"]
    recorder = LossRecorder()
    get_codec("anthropic").write_request(cited, recorder, noted=noted)  # the record of another list: looked
    assert any("citations" in loss.path for loss in recorder.losses)
