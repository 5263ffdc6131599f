"""Issue 76: the LangChain blocks, messages and keys the ``langchain`` format once left
unread or changed, each against LangChain's own classes (langchain-core 1.7.2).

- an OpenAI-format ``image_url`` block holding a ``data:`` URL, ``input_audio`` and ``file``
  (``file_data``) blocks: langchain-core reads each as inline data
  (``BaseMessage.content_blocks``, ``block_translators.openai._convert_openai_format_to_data_block``),
  so chatcodec reads them as base64 sources, and writes them back as they came;
- v1's ``text-plain`` block (``langchain_core.messages.content.create_plaintext_block``);
- ``cache_control`` on a block, ChatAnthropic's documented way to cache: langchain-anthropic's
  ``_format_messages`` / ``_format_data_content_block`` copy it onto the block it sends
  (https://github.com/langchain-ai/langchain/blob/master/libs/partners/anthropic/langchain_anthropic/chat_models.py);
- a ``ChatMessage`` (``type: "chat"``, any ``role``);
- a message field whose name starts with ``_`` holding ``null``.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from langchain_core.load import dumpd, load
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    HumanMessage,
    convert_to_openai_messages,
    messages_from_dict,
    messages_to_dict,
)
from langchain_core.messages.content import create_plaintext_block

import chatcodec

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
PDF = "JVBERi0xLjQKJcfsj6IK"
WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA="


def _canonical(history: list[BaseMessage]) -> list[dict[str, Any]]:
    wire = {"messages": messages_to_dict(history)}
    messages: list[dict[str, Any]] = chatcodec.convert_request(wire, source="langchain", target="canonical")["messages"]
    return messages


def _round_trip(wire: dict[str, Any]) -> dict[str, Any]:
    back: dict[str, Any] = chatcodec.convert_request(wire, source="langchain", target="langchain", on_loss="error")
    return back


def _anthropic(history: list[BaseMessage], losses: list[chatcodec.Loss] | None = None) -> dict[str, Any]:
    wire = {"messages": messages_to_dict(history)}
    body: dict[str, Any] = chatcodec.convert_request(
        wire,
        source="langchain",
        target="anthropic",
        on_loss="ignore",
        losses=losses,
        options={"model": "claude-sonnet-4-5"},
    )
    return body


def _openai_blocks() -> HumanMessage:
    return HumanMessage(
        content=[
            {"type": "text", "text": "What are these?"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}", "detail": "low"}},
            {"type": "input_audio", "input_audio": {"data": WAV, "format": "wav"}},
            {"type": "file", "file": {"file_data": f"data:application/pdf;base64,{PDF}", "filename": "a.pdf"}},
        ]
    )


def test_openai_format_media_reads_as_the_inline_data_langchain_reads() -> None:
    """langchain-core's own reading of each OpenAI block (``content_blocks``) is the oracle:
    the same base64 data and media type, not an image by URL holding a ``data:`` URL."""
    message = _openai_blocks()
    standard = [block for block in message.content_blocks if block["type"] != "text"]
    parts = _canonical([message])[0]["content"][1:]
    assert [part["type"] for part in parts] == ["image", "audio", "document"]
    for part, block in zip(parts, standard, strict=True):
        assert part["source"] == {"type": "base64", "media_type": block["mime_type"], "data": block["base64"]}
    assert parts[0]["detail"] == "low"
    assert parts[2]["filename"] == "a.pdf"


def test_openai_format_media_goes_to_anthropic_gemini_and_bedrock_inline() -> None:
    """Anthropic gets a base64 image and document (ChatAnthropic's ``_format_image`` splits
    the same data URL), Gemini inline data and Bedrock the image's bytes (it dropped an image
    by URL), never a URL source holding a ``data:`` URL."""
    history = [_openai_blocks()]
    body = _anthropic(history)
    image, document = body["messages"][0]["content"][1], body["messages"][0]["content"][-1]
    assert image == {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
    assert document["source"] == {"type": "base64", "media_type": "application/pdf", "data": PDF}
    wire = {"messages": messages_to_dict(history)}
    gemini = chatcodec.convert_request(wire, source="langchain", target="gemini", on_loss="ignore")
    parts = gemini["contents"][0]["parts"]
    assert parts[1]["inlineData"] == {"mimeType": "image/png", "data": PNG}
    assert "fileUri" not in json.dumps(gemini)
    bedrock = chatcodec.convert_request(wire, source="langchain", target="bedrock-converse", on_loss="ignore")
    assert bedrock["messages"][0]["content"][1] == {"image": {"format": "png", "source": {"bytes": PNG}}}


def test_openai_format_media_is_written_back_as_it_came() -> None:
    wire = {"messages": messages_to_dict([_openai_blocks()])}
    back = _round_trip(wire)
    assert back == wire
    assert messages_from_dict(back["messages"]) == [_openai_blocks()]


def test_an_openai_file_by_id_and_a_data_url_image_from_another_format() -> None:
    """A ``file`` block by ``file_id`` is a document by file id; an image read elsewhere is
    written as LangChain's standard block (the OpenAI shape only for what came in it)."""
    message = HumanMessage(content=[{"type": "file", "file": {"file_id": "file-abc"}}])
    part = _canonical([message])[0]["content"][0]
    assert part["source"] == {"type": "file", "file_id": "file-abc"}
    wire = {"messages": messages_to_dict([message])}
    assert _round_trip(wire) == wire
    anthropic = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [
            {
                "role": "user",
                "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}],
            }
        ],
    }
    written = chatcodec.convert_request(anthropic, source="anthropic", target="langchain", on_loss="ignore")
    assert written["messages"][0]["data"]["content"] == [{"type": "image", "base64": PNG, "mime_type": "image/png"}]


