"""Every Converse block kind decodes to the canonical part it means (or is kept whole) and
goes back exactly: the issue's list of blocks, one case each. Nova's InvokeModel body is the
same block wire (``families/aws``), so each case runs for ``bedrock-nova`` too, with the
kind Nova reads it as where its reader differs (:data:`NOVA_KINDS`)."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from providers.bedrock_converse.bedrock_support import assert_valid_request

PROVIDER = "bedrock-converse"
NOVA = "bedrock-nova"
PNG = "iVBORw0KGgo="
_OWNED = {"uri": "s3://b/v.mov", "bucketOwner": "111122223333"}
"""An S3 location in another account's bucket (botocore ``S3Location.bucketOwner``)."""

USER_BLOCKS: list[tuple[str, dict[str, Any], str]] = [
    ("text", {"text": "hi"}, "text"),
    ("image bytes", {"image": {"format": "png", "source": {"bytes": PNG}}}, "image"),
    ("image s3", {"image": {"format": "gif", "source": {"s3Location": {"uri": "s3://b/k.gif"}}}}, "image"),
    (
        "image s3 owner",
        {"image": {"format": "gif", "source": {"s3Location": {"uri": "s3://b/k", "bucketOwner": "1"}}}},
        "image",
    ),
    ("document bytes", {"document": {"format": "pdf", "name": "Report", "source": {"bytes": PNG}}}, "document"),
    ("document text", {"document": {"format": "md", "name": "Notes", "source": {"text": "# hi"}}}, "document"),
    ("document no format", {"document": {"name": "Notes", "source": {"text": "hi"}}}, "document"),
    (
        "document citations",
        {
            "document": {
                "format": "txt",
                "name": "N",
                "source": {"text": "a"},
                "citations": {"enabled": True},
                "context": "c",
            }
        },
        "document",
    ),
    (
        "document content",
        {"document": {"format": "txt", "name": "N", "source": {"content": [{"text": "a"}]}}},
        "opaque",
    ),
    ("video", {"video": {"format": "mp4", "source": {"s3Location": {"uri": "s3://b/v.mp4"}}}}, "video"),
    ("video of another account's bucket", {"video": {"format": "mov", "source": {"s3Location": _OWNED}}}, "video"),
    ("mpg video", {"video": {"format": "mpg", "source": {"bytes": PNG}}}, "video"),
    ("three_gp video", {"video": {"format": "three_gp", "source": {"bytes": PNG}}}, "video"),
    ("video of an unknown format", {"video": {"format": "avi", "source": {"bytes": PNG}}}, "opaque"),
    ("guard content", {"guardContent": {"text": {"text": "check this", "qualifiers": ["query"]}}}, "text"),
    ("guard image", {"guardContent": {"image": {"format": "png", "source": {"bytes": PNG}}}}, "opaque"),
    ("search result", {"searchResult": {"source": "s", "title": "t", "content": [{"text": "x"}]}}, "opaque"),
    ("unknown member", {"hologram": {"x": 1}}, "opaque"),
    ("two members", {"text": "a", "image": {"format": "png", "source": {"bytes": PNG}}}, "opaque"),
]


NOVA_KINDS: dict[str, str] = {
    "document bytes": "opaque",  # InvokeModel takes no documents (bedrock_nova/capabilities.py): kept whole
    "document text": "opaque",
    "document no format": "opaque",
    "document citations": "opaque",
    "guard content": "opaque",
    "reasoning text": "opaque",  # a signature: Nova verifies none
    "redacted reasoning": "opaque",
    "citations content": "opaque",
    "citations content in pieces": "opaque",
}
"""The cases Nova's reader reads otherwise than Converse's (each kept whole, and sent back)."""


def _cases(table: list[tuple[str, dict[str, Any], str]]) -> list[Any]:
    """Each case for Converse, and for Nova with Nova's kind."""
    return [
        pytest.param(provider, block, NOVA_KINDS.get(name, kind) if provider == NOVA else kind, id=f"{provider}-{name}")
        for provider in (PROVIDER, NOVA)
        for name, block, kind in table
    ]


@pytest.mark.parametrize(("provider", "block", "kind"), _cases(USER_BLOCKS))
def test_user_blocks_decode_to_their_part_and_back(provider: str, block: dict[str, Any], kind: str) -> None:
    body = {"messages": [{"role": "user", "content": [{"text": "see"}, block]}]}
    decoded = chatcodec.decode_request(provider, body)
    assert decoded.messages[0].parts[1].type == kind
    assert chatcodec.encode_request(provider, decoded, on_loss="error") == body


ASSISTANT_BLOCKS: list[tuple[str, dict[str, Any], str]] = [
    ("reasoning text", {"reasoningContent": {"reasoningText": {"text": "r", "signature": "c2ln"}}}, "thinking"),
    ("redacted reasoning", {"reasoningContent": {"redactedContent": "RXU4"}}, "thinking"),
    ("client tool use", {"toolUse": {"toolUseId": "t.1", "name": "f", "input": {"a": [1]}}}, "tool_use"),
    ("typed tool use", {"toolUse": {"toolUseId": "t1", "name": "f", "input": {}, "type": "tool_use"}}, "tool_use"),
    (
        "server tool use",
        {"toolUse": {"toolUseId": "t1", "name": "f", "input": {}, "type": "server_tool_use"}},
        "opaque",
    ),
    (
        "server tool result",
        {"toolResult": {"toolUseId": "t1", "content": [{"json": {}}], "type": "x_result"}},
        "opaque",
    ),
    ("citations content", {"citationsContent": {"content": [{"text": "a"}], "citations": [{"title": "t"}]}}, "text"),
    (
        "citations content in pieces",
        {"citationsContent": {"content": [{"text": "a"}, {"text": "b"}], "citations": [{"title": "t"}]}},
        "text",
    ),
    ("image", {"image": {"format": "webp", "source": {"bytes": PNG}}}, "image"),
]


