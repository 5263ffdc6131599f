"""A Chat stream's texts run into one content string, and their url citations with them.

OpenAI streams a choice's content as one string (``ChoiceDelta.content`` fragments, openai
``types/chat/chat_completion_chunk.py``) and its url citations on the finish chunk's
``delta.annotations``, each counting characters of that whole string (``AnnotationURLCitation``:
"the index of the first/last character of the URL citation in the message"). A canonical
stream with two text parts is written as one content string, so the second text's citations
move by the characters of the first: read back, every citation still points at its words.
Each chunk written is validated by the SDK's ``ChatCompletionChunk``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from openai.types.chat import ChatCompletionChunk

import chatcodec
from chatcodec import Loss

FIRST = "Columbia is 3,747 m high (britannica.com). "
SECOND = "It is in the Rockies, said to be 'höchst' (peakbagger.com)."


def _cite(text: str, cited: str, url: str) -> chatcodec.UrlCitation:
    start = text.index(cited)
    return chatcodec.UrlCitation(url=url, title=url[8:], start_index=start, end_index=start + len(cited))


FIRST_CITE = _cite(FIRST, "(britannica.com)", "https://britannica.com")
SECOND_CITE = _cite(SECOND, "(peakbagger.com)", "https://peakbagger.com")


def _events(*, whole: bool) -> list[chatcodec.StreamEvent]:
    start = chatcodec.ResponseStartEvent(id="chatcmpl-1", model="gpt-4o-search-preview", created=1)
    finish = chatcodec.FinishEvent(finish_reason=chatcodec.FinishReason(unified="stop", raw="stop"))
    texts = ((FIRST, FIRST_CITE), (SECOND, SECOND_CITE))
    if whole:
        parts = [
            chatcodec.PartEvent(index=index, part=chatcodec.TextPart(text=text, citations=[cite]))
            for index, (text, cite) in enumerate(texts)
        ]
        return [start, *parts, finish]
    pieces: list[chatcodec.StreamEvent] = []
    for index, (text, cite) in enumerate(texts):
        pieces += [
            chatcodec.TextStartEvent(index=index),
            chatcodec.TextDeltaEvent(index=index, delta=text[:10]),
            chatcodec.TextDeltaEvent(index=index, delta=text[10:]),
            chatcodec.TextEndEvent(index=index, citations=[cite]),
        ]
    return [start, *pieces, finish]


@pytest.mark.parametrize("whole", [False, True], ids=["deltas", "whole parts"])
def test_a_second_texts_citations_move_by_the_first_texts_characters(whole: bool) -> None:
    losses: list[Loss] = []
    chunks: list[dict[str, Any]] = list(
        chatcodec.encode_stream("openai-chat", _events(whole=whole), on_loss="ignore", losses=losses)
    )
    for chunk in chunks:
        ChatCompletionChunk.model_validate(chunk)
    assert [loss for loss in losses if "citation" in loss.what] == []
    finish = next(chunk for chunk in chunks if chunk["choices"] and chunk["choices"][0]["finish_reason"])
    annotations = finish["choices"][0]["delta"]["annotations"]
    content = "".join(chunk["choices"][0]["delta"].get("content") or "" for chunk in chunks if chunk["choices"])
    assert content == FIRST + SECOND
    spans = [(a["url_citation"]["start_index"], a["url_citation"]["end_index"]) for a in annotations]
    assert [content[start:end] for start, end in spans] == ["(britannica.com)", "(peakbagger.com)"]
    assert spans[1][0] == len(FIRST) + SECOND_CITE.start_index  # moved by the first text, in characters
    read = chatcodec.accumulate_stream("openai-chat", chunks).choices[0].message.content
    assert len(read) == 1
    assert isinstance(read[0], chatcodec.TextPart)
    assert [read[0].text[c.start_index : c.end_index] for c in read[0].citations] == [
        "(britannica.com)",
        "(peakbagger.com)",
    ]


# --- annotations on any delta (issue 76) ----------------------------------------------------

_TEXT = "Columbia is 3,747 m high (britannica.com)."
_CITED = "(britannica.com)"
_ANNOTATION = {
    "type": "url_citation",
    "url_citation": {
        "start_index": _TEXT.index(_CITED),
        "end_index": _TEXT.index(_CITED) + len(_CITED),
        "title": "britannica.com",
        "url": "https://britannica.com",
    },
}
_ENVELOPE = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o-search-preview"}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {**_ENVELOPE, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _stream(where: str) -> list[dict[str, Any]]:
    """The answer's chunks with its annotations on the finish chunk beside the last text
    (``with_last_text``), beside the text they cite mid-stream (``with_their_text``), or on
    a chunk of their own before the finish (``own_chunk``)."""
    head, tail = _TEXT[:20], _TEXT[20:]
    cited = [_ANNOTATION]
    chunks = [_chunk({"role": "assistant", "content": ""})]
    if where == "with_last_text":
        return [*chunks, _chunk({"content": head}), _chunk({"content": tail, "annotations": cited}, "stop")]
    if where == "with_their_text":
        return [*chunks, _chunk({"content": head}), _chunk({"content": tail, "annotations": cited}), _chunk({}, "stop")]
    return [*chunks, _chunk({"content": _TEXT}), _chunk({"annotations": cited}), _chunk({}, "stop")]


def _body() -> dict[str, Any]:
    """The same answer not streamed: the openai SDK's ``ChatCompletion`` with its message's
    ``annotations`` (``ChatCompletionMessage.annotations: List[Annotation]``)."""
    from openai.types.chat import ChatCompletion

    message = {"role": "assistant", "content": _TEXT, "annotations": [_ANNOTATION]}
    body = {
        **_ENVELOPE,
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
    }
    ChatCompletion.model_validate(body)
    return body


@pytest.mark.parametrize("where", ["with_last_text", "with_their_text", "own_chunk"])
def test_annotations_on_any_delta_are_the_texts_citations(where: str) -> None:
    """A server may give ``delta.annotations`` beside the text they cite (OpenRouter and
    compatible servers stream them so) or on a chunk of their own, not only on OpenAI's
    finish chunk; their offsets count in the whole content string all the same. Decoded, the
    text's end event holds them; accumulated, the answer is the non-streamed body's; converted
    to a Responses stream and back, they are still there."""
    chunks = _stream(where)
    for chunk in chunks:
        ChatCompletionChunk.model_validate(chunk)
    events = list(chatcodec.decode_stream("openai-chat", chunks))
    (end,) = [event for event in events if isinstance(event, chatcodec.TextEndEvent)]
    assert [(c.url, _TEXT[c.start_index : c.end_index]) for c in end.citations] == [("https://britannica.com", _CITED)]
    assert not any(event.provider_metadata for event in events if isinstance(event, chatcodec.TextDeltaEvent))
    accumulated = chatcodec.accumulate_stream("openai-chat", chunks)
    assert accumulated.choices[0].message == chatcodec.decode_response("openai-chat", _body()).choices[0].message
    losses: list[Loss] = []
    wire = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks).encode() + b"data: [DONE]\n\n"
    sse = b"".join(chatcodec.convert_stream([wire], source="openai-chat", target="openai-responses", losses=losses))
    assert [loss for loss in losses if "citation" in loss.what or "annotation" in loss.what] == []
    back = chatcodec.accumulate_stream("openai-responses", sse.decode()).choices[0].message.content[-1]
    assert isinstance(back, chatcodec.TextPart)
    assert [(c.url, back.text[c.start_index : c.end_index]) for c in back.citations] == [
        ("https://britannica.com", _CITED)
    ]


def test_annotations_of_a_stream_cut_off_before_its_finish_stay_on_the_message() -> None:
    chunks = _stream("with_their_text")[:-1]
    accumulated = chatcodec.accumulate_stream("openai-chat", chunks, partial=True)
    message = accumulated.choices[0].message
    assert message.provider_metadata == {"openai-chat": {"annotations": [_ANNOTATION]}}