def test_text_plain_block_is_a_text_document() -> None:
    """LangChain v1's ``text-plain`` block (``create_plaintext_block``) is a document of text,
    which ChatAnthropic sends as a ``document`` with a text source (its
    ``_format_data_content_block``), and comes back as the same block."""
    block = create_plaintext_block(text="The meeting is at noon.", title="notes.txt")
    message = HumanMessage(content=[block, {"type": "text", "text": "When is it?"}])
    part = _canonical([message])[0]["content"][0]
    assert part["type"] == "document"
    assert part["source"] == {"type": "text", "text": "The meeting is at noon.", "media_type": "text/plain"}
    assert part["title"] == "notes.txt"
    document = _anthropic([message])["messages"][0]["content"][0]
    assert document["type"] == "document"
    assert document["source"] == {"type": "text", "media_type": "text/plain", "data": "The meeting is at noon."}
    wire = {"messages": messages_to_dict([message])}
    assert _round_trip(wire) == wire


def test_a_text_document_from_anthropic_is_written_as_text_plain() -> None:
    """What the writer once wrote as a ``file`` block with ``text`` (no LangChain shape) is
    the v1 standard block langchain-core validates as ``PlainTextContentBlock``."""
    anthropic = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [
            {
                "role": "user",
                "content": [{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "hi"}}],
            }
        ],
    }
    written = chatcodec.convert_request(anthropic, source="anthropic", target="langchain", on_loss="ignore")
    block = written["messages"][0]["data"]["content"][0]
    assert block == {"type": "text-plain", "text": "hi", "mime_type": "text/plain"}
    loaded = messages_from_dict(written["messages"])[0]
    assert [standard["type"] for standard in loaded.content_blocks] == ["text-plain"]


