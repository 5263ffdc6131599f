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
