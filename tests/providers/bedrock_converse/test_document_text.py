"""A user turn holding a document and no text is sent one text block on Converse.

Converse answers 400 "A text block must be included when using documents. Add a text block
and retry your request." (BerriAI/litellm#36499: Claude Code reading a PDF through a gateway
to Bedrock Converse; maximhq/bifrost#5817); both add a placeholder text block. The body is
checked against botocore's ``ConverseRequest`` (1.44.5).
"""

from __future__ import annotations

from typing import Any

import chatcodec
from chatcodec._providers.bedrock_converse.rules import DOCUMENT_TEXT
from providers.bedrock_converse.bedrock_support import assert_valid_request

PDF = {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0xLjQK"}


def _claude_code_reading_a_pdf(**document: Any) -> dict[str, Any]:
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [
            {"role": "user", "content": [{"type": "document", "source": PDF, "title": "report.pdf", **document}]}
        ],
    }


def _to_bedrock(request: dict[str, Any], **options: Any) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        request, source="anthropic", target="bedrock-converse", losses=losses, on_loss="ignore", options=options or None
    )
    return body, [loss for loss in losses if "document_text" in loss.why]


def test_a_pdf_only_turn_gets_a_text_block_reported() -> None:
    body, losses = _to_bedrock(_claude_code_reading_a_pdf())
    content = body["messages"][0]["content"]
    assert [next(iter(block)) for block in content] == ["document", "text"]
    assert content[1] == {"text": DOCUMENT_TEXT}
    assert DOCUMENT_TEXT.strip()
    assert [loss.path for loss in losses] == ["$.messages[0].content[1]"]
    assert_valid_request(body)


def test_the_text_goes_before_a_trailing_cache_point() -> None:
    body, losses = _to_bedrock(_claude_code_reading_a_pdf(cache_control={"type": "ephemeral"}))
    assert [next(iter(block)) for block in body["messages"][0]["content"]] == ["document", "text", "cachePoint"]
    assert len(losses) == 1


def test_a_turn_with_text_is_left_as_written() -> None:
    request = _claude_code_reading_a_pdf()
    request["messages"][0]["content"].append({"type": "text", "text": "Summarise it."})
    body, losses = _to_bedrock(request)
    assert [next(iter(block)) for block in body["messages"][0]["content"]] == ["document", "text"]
    assert body["messages"][0]["content"][1] == {"text": "Summarise it."}
    assert losses == []


def test_a_training_file_keeps_what_was_asked() -> None:
    body, losses = _to_bedrock(_claude_code_reading_a_pdf(), skip_rules="*")
    assert [next(iter(block)) for block in body["messages"][0]["content"]] == ["document"]
    assert losses == []