def test_a_cache_marker_on_a_block_reaches_anthropic() -> None:
    """ChatAnthropic copies a block's ``cache_control`` onto the block it sends (text, and
    data blocks), so a history that set one caches the same prefix through chatcodec."""
    marker = {"type": "ephemeral"}
    history: list[BaseMessage] = [
        HumanMessage(
            content=[
                {"type": "text", "text": "A long document.", "cache_control": marker},
                {"type": "image", "base64": PNG, "mime_type": "image/png", "cache_control": {**marker, "ttl": "1h"}},
                {"type": "text", "text": "Summarise it."},
            ]
        ),
        AIMessage("It says..."),
    ]
    losses: list[chatcodec.Loss] = []
    content = _anthropic(history, losses)["messages"][0]["content"]
    assert content[0] == {"type": "text", "text": "A long document.", "cache_control": marker}
    assert content[1]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    assert "cache_control" not in content[2]
    assert not [loss for loss in losses if "cache_control" in loss.path]
    wire = {"messages": messages_to_dict(history)}
    assert _round_trip(wire) == wire


def test_a_cache_marker_in_a_standard_blocks_extras_reaches_anthropic() -> None:
    """A v1 standard block keeps provider fields in ``extras``; ChatAnthropic's
    ``_format_data_content_block`` takes ``cache_control`` from there too."""
    block = {
        "type": "image",
        "base64": PNG,
        "mime_type": "image/png",
        "extras": {"cache_control": {"type": "ephemeral"}},
    }
    other = {"type": "file", "url": "https://x.test/a.pdf", "extras": {"cache_control": {"type": "ephemeral"}, "k": 1}}
    history: list[BaseMessage] = [HumanMessage(content=[block, other, {"type": "text", "text": "Describe."}])]
    content = _anthropic(history)["messages"][0]["content"]
    assert content[0]["cache_control"] == content[1]["cache_control"] == {"type": "ephemeral"}
    wire = {"messages": messages_to_dict(history)}
    assert _round_trip(wire) == wire


def test_a_cache_marker_from_anthropic_is_written_on_the_block() -> None:
    """The other way: Anthropic's marker on a text block is written on the LangChain block
    (it was a loss), so ChatAnthropic sends it again."""
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Long.", "cache_control": {"type": "ephemeral"}}]}
        ],
    }
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(body, source="anthropic", target="langchain", on_loss="ignore", losses=losses)
    assert written["messages"][0]["data"]["content"] == [
        {"type": "text", "text": "Long.", "cache_control": {"type": "ephemeral"}}
    ]
    assert not [loss for loss in losses if "cache_control" in loss.path]


@pytest.mark.parametrize(("role", "openai_role"), [("assistant", "assistant"), ("user", "user"), ("system", "system")])
def test_a_chat_message_reads_in_its_role(role: str, openai_role: str) -> None:
    """A ``ChatMessage`` is read in the role langchain-core gives it (``convert_to_openai_messages``
    sends its ``role`` as the OpenAI role), where the history was refused whole."""
    history: list[BaseMessage] = [HumanMessage("Hi"), ChatMessage(content="Hello.", role=role)]
    assert convert_to_openai_messages(history)[1]["role"] == openai_role
    wire = {"messages": messages_to_dict(history)}
    chat = chatcodec.convert_request(wire, source="langchain", target="openai-chat", options={"model": "gpt-5.6"})
    assert chat["messages"][1] == {"role": openai_role, "content": "Hello."}


def test_a_chat_message_is_written_back_as_one() -> None:
    history: list[BaseMessage] = [
        ChatMessage(content="Be terse.", role="developer"),
        ChatMessage(content="Hi", role="user"),
        ChatMessage(content="Rate this.", role="critic"),
    ]
    for wire in ({"messages": messages_to_dict(history)}, {"messages": [dumpd(message) for message in history]}):
        back = _round_trip(wire)
        assert back == wire
    assert messages_from_dict(_round_trip({"messages": messages_to_dict(history)})["messages"]) == history
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # LangChainBetaWarning: load is in beta
        dumped = _round_trip({"messages": [dumpd(message) for message in history]})["messages"]
        assert [load(entry) for entry in dumped] == history


