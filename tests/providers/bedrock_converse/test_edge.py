"""Bedrock Converse on HTTP: its edge's facts (``_providers/bedrock_converse/edge.py``)."""

from __future__ import annotations

import chatcodec
from chatcodec._registry import get_edge

EDGE = get_edge("bedrock-converse")


def test_it_is_called_upstream_and_never_offered() -> None:
    assert EDGE.front is None
    assert EDGE.upstream is not None
    base = "https://bedrock-runtime.us-east-1.amazonaws.com"
    assert (
        EDGE.upstream.url(base, "us.anthropic.claude:0", True)
        == f"{base}/model/us.anthropic.claude%3A0/converse-stream"
    )
    assert EDGE.upstream.url(base, "m", False) == f"{base}/model/m/converse"
    assert EDGE.upstream.body({"modelId": "m", "messages": []}, True) == {"messages": []}
    assert EDGE.upstream.headers("k", {}) == {"authorization": "Bearer k"}
    assert EDGE.upstream.key_env == "AWS_BEARER_TOKEN_BEDROCK"
    assert EDGE.upstream.sign is not None


def test_the_stream_is_an_event_stream_and_its_text_form_json_lines() -> None:
    assert EDGE.framing.framing == "event-stream"
    assert "".join(chatcodec.to_sse("bedrock-converse", [{"messageStop": {}}])) == '{"messageStop":{}}\n'
    assert chatcodec.StreamConverter("bedrock-converse", "bedrock-converse").media_type == (
        "application/vnd.amazon.eventstream"
    )


def test_the_error_type_travels_in_a_header_or_names_the_stream_event() -> None:
    assert EDGE.errors.type_header == "x-amzn-ErrorType"
    assert chatcodec.error_body("bedrock-converse", "slow", 429) == {"message": "slow"}
    assert chatcodec.error_event("bedrock-converse", "slow", 429) == {"throttlingException": {"message": "slow"}}
    error = chatcodec.read_error("bedrock-converse", {"message": "slow"}, 429, "ThrottlingException")
    assert (error.message, error.error_type) == ("slow", "ThrottlingException")
    streamed = chatcodec.read_error("bedrock-converse", {"throttlingException": {"message": "slow"}})
    assert (streamed.message, streamed.error_type, streamed.status_code) == ("slow", "throttlingException", 429)
