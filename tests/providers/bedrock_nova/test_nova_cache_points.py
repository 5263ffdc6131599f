"""Nova's cache points inside the text block they cache (the family's
``inner_cache_points.py``), from AWS's Nova prompt-caching example for InvokeModel
(amazon-bedrock-samples, ``introduction-to-bedrock/prompt-caching/invoke_model_api/nova``:
``{"text": "<system prompt>", "cachePoint": {"type": "default"}}`` in ``system`` and
``{"text": "<document>", "cachePoint": {"type": "default"}}`` in a user turn's content),
read and written; Converse keeps its one-member blocks (botocore's ``ContentBlock`` is a union)."""

from __future__ import annotations

import copy
from typing import Any

import chatcodec
from chatcodec import Loss

POINT = {"type": "default"}
DOCUMENTED: dict[str, Any] = {
    "system": [{"text": "Answer from the document.", "cachePoint": POINT}],
    "messages": [
        {
            "role": "user",
            "content": [
                {"text": "## document:\nThe release notes.", "cachePoint": POINT},
                {"text": "what is it about?"},
            ],
        }
    ],
    "inferenceConfig": {"max_new_tokens": 300, "top_p": 0.9, "top_k": 20, "temperature": 0.7},
}
"""The aws-samples notebook's InvokeModel body (``01_nova_invoke_model_caching.ipynb``), its texts shortened."""
MARKER = {"type": "ephemeral"}


def test_the_documented_form_reads_as_marked_text_and_round_trips() -> None:
    request = chatcodec.decode_request("bedrock-nova", copy.deepcopy(DOCUMENTED))
    system, user = request.model_dump(exclude_none=True)["messages"]
    assert system["content"] == [{"type": "text", "text": "Answer from the document.", "cache_control": MARKER}]
    assert user["content"][0] == {"type": "text", "text": "## document:\nThe release notes.", "cache_control": MARKER}
    assert chatcodec.encode_request("bedrock-nova", request) == DOCUMENTED


def test_the_documented_form_keeps_the_system_prompt_and_the_document_in_other_formats() -> None:
    losses: list[Loss] = []
    body = chatcodec.convert_request(
        copy.deepcopy(DOCUMENTED),
        source="bedrock-nova",
        target="anthropic",
        options={"model": "claude-sonnet-4-5"},
        on_loss="ignore",
        losses=losses,
    )
    assert body["system"] == [{"type": "text", "text": "Answer from the document.", "cache_control": MARKER}]
    assert body["messages"][0]["content"][0]["cache_control"] == MARKER
    assert [loss for loss in losses if loss.path.startswith(("$.messages", "$.system"))] == []
    converse = chatcodec.convert_request(
        copy.deepcopy(DOCUMENTED), source="bedrock-nova", target="bedrock-converse", on_loss="ignore"
    )
    assert converse["system"] == [{"text": "Answer from the document."}, {"cachePoint": POINT}]


def test_a_cache_marker_is_written_inside_the_text_block_it_caches() -> None:
    anthropic = {
        "model": "m",
        "max_tokens": 300,
        "system": [{"type": "text", "text": "Answer from the document.", "cache_control": MARKER}],
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "## document:\nThe release notes.", "cache_control": MARKER},
                    {"type": "text", "text": "what is it about?"},
                ],
            }
        ],
    }
    body = chatcodec.convert_request(anthropic, source="anthropic", target="bedrock-nova")
    assert body["system"] == DOCUMENTED["system"]
    assert body["messages"] == DOCUMENTED["messages"]


def test_a_message_marker_on_text_content_goes_inside_its_last_block() -> None:
    """An OpenAI-style message-level breakpoint marks the message's last block: on Nova, inside it."""
    request = {"messages": [{"role": "user", "content": "the document", "cache_control": MARKER}]}
    body = chatcodec.encode_request("bedrock-nova", request)
    assert body["messages"] == [{"role": "user", "content": [{"text": "the document", "cachePoint": POINT}]}]


def test_a_point_of_its_own_still_reads_and_goes_back_as_it_came() -> None:
    """The one-member form Converse uses: read as the same marker, written back apart on Nova."""
    wire = {
        "system": [{"text": "Answer from the document."}, {"cachePoint": POINT}],
        "messages": [{"role": "user", "content": [{"text": "q"}]}],
    }
    request = chatcodec.decode_request("bedrock-nova", copy.deepcopy(wire))
    system = request.messages[0].content
    assert not isinstance(system, str)
    assert system[0].cache_control is not None
    assert chatcodec.encode_request("bedrock-nova", request) == wire
    converse = chatcodec.convert_request(copy.deepcopy(wire), source="bedrock-nova", target="bedrock-converse")
    assert converse["system"] == wire["system"]