def test_a_chat_message_of_another_role_is_a_user_message_reported_elsewhere() -> None:
    """No provider has a ``critic`` role (OpenAI refuses one): the message is read as a user
    message, and another format reports the role it cannot keep."""
    wire = {"messages": messages_to_dict([ChatMessage(content="Rate this.", role="critic")])}
    losses: list[chatcodec.Loss] = []
    chat = chatcodec.convert_request(
        wire, source="langchain", target="openai-chat", on_loss="ignore", losses=losses, options={"model": "gpt-5.6"}
    )
    assert chat["messages"] == [{"role": "user", "content": "Rate this."}]
    assert [loss.path for loss in losses if "critic" in loss.what] == ["$.messages[0].data"]


def test_a_chat_message_without_a_role_is_refused_at_its_place() -> None:
    wire = {"messages": [{"type": "chat", "data": {"content": "hi"}}]}
    with pytest.raises(chatcodec.ValidationError, match=r"\$\.messages\[0\].*role"):
        chatcodec.convert_request(wire, source="langchain", target="canonical")


def test_an_underscored_field_holding_null_comes_back_as_it_was() -> None:
    """``HumanMessage("hi", _x=None)``: ``messages_to_dict`` writes ``"_x": null`` into ``data``;
    it gained an underscore (``__x``) on every round trip."""
    wire = {"messages": messages_to_dict([HumanMessage("hi", _x=None, __y=None)])}
    once = _round_trip(wire)
    assert once == wire
    assert _round_trip(once) == wire


def test_the_openai_blocks_other_keys_come_back_and_are_reported_elsewhere() -> None:
    """Keys of the nested object chatcodec has no field for (``image_url.format``, an app's
    ``_source``) come back as they were (an underscored one gained an underscore) and are a
    loss for another format (they were a spelling marker, dropped without a word)."""
    block = {"type": "image_url", "image_url": {"url": "https://x.test/a.png", "format": "image/png", "_source": 1}}
    audio = {"type": "input_audio", "input_audio": {"data": WAV, "format": "wav", "_take": None}}
    wire = {"messages": messages_to_dict([HumanMessage(content=[block, audio])])}
    assert _round_trip(wire) == wire
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(
        wire, source="langchain", target="openai-chat", on_loss="ignore", losses=losses, options={"model": "gpt-5.6"}
    )
    assert [(loss.path, loss.what) for loss in losses if loss.path.startswith("$.messages[0].data.content")] == [
        ("$.messages[0].data.content[0]", "langchain data ['image_url']"),
        ("$.messages[0].data.content[1]", "langchain data ['input_audio']"),
    ]


def test_a_standard_block_whose_url_is_a_data_url_is_inline_data() -> None:
    """LangChain's standard image block takes a ``data:`` URL as its ``url``, and ChatAnthropic
    sends it as base64 data (``_format_data_content_block``: ``url.startswith("data:")``), so
    it is inline data here too, written back as the URL it was."""
    plain = {"type": "image", "url": f"data:image/png;base64,{PNG}"}
    named = {"type": "image", "url": f"data:image/png;base64,{PNG}", "mime_type": "image/png"}
    message = HumanMessage(content=[plain, named, {"type": "text", "text": "Same?"}])
    content = _anthropic([message])["messages"][0]["content"]
    expected = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
    assert content[:2] == [expected, expected]
    wire = {"messages": messages_to_dict([message])}
    assert _round_trip(wire) == wire


def test_a_developer_message_of_another_format_is_written_as_a_developer_chat_message() -> None:
    """Issue 87: written as a SystemMessage, a developer message lost its role (reported);
    a ChatMessage(role="developer") keeps it, read back by langchain-core and by chatcodec."""
    request = {
        "model": "m",
        "messages": [{"role": "developer", "content": "Be terse."}, {"role": "user", "content": "Hi"}],
    }
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_request(request, source="openai-chat", target="langchain", on_loss="ignore", losses=losses)
    assert not [loss for loss in losses if "developer" in loss.what]
    assert messages_from_dict(wire["messages"])[0] == ChatMessage(content="Be terse.", role="developer")
    back = chatcodec.convert_request(wire, source="langchain", target="openai-chat", options={"model": "m"})
    assert back["messages"][0] == {"role": "developer", "content": "Be terse."}
