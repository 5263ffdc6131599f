"""Anthropic's web-search citations stay in the text block's bag, not the canonical citation
(issue 61, the decision in ``docs/converting.md``).

Sources: anthropic 2.12's types. A response's ``CitationsWebSearchResultLocation`` is
``{type, url, title, encrypted_index, cited_text}``, with no span: it cites the whole text
block it sits on. A request's ``CitationWebSearchResultLocationParam`` *requires*
``encrypted_index`` and ``cited_text`` (``Required[str]``) and takes a ``null`` title, none of
which a canonical :class:`~chatcodec.UrlCitation` holds; and a url citation over part of a
text has no block of its own to sit on. So no canonical citation could be written back as
Anthropic's, and the mapping would be one way: the citations stay in the block's bag, come
back exactly, and are reported wherever they cannot go. The recorded answer is
``tests/fixtures/anthropic/response/web_search_citations_thinking.json``.
"""

from __future__ import annotations

import typing_extensions
from anthropic.types import CitationWebSearchResultLocationParam

import chatcodec
from chatcodec import Loss
from providers.anthropic.anthropic_support import load_json

RECORDED = "web_search_citations_thinking.json"
REQUIRED: object = typing_extensions.Required


def test_the_request_form_requires_what_a_url_citation_lacks() -> None:
    hints = typing_extensions.get_type_hints(CitationWebSearchResultLocationParam, include_extras=True)
    required = {key for key, hint in hints.items() if typing_extensions.get_origin(hint) is REQUIRED}
    assert {"encrypted_index", "cited_text"} <= required  # the SDK's ``total=False`` with Required[...]
    assert not {"encrypted_index", "cited_text"} & set(chatcodec.UrlCitation.model_fields)
    title = typing_extensions.get_args(hints["title"])[0]  # Required[Optional[str]]
    assert type(None) in typing_extensions.get_args(title)


def test_a_cited_block_keeps_its_citations_in_its_bag_and_round_trips() -> None:
    body = load_json("response", RECORDED)
    cited = [block for block in body["content"] if block["type"] == "text" and block.get("citations")]
    assert cited
    assert all(c["type"] == "web_search_result_location" for block in cited for c in block["citations"])
    response = chatcodec.decode_response("anthropic", body)
    texts = [part for part in response.choices[0].message.content if isinstance(part, chatcodec.TextPart)]
    assert all(part.citations == [] for part in texts)
    kept = [
        part.provider_metadata["anthropic"]["citations"]
        for part in texts
        if part.provider_metadata and "citations" in part.provider_metadata.get("anthropic", {})
    ]
    assert kept == [block["citations"] for block in cited]
    losses: list[Loss] = []
    assert chatcodec.encode_response("anthropic", response, on_loss="ignore", losses=losses) == body
    assert losses == []


def test_crossing_to_openai_reports_them_and_invents_no_annotation() -> None:
    body = load_json("response", RECORDED)
    losses: list[Loss] = []
    chat = chatcodec.convert_response(body, source="anthropic", target="openai-chat", on_loss="ignore", losses=losses)
    assert "annotations" not in chat["choices"][0]["message"]
    reported = [loss.path for loss in losses if "citations" in loss.what]
    cited = [number for number, block in enumerate(body["content"]) if block.get("citations")]
    assert reported == [f"$.choices[0].message.content[{number}]" for number in cited]