def test_a_point_inside_a_block_canonical_cannot_mark_is_kept_whole() -> None:
    """Blank text (the blank-text rule's) and a point with a ``ttl`` (Nova's has none) stay as sent."""
    for block in ({"text": " ", "cachePoint": POINT}, {"text": "doc", "cachePoint": {"type": "default", "ttl": "1h"}}):
        wire = {"messages": [{"role": "user", "content": [block, {"text": "q"}]}]}
        request = chatcodec.decode_request("bedrock-nova", copy.deepcopy(wire))
        content = request.messages[0].content
        assert not isinstance(content, str)
        assert content[0].type == "opaque"
        assert chatcodec.encode_request("bedrock-nova", request) == wire


def test_a_blank_system_message_before_a_cached_one_drops_alone() -> None:
    """The blank-text rule dropped the cache point after a blank block, taking a point
    inside the next text block for it (a KeyError): only a point of a block of its own is
    the blank block's; the cached text after it keeps its point inside (found by the
    losses law's drawn examples)."""
    losses: list[chatcodec.Loss] = []
    request = {
        "messages": [
            {"role": "system", "content": ""},
            {"role": "system", "content": "0", "cache_control": {"type": "ephemeral"}},
            {"role": "user", "content": "hi"},
        ]
    }
    model = chatcodec.ChatRequest.model_validate(request)
    body = chatcodec.encode_request("bedrock-nova", model, on_loss="ignore", losses=losses)
    assert body["system"] == [{"text": "0", "cachePoint": {"type": "default"}}]
    assert [loss.what for loss in losses] == ["blank text block"]


def test_a_message_marker_equal_to_its_last_parts_is_one_point_read_back_on_the_part() -> None:
    """Both markers ask for one cache point after the same block: Nova writes one, reports
    nothing, and reads it back on the part; the law facts (``bedrock_nova._block_list``) say so,
    so the losses law holds it unchanged (a draw of the law's requests found the facts wanting)."""
    from chatcodec.testing._laws.built_in.bedrock_nova import entry

    marker = {"type": "ephemeral"}
    thinking = {"type": "thinking", "text": "", "provider": "bedrock-nova", "cache_control": marker}
    request = chatcodec.validate_model(
        chatcodec.ChatRequest, {"messages": [{"role": "assistant", "cache_control": marker, "content": [thinking]}]}
    )
    losses: list[Loss] = []
    body = chatcodec.encode_request("bedrock-nova", request, on_loss="ignore", losses=losses)
    assert losses == []
    assert body["messages"][0]["content"][-1] == {"cachePoint": POINT}
    decoded = chatcodec.decode_request("bedrock-nova", body)
    assert decoded.messages[0].cache_control is None
    single_hop = entry().single_hop
    assert single_hop.decoded(decoded) == single_hop.original(request)


def test_a_message_markers_ttl_its_last_parts_marker_lacks_is_reported() -> None:
    """Nova's one cache point after the block has no ttl: a message marker asking for one,
    beside a part's plain marker, was absorbed into that point without a word (the point's
    wire forms compared equal); its ttl is reported as a part's is."""
    part = {"type": "text", "text": "the document", "cache_control": {"type": "ephemeral"}}
    message = {"role": "user", "cache_control": {"type": "ephemeral", "ttl": "1h"}, "content": [part]}
    request = chatcodec.validate_model(chatcodec.ChatRequest, {"messages": [message]})
    losses: list[Loss] = []
    body = chatcodec.encode_request("bedrock-nova", request, on_loss="ignore", losses=losses)
    assert body["messages"][0]["content"] == [{"text": "the document", "cachePoint": POINT}]
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[0].cache_control.ttl", "cache ttl")]
    kept: list[Loss] = []
    converse = chatcodec.encode_request("bedrock-converse", request, on_loss="ignore", losses=kept)
    assert converse["messages"][0]["content"][-1] == {"cachePoint": POINT}
    assert [loss.what for loss in kept] == ["cache_control"]  # Converse's point has a ttl: a different marker
