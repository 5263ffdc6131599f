"""Two Gemini citation forms that are decided, not mapped, to the canonical url citation (issue 61;
the reasons are in docs/converting.md, "Two Gemini forms stay in the candidate's bag").

Sources: google-genai's types. ``CitationMetadata`` / ``Citation`` (``{startIndex, endIndex, uri,
title, license, publicationDate}``, "Source attributions for content") is a candidate's recitation
attribution, not a search result; ``Segment`` (``partIndex``, ``startIndex``) is a grounding
support's span, and the API's JSON leaves a zero out, as proto3's JSON mapping does (the recorded
``tests/fixtures/gemini/response/google_search_grounding.json`` has no ``partIndex`` on a segment of
part 0). Both stay whole in the candidate's bag: a Gemini round trip is exact and every other
target reports them.
"""

from __future__ import annotations

import copy
from typing import Any

from google.genai import types

import chatcodec
from chatcodec import Loss
from providers.gemini.gemini_support import assert_valid_response

CODE = "def add(a, b):\n    return a + b\n"
TEXT = "Sunny today. Calm winds."


def _answer(candidate: types.Candidate) -> dict[str, Any]:
    response = types.GenerateContentResponse(candidates=[candidate], model_version="gemini-2.5-flash", response_id="r1")
    return response.model_dump(mode="json", by_alias=True, exclude_none=True)


def _recited() -> dict[str, Any]:
    citation = types.Citation(start_index=0, end_index=14, uri="https://github.com/ex/add", title="add", license="mit")
    content = types.Content(role="model", parts=[types.Part(text=CODE)])
    return _answer(
        types.Candidate(
            content=content,
            finish_reason=types.FinishReason.STOP,
            citation_metadata=types.CitationMetadata(citations=[citation]),
        )
    )


def _grounded(segment: dict[str, Any]) -> dict[str, Any]:
    metadata = types.GroundingMetadata(
        grounding_chunks=[types.GroundingChunk(web=types.GroundingChunkWeb(uri="https://a.example", title="a"))],
        grounding_supports=[types.GroundingSupport(segment=types.Segment(**segment), grounding_chunk_indices=[0])],
    )
    content = types.Content(role="model", parts=[types.Part(text=TEXT)])
    return _answer(types.Candidate(content=content, finish_reason=types.FinishReason.STOP, grounding_metadata=metadata))


def _convert(body: dict[str, Any], target: str) -> tuple[dict[str, Any], list[Loss]]:
    losses: list[Loss] = []
    written = chatcodec.convert_response(body, source="gemini", target=target, on_loss="ignore", losses=losses)
    return written, losses


def _citations(body: dict[str, Any]) -> list[chatcodec.UrlCitation]:
    part = chatcodec.decode_response("gemini", copy.deepcopy(body)).choices[0].message.content[-1]
    assert isinstance(part, chatcodec.TextPart)
    return part.citations


def test_a_recitation_attribution_is_not_a_url_citation_and_stays_in_the_bag() -> None:
    body = _recited()
    assert _citations(body) == []
    response = chatcodec.decode_response("gemini", copy.deepcopy(body))
    kept = response.model_dump()["choices"][0]["provider_metadata"]["gemini"]["citationMetadata"]
    assert kept == body["candidates"][0]["citationMetadata"]
    written, losses = _convert(body, "gemini")
    assert written == body
    assert losses == []
    assert_valid_response(written)


def test_a_recitation_attribution_is_reported_where_it_cannot_go() -> None:
    written, losses = _convert(_recited(), "openai-chat")
    assert "annotations" not in written["choices"][0]["message"]
    reported = [loss for loss in losses if loss.path == "$.choices[0]" and loss.kind == "metadata"]
    assert len(reported) == 1
    assert "citationMetadata" in str(reported[0])


def test_a_segment_with_explicit_zero_indices_stays_whole_and_exact() -> None:
    zero = _grounded({"part_index": 0, "start_index": 0, "end_index": 12, "text": "Sunny today."})
    assert zero["candidates"][0]["groundingMetadata"]["groundingSupports"][0]["segment"]["startIndex"] == 0
    assert _citations(zero) == []
    written, losses = _convert(zero, "gemini")
    assert written == zero
    assert losses == []
    reported = [loss for loss in _convert(zero, "openai-chat")[1] if loss.kind == "metadata"]
    assert any("groundingMetadata" in str(loss) for loss in reported)


def test_the_same_segment_as_the_api_sends_it_is_read_into_a_citation() -> None:
    """The control: without the zeros (as the API writes them) the same support is a citation."""
    sent = _grounded({"end_index": 12, "text": "Sunny today."})
    cited = _citations(sent)
    assert [(TEXT[c.start_index : c.end_index], c.url) for c in cited] == [("Sunny today.", "https://a.example")]
    written, losses = _convert(sent, "gemini")
    assert written == sent
    assert losses == []
