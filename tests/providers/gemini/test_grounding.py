"""Grounding with Google Search <-> the canonical url citations (issue 61).

Sources: google-genai's types (``GroundingMetadata``, ``GroundingChunk``/``GroundingChunkWeb``
``{uri, title}``, ``GroundingSupport`` ``{segment, groundingChunkIndices, confidenceScores}``,
``Segment``: ``partIndex`` "the index of a Part object within its parent Content",
``startIndex``/``endIndex`` "measured in bytes", "offset from the start of the Part"), which
build the bodies here and validate every body written; and the recorded answer
``tests/fixtures/gemini/response/google_search_grounding.json`` (pydantic-ai's cassette of
gemini-2.5-pro), whose segments after a ``°`` count the text's UTF-8 bytes. OpenAI's citation
counts characters (``UrlCitation``), so each span is converted.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from google.genai import types
from openai.types.chat import ChatCompletion

import chatcodec
from chatcodec import Loss
from chatcodec.streams._replay import events_from_response
from providers.gemini.gemini_support import assert_valid_response, assert_valid_stream, load_json

FIXTURES = Path(__file__).parents[2] / "fixtures"
THOUGHT = "Looking up Zürich's weather."
TEXT = "Zürich is 22°C today. Winds are light. Rain is unlikely."
SUNNY, WINDS = "Zürich is 22°C today.", "Winds are light."


def _bytes(text: str, cited: str) -> tuple[int, int]:
    start = text.encode().index(cited.encode())
    return start, start + len(cited.encode())


def _support(cited: str, indices: list[int], scores: list[float] | None = None) -> types.GroundingSupport:
    start, end = _bytes(TEXT, cited)
    segment = types.Segment(part_index=1, start_index=start or None, end_index=end, text=cited)
    return types.GroundingSupport(segment=segment, grounding_chunk_indices=indices, confidence_scores=scores)


def grounded(*, scores: bool = False) -> dict[str, Any]:
    """A grounded answer after a thought part (so its supports name ``partIndex`` 1), with a
    support backed by two sources, a source no support names, and a non-ASCII text."""
    chunks = [
        types.GroundingChunk(web=types.GroundingChunkWeb(uri="https://meteo.ch/zurich", title="meteo.ch")),
        types.GroundingChunk(web=types.GroundingChunkWeb(uri="https://unused.example", title="unused.example")),
        types.GroundingChunk(web=types.GroundingChunkWeb(uri="https://wetter.de/z", title="wetter.de")),
    ]
    metadata = types.GroundingMetadata(
        web_search_queries=["weather Zürich"],
        grounding_chunks=chunks,
        grounding_supports=[
            _support(SUNNY, [0, 2], [0.9, 0.7] if scores else None),
            _support(WINDS, [2], [0.5] if scores else None),
        ],
    )
    content = types.Content(role="model", parts=[types.Part(text=THOUGHT, thought=True), types.Part(text=TEXT)])
    candidate = types.Candidate(content=content, finish_reason=types.FinishReason.STOP, grounding_metadata=metadata)
    response = types.GenerateContentResponse(candidates=[candidate], model_version="gemini-2.5-flash", response_id="r1")
    return response.model_dump(mode="json", by_alias=True, exclude_none=True)


def _cited(part: chatcodec.TextPart) -> list[tuple[str, str]]:
    return [(part.text[c.start_index : c.end_index], c.url) for c in part.citations]


def _text(response: chatcodec.ChatResponse) -> chatcodec.TextPart:
    part = response.choices[0].message.content[-1]
    assert isinstance(part, chatcodec.TextPart)
    return part


def _kept(response: chatcodec.ChatResponse) -> Any:
    """What the answer's bag keeps of its ``groundingMetadata``."""
    return response.model_dump()["choices"][0]["provider_metadata"]["gemini"]["groundingMetadata"]


def _round_trip(body: dict[str, Any]) -> tuple[dict[str, Any], list[Loss]]:
    losses: list[Loss] = []
    written = chatcodec.convert_response(body, source="gemini", target="gemini", on_loss="ignore", losses=losses)
    return written, losses


def test_the_recorded_groundings_supports_are_the_texts_citations_in_characters() -> None:
    body = load_json("response", "google_search_grounding.json")
    response = chatcodec.decode_response("gemini", body)
    text = _text(response)
    metadata = body["candidates"][0]["groundingMetadata"]
    chunks = metadata["groundingChunks"]
    expected = [
        (support["segment"]["text"], chunks[index]["web"]["uri"])
        for support in metadata["groundingSupports"]
        for index in support["groundingChunkIndices"]
    ]
    assert _cited(text) == expected
    assert text.citations[1].start_index == metadata["groundingSupports"][1]["segment"]["startIndex"] - 1  # the °
    kept = _kept(response)
    assert kept == {key: metadata[key] for key in ("searchEntryPoint", "webSearchQueries")}  # what has no place
    written, losses = _round_trip(body)
    assert written == body
    assert losses == []
    grounding = written["candidates"][0]["groundingMetadata"]
    assert json.dumps(grounding) == json.dumps(metadata)  # its keys as the recording sorted them, too


