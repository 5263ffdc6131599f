"""A Responses ``input_file`` with both ``file_data`` and ``file_id``: the SDK's
``ResponseInputFileParam`` makes each optional and neither excludes the other. It is read as
a document of its bytes (what every target can send), the id kept for the Responses round
trip and reported to a target with no place for it; it was kept opaque and dropped."""

from __future__ import annotations

import copy

import chatcodec
from providers.openai_responses.responses_support import assert_request_matches_sdk

PDF = "data:application/pdf;base64,JVBERi0="
FILE = {"type": "input_file", "file_data": PDF, "file_id": "file-abc", "filename": "a.pdf"}
BODY = {"model": "gpt-4.1", "input": [{"role": "user", "content": [FILE]}]}


def test_it_reads_as_its_bytes_and_round_trips_exactly() -> None:
    assert_request_matches_sdk(BODY)
    back = chatcodec.convert_request(copy.deepcopy(BODY), source="openai-responses", target="openai-responses")
    assert back == BODY


def test_another_format_gets_the_document_and_a_loss_for_the_id() -> None:
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_request(
        copy.deepcopy(BODY), source="openai-responses", target="anthropic", on_loss="ignore", losses=losses
    )
    source = {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0="}
    assert wire["messages"] == [{"role": "user", "content": [{"type": "document", "source": source, "title": "a.pdf"}]}]
    assert "$.input[0].content[0]: openai-responses data ['file_id'] (anthropic has no field for it)" in [
        str(loss) for loss in losses
    ]