@pytest.mark.parametrize(("provider", "block", "kind"), _cases(ASSISTANT_BLOCKS))
def test_assistant_blocks_decode_to_their_part_and_back(provider: str, block: dict[str, Any], kind: str) -> None:
    body = {"messages": [{"role": "user", "content": [{"text": "q"}]}, {"role": "assistant", "content": [block]}]}
    decoded = chatcodec.decode_request(provider, body)
    assert decoded.messages[1].parts[0].type == kind
    assert chatcodec.encode_request(provider, decoded, on_loss="error") == body
    assert_valid_request(body)


def test_system_blocks_text_cache_point_and_guard_content() -> None:
    system = [
        {"text": "rules"},
        {"cachePoint": {"type": "default"}},
        {"guardContent": {"text": {"text": "guarded"}}},
    ]
    body = {"messages": [{"role": "user", "content": [{"text": "q"}]}], "system": system}
    decoded = chatcodec.decode_request(PROVIDER, body)
    system_message = decoded.messages[0]
    assert [part.type for part in system_message.parts] == ["text", "text"]  # guarded text is text
    assert system_message.parts[0].cache_control == chatcodec.CacheControl()
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == body


def test_tool_results_hold_text_json_images_documents_and_videos() -> None:
    content = [
        {"text": "a"},
        {"json": {"rows": [1, 2.5, None]}},
        {"image": {"format": "jpeg", "source": {"bytes": PNG}}},
        {"document": {"format": "csv", "name": "Data", "source": {"bytes": PNG}}},
        {"video": {"format": "mp4", "source": {"bytes": PNG}}},
    ]
    body = {
        "messages": [
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {}}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": content, "status": "error"}}]},
        ]
    }
    decoded = chatcodec.decode_request(PROVIDER, body)
    result = decoded.messages[1].parts[0]
    assert isinstance(result, chatcodec.ToolResultPart)
    assert result.is_error
    assert isinstance(result.content, list)
    assert [part.type for part in result.content] == ["text", "text", "image", "document", "video"]
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == body
    assert_valid_request(body)


def test_request_members_without_a_canonical_field_ride_along() -> None:
    body = {
        "messages": [{"role": "user", "content": [{"text": "q"}]}],
        "serviceTier": {"type": "priority"},
        "toolConfig": {"tools": [{"systemTool": {"name": "nova_grounding"}}, {"cachePoint": {"type": "default"}}]},
        "outputConfig": {"textFormat": {"type": "json_schema", "structure": {"jsonSchema": {"schema": "{}"}}}, "x": 1},
    }
    decoded = chatcodec.decode_request(PROVIDER, body)
    assert decoded.provider_tools[0].cache_control == chatcodec.CacheControl()
    assert decoded.response_format is not None
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == body


def test_a_stored_bedrock_conversation_is_read_and_written_back() -> None:
    stored = [
        {"role": "user", "content": [{"text": "q"}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {}}}]},
        {
            "role": "user",
            "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "ok"}]}}, {"text": "and?"}],
        },
    ]
    conversation = chatcodec.Conversation()
    added = conversation.append_provider_messages(PROVIDER, stored)
    assert [message.role for message in added] == ["user", "assistant", "tool", "user"]
    assert conversation.dump(PROVIDER, on_loss="error")["messages"] == stored
    with pytest.raises(chatcodec.ValidationError, match=r"\[2\]\.content\[0\]\.toolResult\.content"):
        chatcodec.Conversation().append_provider_messages(
            PROVIDER, [*stored[:2], {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": 5}}]}]
        )


@pytest.mark.parametrize("provider", ["bedrock-converse", "bedrock-nova"])
@pytest.mark.parametrize("member", ["image", "document", "video", "audio"])
@pytest.mark.parametrize("value", [None, "clip.mp4", 3], ids=["null", "string", "number"])
def test_a_media_block_that_holds_no_object_is_refused_at_its_path(provider: str, member: str, value: Any) -> None:
    """botocore's ``VideoBlock`` and ``AudioBlock`` are objects, as ``ImageBlock`` and
    ``DocumentBlock`` are: the wire shapes type all four, so a block holding something else
    (``{"video": null}``) is refused at its path, never a bare error from inside the reader."""
    body = {"messages": [{"role": "user", "content": [{member: value}]}]}
    with pytest.raises(chatcodec.ValidationError, match=rf"\$\.messages\[0\]\.content\[0\]\.{member}"):
        chatcodec.decode_request(provider, body)


@pytest.mark.parametrize("provider", ["bedrock-converse", "bedrock-nova"])
def test_a_video_in_a_tool_result_is_typed_too(provider: str) -> None:
    """``ToolResultContentBlock`` has ``video`` (botocore): a malformed one is refused at its path."""
    body = {
        "messages": [
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {}}}]},
            {
                "role": "user",
                "content": [{"toolResult": {"toolUseId": "t1", "content": [{"video": {"format": "mp4"}}]}}],
            },
        ]
    }
    with pytest.raises(chatcodec.ValidationError, match=r"toolResult\.content\[0\]\.video\.source"):
        chatcodec.decode_request(provider, body)