def test_a_built_grounding_reads_and_round_trips_exactly() -> None:
    for scores in (False, True):
        body = grounded(scores=scores)
        text = _text(chatcodec.decode_response("gemini", body))
        assert _cited(text) == [
            (SUNNY, "https://meteo.ch/zurich"),
            (SUNNY, "https://wetter.de/z"),
            (WINDS, "https://wetter.de/z"),
        ]
        written, losses = _round_trip(body)
        assert written == body
        assert losses == []
        assert_valid_response(written)


def test_grounding_crosses_to_openai_chat_and_back_pointing_at_the_same_words() -> None:
    losses: list[Loss] = []
    chat = chatcodec.convert_response(
        grounded(), source="gemini", target="openai-chat", on_loss="ignore", losses=losses
    )
    message = ChatCompletion.model_validate(chat).choices[0].message
    assert message.content is not None
    assert [
        (message.content[a.url_citation.start_index : a.url_citation.end_index], a.url_citation.url)
        for a in message.annotations or []
    ] == [(SUNNY, "https://meteo.ch/zurich"), (SUNNY, "https://wetter.de/z"), (WINDS, "https://wetter.de/z")]
    assert [loss for loss in losses if "citation" in loss.what] == []
    losses = []
    back = chatcodec.convert_response(chat, source="openai-chat", target="gemini", on_loss="ignore", losses=losses)
    assert_valid_response(back)
    assert [loss for loss in losses if "citation" in loss.what or "grounding" in loss.what] == []
    candidate = types.GenerateContentResponse.model_validate(back).candidates
    assert candidate is not None
    metadata = candidate[0].grounding_metadata
    assert metadata is not None
    assert metadata.grounding_supports is not None
    assert metadata.grounding_chunks is not None
    parts = candidate[0].content.parts if candidate[0].content else None
    assert parts is not None
    found: list[tuple[str, str | None]] = []
    for support in metadata.grounding_supports:
        segment = support.segment
        assert segment is not None
        assert segment.end_index is not None
        text = parts[segment.part_index or 0].text
        assert text is not None
        cited = text.encode()[segment.start_index or 0 : segment.end_index].decode()  # bytes, as Gemini counts
        assert cited == segment.text
        for index in support.grounding_chunk_indices or ():
            web = metadata.grounding_chunks[index].web
            assert web is not None
            found.append((cited, web.uri))
    assert found == [(SUNNY, "https://meteo.ch/zurich"), (SUNNY, "https://wetter.de/z"), (WINDS, "https://wetter.de/z")]


def test_a_grounding_that_does_not_map_exactly_stays_whole_in_the_bag() -> None:
    mismatched = grounded()
    mismatched["candidates"][0]["groundingMetadata"]["groundingSupports"][0]["segment"]["text"] = "other words"
    maps = grounded()
    maps["candidates"][0]["groundingMetadata"]["groundingChunks"][0] = {"maps": {"uri": "https://maps.example"}}
    for body in (mismatched, maps):
        response = chatcodec.decode_response("gemini", copy.deepcopy(body))
        assert _text(response).citations == []
        assert _kept(response) == body["candidates"][0]["groundingMetadata"]
        written, losses = _round_trip(body)
        assert written == body
        assert losses == []


def test_a_citation_outside_its_text_is_reported_not_written() -> None:
    response = {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "text",
                            "text": "short",
                            "citations": [
                                {
                                    "type": "url_citation",
                                    "url": "https://a",
                                    "title": "a",
                                    "start_index": 0,
                                    "end_index": 5,
                                },
                                {
                                    "type": "url_citation",
                                    "url": "https://b",
                                    "title": "b",
                                    "start_index": 2,
                                    "end_index": 9,
                                },
                            ],
                        }
                    ],
                },
                "finish_reason": {"unified": "stop", "raw": "STOP"},
            }
        ]
    }
    losses: list[Loss] = []
    body = chatcodec.encode_response("gemini", response, on_loss="ignore", losses=losses)
    assert_valid_response(body)
    supports = body["candidates"][0]["groundingMetadata"]["groundingSupports"]
    assert supports == [{"segment": {"endIndex": 5, "text": "short"}, "groundingChunkIndices": [0]}]
    assert [(loss.path, loss.kind) for loss in losses] == [("$.choices[0].message.content[0].citations[1]", "content")]


def _answer(parts: list[chatcodec.TextPart], raw: str) -> chatcodec.ChatResponse:
    message = {"role": "assistant", "content": [part.model_dump() for part in parts]}
    choice = {"index": 0, "message": message, "finish_reason": {"unified": "stop", "raw": raw}}
    return chatcodec.ChatResponse.model_validate({"id": "r1", "model": "m", "choices": [choice]})


def _stream(response: chatcodec.ChatResponse) -> tuple[list[dict[str, Any]], list[Loss]]:
    losses: list[Loss] = []
    events = events_from_response(response, lambda text: [text[start : start + 9] for start in range(0, len(text), 9)])
    chunks = list(chatcodec.encode_stream("gemini", events, on_loss="ignore", losses=losses))
    assert_valid_stream(chunks)
    return chunks, losses


def test_a_grounded_answer_streams_its_grounding_on_the_finish_chunk_and_reads_back() -> None:
    """Gemini streams the candidate's groundingMetadata on its last chunk, its segments
    counting the whole answer's parts, as the body's do."""
    for body in (load_json("response", "google_search_grounding.json"), grounded(scores=True)):
        response = chatcodec.decode_response("gemini", body)
        chunks, losses = _stream(response)
        assert losses == []
        assert "groundingMetadata" in chunks[-1]["candidates"][0]
        again = chatcodec.accumulate_stream("gemini", chunks)
        assert _text(again).citations == _text(response).citations
        assert again.choices[0].provider_metadata == response.choices[0].provider_metadata


def test_a_chat_streams_citations_reach_a_gemini_stream_pointing_at_the_same_words() -> None:
    cited = chatcodec.TextPart(
        text=TEXT,
        citations=[
            chatcodec.UrlCitation(url="https://wetter.de/z", title="wetter.de", start_index=start, end_index=end)
            for start, end in [(TEXT.index(WINDS), TEXT.index(WINDS) + len(WINDS))]
        ],
    )
    answer = _answer([cited], "stop")
    chat = list(chatcodec.encode_stream("openai-chat", events_from_response(answer), on_loss="ignore"))
    losses: list[Loss] = []
    sse = b"".join(b"data: " + json.dumps(chunk).encode() + b"\n\n" for chunk in chat) + b"data: [DONE]\n\n"
    gemini = b"".join(
        chatcodec.convert_stream(sse, source="openai-chat", target="gemini", on_loss="ignore", losses=losses)
    )
    assert [loss for loss in losses if "citation" in loss.what] == []
    read = _text(chatcodec.accumulate_stream("gemini", gemini))
    assert _cited(read) == [(WINDS, "https://wetter.de/z")]


def test_a_streamed_grounding_citing_a_text_already_ended_stays_whole_in_the_bag() -> None:
    """The grounding comes on the last chunks, after every text but the last has ended: one
    citing an earlier text is kept whole (the stream's text events are already given)."""
    first = chatcodec.TextPart(
        text=SUNNY, citations=[chatcodec.UrlCitation(url="https://a", title="a", start_index=0, end_index=5)]
    )
    answer = _answer([first, chatcodec.TextPart(text=WINDS)], "STOP")
    chunks, losses = _stream(answer)
    assert losses == []
    grounding = chunks[-1]["candidates"][0]["groundingMetadata"]
    again = chatcodec.accumulate_stream("gemini", chunks)
    assert [part.citations for part in again.choices[0].message.content if isinstance(part, chatcodec.TextPart)] == [
        [],
        [],
    ]
    assert _kept(again) == grounding


def test_a_responses_streams_citations_reach_gemini_at_the_wire_parts_index() -> None:
    """A recorded Responses stream (``tests/fixtures/openai-responses/stream/
    web_search_annotation_added.sse``): its web search call is no Gemini part, so the cited
    text is the answer's first wire part, and its segment counts from there."""
    recorded = (FIXTURES / "openai-responses" / "stream" / "web_search_annotation_added.sse").read_text()
    source = _text(chatcodec.accumulate_stream("openai-responses", recorded))
    assert source.citations
    losses: list[Loss] = []
    gemini = b"".join(
        chatcodec.convert_stream(recorded, source="openai-responses", target="gemini", on_loss="ignore", losses=losses)
    )
    assert [loss for loss in losses if "citation" in loss.what] == []
    read = chatcodec.accumulate_stream("gemini", gemini)
    assert len(read.choices[0].message.content) == 1
    assert _cited(_text(read)) == _cited(source)
