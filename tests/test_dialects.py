"""Alternate input shapes (the table in chatcodec._dialects.reader) become the canonical form at
the API boundary; OpenAI shapes read as the openai-chat codec reads them, Anthropic
blocks as the anthropic codec does."""

from __future__ import annotations

import copy
import json
from typing import Any

import pydantic
import pytest

import chatcodec
from chatcodec import AssistantMessage, ToolMessage, UserMessage
from chatcodec import _compat as compat
from chatcodec._dialects import reader as dialects
from chatcodec.contract import ProviderCodec

# What the codecs add when they read reasoning: who produced it, and (openai-chat) the field.
_FROM_ANTHROPIC = {"provider": "anthropic"}
_FROM_REASONING_CONTENT = {
    "provider": "openai-chat",
    "provider_metadata": {"openai-chat": {"field": "reasoning_content"}},
}


def _canonical(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return chatcodec.dump_messages(chatcodec.validate_messages(messages))


def _assert_stable(dumped: list[dict[str, Any]]) -> None:
    """The canonical dump validates again to the same dump."""
    assert _canonical(dumped) == dumped


# --- assistant: Verifiers / OpenAI fields ----------------------------------------------


def test_verifiers_tool_calls_become_tool_use_after_content() -> None:
    dumped = _canonical(
        [
            {
                "role": "assistant",
                "content": "Let me look.",
                "tool_calls": [
                    {"id": "c1", "name": "search", "arguments": '{"q": "x"}'},
                    {"id": "c2", "name": "fetch", "arguments": "{not json"},
                ],
            }
        ]
    )
    assert dumped == [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Let me look."},
                {"type": "tool_use", "id": "c1", "name": "search", "arguments": '{"q": "x"}'},
                {"type": "tool_use", "id": "c2", "name": "fetch", "arguments": "{not json"},
            ],
        }
    ]
    _assert_stable(dumped)


def test_openai_nested_tool_calls() -> None:
    dumped = _canonical(
        [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"a":1}'}},
                    {"id": "call_2", "type": "function", "function": {"name": "g"}},
                ],
            }
        ]
    )
    assert dumped == [
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "call_1", "name": "f", "arguments": '{"a":1}'},
                {"type": "tool_use", "id": "call_2", "name": "g", "arguments": ""},
            ],
        }
    ]


def test_reasoning_content_becomes_leading_thinking_part() -> None:
    dumped = _canonical([{"role": "assistant", "content": "answer", "reasoning_content": "because"}])
    assert dumped == [
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "text": "because", **_FROM_REASONING_CONTENT},
                {"type": "text", "text": "answer"},
            ],
        }
    ]
    message = chatcodec.validate_messages([{"role": "assistant", "content": "", "reasoning_content": "r"}])[0]
    assert isinstance(message, AssistantMessage)
    assert message.model_dump() == {
        "role": "assistant",
        "content": [{"type": "thinking", "text": "r", **_FROM_REASONING_CONTENT}],
    }
    assert message.reasoning_text == "r"


@pytest.mark.parametrize("reasoning", [None, ""])
def test_empty_reasoning_content_keeps_string_content(reasoning: str | None) -> None:
    dumped = _canonical([{"role": "assistant", "content": "hi", "reasoning_content": reasoning, "tool_calls": None}])
    assert dumped == [{"role": "assistant", "content": "hi"}]


def test_thinking_blocks_with_equal_reasoning_content_kept_once() -> None:
    dumped = _canonical(
        [
            {
                "role": "assistant",
                "content": "hi",
                "reasoning_content": "abc",
                "thinking_blocks": [
                    {"type": "thinking", "thinking": "a", "signature": "s1"},
                    {"type": "thinking", "thinking": "bc", "signature": "s2"},
                ],
                "tool_calls": [{"id": "c1", "name": "f", "arguments": "{}"}],
            }
        ]
    )
    assert dumped == [
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "text": "a", "signature": "s1", **_FROM_ANTHROPIC},
                {"type": "thinking", "text": "bc", "signature": "s2", **_FROM_ANTHROPIC},
                {"type": "text", "text": "hi"},
                {"type": "tool_use", "id": "c1", "name": "f", "arguments": "{}"},
            ],
        }
    ]
    _assert_stable(dumped)


def test_thinking_blocks_with_different_reasoning_content_keep_both() -> None:
    dumped = _canonical(
        [
            {
                "role": "assistant",
                "content": "hi",
                "reasoning_content": "a summary",
                "thinking_blocks": [
                    {"type": "thinking", "thinking": "full", "signature": "s1"},
                    {"type": "redacted_thinking", "data": "ENC"},
                ],
            }
        ]
    )
    assert dumped == [
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "text": "full", "signature": "s1", **_FROM_ANTHROPIC},
                {"type": "thinking", "text": "", "encrypted": "ENC", "redacted": True, **_FROM_ANTHROPIC},
                {"type": "thinking", "text": "a summary", **_FROM_REASONING_CONTENT},
                {"type": "text", "text": "hi"},
            ],
        }
    ]


@pytest.mark.parametrize("extra", [{}, {"tool_calls": []}, {"reasoning_content": None}])
def test_content_none_becomes_empty_list(extra: dict[str, Any]) -> None:
    dumped = _canonical([{"role": "assistant", "content": None, **extra}])
    assert dumped == [{"role": "assistant", "content": []}]


# --- tool messages ---------------------------------------------------------------------


def test_openai_tool_message() -> None:
    dumped = _canonical([{"role": "tool", "tool_call_id": "c1", "content": "sunny"}])
    assert dumped == [{"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "sunny"}]}]
    message = chatcodec.validate_messages([{"role": "tool", "tool_call_id": "c1", "content": "sunny"}])[0]
    assert isinstance(message, ToolMessage)
    assert message.tool_use_ids == ["c1"]
    _assert_stable(dumped)


def test_openai_tool_message_with_name_error_none_and_parts() -> None:
    dumped = _canonical(
        [
            {"role": "tool", "tool_call_id": "a", "content": None, "name": "f"},
            {
                "role": "tool",
                "tool_call_id": "b",
                "content": [{"type": "image_url", "image_url": {"url": "https://x/p.png"}}],
                "is_error": True,
            },
        ]
    )
    assert dumped == [
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "", "name": "f"}]},
        {
            "role": "tool",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "b",
                    "content": [{"type": "image", "source": {"type": "url", "url": "https://x/p.png"}}],
                    "is_error": True,
                }
            ],
        },
    ]


def test_tool_result_part_accepts_tool_call_id() -> None:
    dumped = _canonical([{"role": "tool", "content": [{"type": "tool_result", "tool_call_id": "x", "content": "r"}]}])
    assert dumped == [{"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "x", "content": "r"}]}]


# --- Anthropic / AskTable block shape --------------------------------------------------


def test_user_message_with_tool_results_and_text_splits() -> None:
    dumped = _canonical(
        [
            {"role": "user", "content": "q"},
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "t1", "content": "r1"},
                    {
                        "type": "tool_result",
                        "tool_use_id": "t2",
                        "content": [{"type": "text", "text": "r2"}],
                        "is_error": True,
                    },
                    {"type": "text", "text": "and now?"},
                ],
            },
            {"role": "assistant", "content": "done"},
        ]
    )
    assert dumped == [
        {"role": "user", "content": "q"},
        {
            "role": "tool",
            "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "r1"},
                {
                    "type": "tool_result",
                    "tool_use_id": "t2",
                    "content": [{"type": "text", "text": "r2"}],
                    "is_error": True,
                },
            ],
        },
        {"role": "user", "content": [{"type": "text", "text": "and now?"}]},
        {"role": "assistant", "content": "done"},
    ]
    _assert_stable(dumped)


def test_user_message_with_only_tool_results_becomes_tool_message() -> None:
    messages = chatcodec.validate_messages(
        [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "r1"}]}]
    )
    assert [type(message) for message in messages] == [ToolMessage]
    assert chatcodec.dump_messages(messages) == [
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "r1"}]}
    ]


def test_split_keeps_user_message_fields_on_the_rest() -> None:
    dumped = _canonical(
        [
            {
                "role": "user",
                "name": "bob",
                "content": [{"type": "tool_result", "tool_use_id": "t", "content": "r"}, {"type": "text", "text": "t"}],
            }
        ]
    )
    assert dumped[1] == {"role": "user", "name": "bob", "content": [{"type": "text", "text": "t"}]}


def test_anthropic_assistant_blocks() -> None:
    dumped = _canonical(
        [
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hmm", "signature": "sig=="},
                    {"type": "redacted_thinking", "data": "ENCRYPTED"},
                    {"type": "text", "text": "calling"},
                    {"type": "tool_use", "id": "toolu_1", "name": "get", "input": {"city": "Paris", "n": [1, 2]}},
                ],
            }
        ]
    )
    assert dumped == [
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "text": "hmm", "signature": "sig==", **_FROM_ANTHROPIC},
                {"type": "thinking", "text": "", "encrypted": "ENCRYPTED", "redacted": True, **_FROM_ANTHROPIC},
                {"type": "text", "text": "calling"},
                {"type": "tool_use", "id": "toolu_1", "name": "get", "arguments": '{"city":"Paris","n":[1,2]}'},
            ],
        }
    ]
    message = chatcodec.validate_messages(dumped)[0]
    assert isinstance(message, AssistantMessage)
    assert message.tool_calls[0].parsed_arguments() == {"city": "Paris", "n": [1, 2]}
    _assert_stable(dumped)


# --- media parts -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("image_url", "expected"),
    [
        (
            {"url": "https://x/cat.png"},
            {"type": "image", "source": {"type": "url", "url": "https://x/cat.png"}},
        ),
        (
            {"url": "https://x/cat.png", "detail": "high"},
            {"type": "image", "source": {"type": "url", "url": "https://x/cat.png"}, "detail": "high"},
        ),
        (
            {"url": "data:image/png;base64,iVBORw0K", "detail": "low"},
            {
                "type": "image",
                "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0K"},
                "detail": "low",
            },
        ),
        (
            "data:image/svg+xml;base64,AA==",
            {"type": "image", "source": {"type": "base64", "media_type": "image/svg+xml", "data": "AA=="}},
        ),
        (
            {"url": "data:text/plain,hello"},
            {"type": "image", "source": {"type": "url", "url": "data:text/plain,hello"}},
        ),
    ],
)
def test_image_url_part(image_url: object, expected: dict[str, Any]) -> None:
    dumped = _canonical([{"role": "user", "content": [{"type": "image_url", "image_url": image_url}]}])
    assert dumped == [{"role": "user", "content": [expected]}]


@pytest.mark.parametrize(
    ("audio_format", "media_type"),
    [("mp3", "audio/mpeg"), ("wav", "audio/wav"), ("pcm16", "audio/pcm"), ("flac", "audio/flac")],
)
def test_input_audio_part(audio_format: str, media_type: str) -> None:
    content = [{"type": "input_audio", "input_audio": {"data": "QUJD", "format": audio_format}}]
    dumped = _canonical([{"role": "user", "content": content}])
    assert dumped == [
        {
            "role": "user",
            "content": [{"type": "audio", "source": {"type": "base64", "media_type": media_type, "data": "QUJD"}}],
        }
    ]
    message = chatcodec.validate_messages([{"role": "user", "content": content}])[0]
    assert isinstance(message, UserMessage)
    assert message.content[0].format == audio_format


@pytest.mark.parametrize(
    ("file", "expected"),
    [
        (
            {"file_data": "data:application/pdf;base64,JVBERi0", "filename": "a.pdf"},
            {
                "type": "document",
                "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0"},
                "filename": "a.pdf",
            },
        ),
        ({"file_id": "file-abc"}, {"type": "document", "source": {"type": "file", "file_id": "file-abc"}}),
        (  # OpenAI takes data URLs only; the codec keeps anything else verbatim
            {"file_data": "https://x/a.pdf", "filename": "a.pdf"},
            {
                "type": "opaque",
                "provider": "openai-chat",
                "data": {"type": "file", "file": {"file_data": "https://x/a.pdf", "filename": "a.pdf"}},
            },
        ),
    ],
)
def test_openai_file_part(file: dict[str, Any], expected: dict[str, Any]) -> None:
    dumped = _canonical([{"role": "user", "content": [{"type": "file", "file": file}]}])
    assert dumped == [{"role": "user", "content": [expected]}]


@pytest.mark.parametrize("title", [{}, {"title": "Notes"}])
def test_anthropic_text_document_source_data(title: dict[str, str]) -> None:
    given = {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "Body."}, **title}
    expected = {"type": "document", "source": {"type": "text", "text": "Body.", "media_type": "text/plain"}, **title}
    assert _canonical([{"role": "user", "content": [given]}]) == [{"role": "user", "content": [expected]}]


_EPHEMERAL = {"type": "ephemeral"}
_URL_IMAGE = {"type": "image", "source": {"type": "url", "url": "https://x"}}
_TOOL_USE = {"type": "tool_use", "id": "c", "name": "f", "arguments": "{}"}

_SMALL_CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "tool_calls with input dict",
        {"role": "assistant", "tool_calls": [{"id": "c", "name": "f", "input": {"q": "é", "n": 1}}]},
        {"role": "assistant", "content": [{**_TOOL_USE, "arguments": '{"q":"é","n":1}'}]},
    ),
    (
        "tool_calls after list content",
        {"role": "assistant", "content": [{"type": "text", "text": "x"}], "tool_calls": [{**_TOOL_USE, "type": "x"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "x"}, _TOOL_USE]},
    ),
    (
        "empty tool_calls keep string content",
        {"role": "assistant", "content": "x", "tool_calls": []},
        {"role": "assistant", "content": "x"},
    ),
    (
        "thinking_blocks in canonical spelling",
        {"role": "assistant", "thinking_blocks": [{"type": "thinking", "text": "t", "provider": "anthropic"}]},
        {"role": "assistant", "content": [{"type": "thinking", "text": "t", "provider": "anthropic"}]},
    ),
    (
        "redacted_thinking keeps cache_control",
        {"role": "assistant", "content": [{"type": "redacted_thinking", "data": "E", "cache_control": _EPHEMERAL}]},
        {
            "role": "assistant",
            "content": [
                {
                    "type": "thinking",
                    "text": "",
                    "encrypted": "E",
                    "redacted": True,
                    "cache_control": _EPHEMERAL,
                    **_FROM_ANTHROPIC,
                }
            ],
        },
    ),
    (
        "image_url keeps cache_control",
        {
            "role": "user",
            "content": [{"type": "image_url", "image_url": {"url": "https://x"}, "cache_control": _EPHEMERAL}],
        },
        {"role": "user", "content": [{**_URL_IMAGE, "cache_control": _EPHEMERAL}]},
    ),
    (
        "image_url in assistant content",
        {"role": "assistant", "content": [{"type": "image_url", "image_url": {"url": "https://x"}}]},
        {"role": "assistant", "content": [_URL_IMAGE]},
    ),
]


@pytest.mark.parametrize(
    ("given", "expected"), [case[1:] for case in _SMALL_CASES], ids=[case[0] for case in _SMALL_CASES]
)
def test_small_shapes(given: dict[str, Any], expected: dict[str, Any]) -> None:
    assert _canonical([given]) == [expected]
    _assert_stable([expected])


# --- general properties ----------------------------------------------------------------

_MIXED = [
    {"role": "system", "content": "sys"},
    {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "c0", "content": "r0"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA"}},
            {"type": "text", "text": "t"},
        ],
    },
    {
        "role": "assistant",
        "content": None,
        "reasoning_content": "r",
        "thinking_blocks": [{"type": "thinking", "thinking": "q"}],
        "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
    },
    {
        "role": "tool",
        "tool_call_id": "c",
        "content": [{"type": "input_audio", "input_audio": {"data": "x", "format": "wav"}}],
    },
    {"role": "user", "content": [{"type": "document", "source": {"type": "text", "data": "d"}}]},
]


def test_compat_does_not_mutate_input() -> None:
    before = copy.deepcopy(_MIXED)
    chatcodec.validate_messages(_MIXED)
    assert before == _MIXED


@pytest.mark.parametrize("encode", [json.dumps, lambda data: json.dumps(data).encode()])
def test_compat_shapes_from_json_text_and_bytes(encode: Any) -> None:
    from_json = chatcodec.dump_messages(chatcodec.validate_messages(encode(_MIXED)))
    assert from_json == _canonical(_MIXED)
    assert [message["role"] for message in from_json] == ["system", "tool", "user", "assistant", "tool", "user"]
    _assert_stable(from_json)


def test_validated_models_pass_through() -> None:
    message = UserMessage(content="x")
    messages = chatcodec.validate_messages([message, {"role": "tool", "tool_call_id": "c", "content": "r"}])
    assert messages[0] == message
    assert isinstance(messages[1], ToolMessage)


# --- media helpers in chatcodec._compat ----------------------------------------------


@pytest.mark.parametrize(
    ("audio_format", "media_type"), [("mp3", "audio/mpeg"), ("wav", "audio/wav"), ("ogg", "audio/ogg")]
)
def test_audio_format_media_type_inverse(audio_format: str, media_type: str) -> None:
    assert compat.media_type_for_audio_format(audio_format) == media_type
    assert compat.audio_format_from_media_type(media_type) == audio_format
    assert compat.audio_format_from_media_type(None) is None


def test_data_url_round_trips_through_source_from_url() -> None:
    url = compat.data_url("image/jpeg", "/9j/4AAQ+_-=")
    assert url == "data:image/jpeg;base64,/9j/4AAQ+_-="
    source = compat.source_from_url(url)
    assert source == {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQ+_-="}
    assert compat.data_url(source["media_type"], source["data"]) == url
    assert compat.source_from_url("https://x", "image/png") == {
        "type": "url",
        "url": "https://x",
        "media_type": "image/png",
    }


def test_unrecognized_input_passes_through_untouched() -> None:
    for value in (None, 1, "x", [1], {"type": "text", "text": "t"}, {"type": ["x"]}):
        assert dialects.read_part(value) is value
        assert dialects.read_parts(value) is value
        assert dialects.read_message(value) is value
        assert dialects.read_messages(value) is value


def test_canonical_data_is_returned_as_it_is() -> None:
    """The fast path: canonical messages are neither copied nor rebuilt."""
    canonical = _canonical(_MIXED)
    assert dialects.read_messages(canonical) is canonical
    request = {"model": "m", "messages": canonical}
    assert dialects.read_request(request) is request
    response = {"choices": [{"message": canonical[4 - 1]}]}
    assert dialects.read_response(response) is response


_OPENAI_ASSISTANT = {
    "role": "assistant",
    "content": "The answer.",
    "reasoning_content": "Think first.",
    "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
}


def test_validate_messages_and_the_openai_codec_read_one_message_alike() -> None:
    """One reader per dialect: the same OpenAI message, the same canonical parts."""
    validated = chatcodec.validate_messages([_OPENAI_ASSISTANT])
    decoded = chatcodec.decode_request("openai-chat", {"model": "m", "messages": [_OPENAI_ASSISTANT]}).messages
    assert validated == decoded
    encoded = chatcodec.encode_request("openai-chat", {"model": "m", "messages": validated}, on_loss="error")
    assert encoded["messages"] == [_OPENAI_ASSISTANT]


def test_validate_messages_and_the_anthropic_codec_read_blocks_alike() -> None:
    blocks = [
        {"type": "thinking", "thinking": "hmm", "signature": "sig"},
        {"type": "redacted_thinking", "data": "ENC"},
        {"type": "tool_use", "id": "cc-a_2eb", "name": "f", "input": {"x": 1}},
    ]
    message = {"role": "assistant", "content": blocks}
    validated = chatcodec.validate_messages([message])
    decoded = chatcodec.decode_request("anthropic", {"model": "m", "max_tokens": 1, "messages": [message]}).messages
    assert validated == decoded
    assert isinstance(validated[0], AssistantMessage)
    assert validated[0].tool_calls[0].id == "a.b"  # the anthropic codec's id escape, undone


@pytest.mark.parametrize(
    "dialect",
    [
        {"role": "tool", "tool_call_id": "c", "content": "r"},
        {"role": "assistant", "content": None},
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x"}}]},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}]},
    ],
)
def test_models_take_canonical_data_only(dialect: dict[str, Any]) -> None:
    """The models' own validation is the JSON Schema's: dialects are read at the boundary."""
    with pytest.raises(pydantic.ValidationError):
        chatcodec.MESSAGE_ADAPTER.validate_python(dialect)
    chatcodec.validate_message(dialect)  # the boundary reads it


# --- the readers reach the codecs through the codec interface -------


def test_the_reasoning_fields_read_are_the_openai_chat_codecs() -> None:
    from chatcodec._dialects import base as dialect_base
    from chatcodec._providers.openai_chat import reasoning

    assert dialect_base.REASONING_STRING_FIELDS == reasoning.STRING_FIELDS
    assert dialect_base.REASONING_DETAILS == reasoning.DETAILS
    assert dialect_base.REASONING_FIELDS == reasoning.FIELDS


def test_a_codec_without_a_dialect_decoder_says_what_it_cannot_read() -> None:
    from chatcodec._providers.contract.provider_codec import ProviderCodec

    codec = chatcodec.get_codec("gemini")
    assert isinstance(codec, ProviderCodec)
    with pytest.raises(NotImplementedError, match="gemini codec reads no assistant messages"):
        codec.decode_assistant({"role": "model", "parts": []})


def test_a_dialect_read_with_a_codec_registered_in_the_providers_place() -> None:
    """The readers use the codec the registry gives: one without the dialect-reading
    methods cannot read that dialect, and says so as it stands in for the codec. A plain
    agent turn (a reasoning string, plain calls) is read by the rule the codec reads it with,
    asking no codec: the same parts as the built-in codec gives."""
    plain_turn = {
        "role": "assistant",
        "content": "x",
        "reasoning_content": "because",
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}],
    }
    expected = chatcodec.validate_messages([plain_turn])
    original = chatcodec.get_codec("openai-chat")
    chatcodec.register_codec("openai-chat", lambda: chatcodec.get_codec("canonical"))
    try:
        with pytest.raises(TypeError, match="registered as 'openai-chat' cannot read its dialect"):
            chatcodec.validate_messages(
                [{"role": "assistant", "content": "x", "reasoning_details": [{"type": "reasoning.text", "text": "b"}]}]
            )
        assert chatcodec.validate_messages([{"role": "user", "content": "hi"}])[0].content == "hi"
        assert chatcodec.validate_messages([plain_turn]) == expected
    finally:
        chatcodec.unregister_codec("openai-chat")
    assert chatcodec.get_codec("openai-chat") is original
    content = expected[0].content
    assert not isinstance(content, str)
    assert [part.type for part in content] == ["thinking", "text", "tool_use"]


_PLAIN = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}


@pytest.mark.parametrize(
    "calls",
    [
        [_PLAIN],
        [_PLAIN, {**_PLAIN, "id": "c2", "function": {"name": "g", "arguments": ""}}],
        [{**_PLAIN, "index": 0}],  # the SDK's accumulated index: the codec's general reading keeps it
        [{**_PLAIN, "function": {"name": "f", "arguments": {"a": 1}}}],  # arguments as an object
        [{**_PLAIN, "function": {"name": "f"}}],  # no arguments
        [{"id": "c1", "type": "custom", "custom": {"name": "f", "input": "text"}}],
        [{"id": "c1", "name": "f", "arguments": "{}"}],  # flat
        [{**_PLAIN, "function": {"name": "f", "arguments": "{}", "strict": True}}],
        [{**_PLAIN, "id": 7}],  # refused, at the caller's path
        [{**_PLAIN, "function": {"name": None, "arguments": "{}"}}],
    ],
)
def test_plain_calls_read_without_the_codec_as_the_codec_reads_them(calls: list[dict[str, Any]]) -> None:
    """The short path reads a list of plain calls to the parts the openai-chat codec gives
    them, and takes nothing else (any other list is read as before, call by call)."""
    from chatcodec._dialects.tool_calls import plain_calls

    read = plain_calls(calls)
    plain = all(
        set(call) == {"id", "type", "function"}
        and isinstance(call["id"], str)
        and set(call["function"]) == {"name", "arguments"}
        and isinstance(call["function"]["name"], str)
        and isinstance(call["function"]["arguments"], str)
        for call in calls
    )
    if not plain:
        assert read is None
        return
    codec = chatcodec.get_codec("openai-chat")
    assert isinstance(codec, ProviderCodec)
    assert read == [codec.decode_assistant({"role": "assistant", "tool_calls": [call]})["content"][0] for call in calls]
    message = {"role": "assistant", "content": "t", "tool_calls": calls}
    assert (
        chatcodec.validate_messages([message])
        == chatcodec.decode_request("openai-chat", {"messages": [message]}).messages
    )


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_a_reasoning_string_reads_without_the_codec_as_the_codec_reads_it(field: str) -> None:
    from chatcodec._dialects.base import reasoning_string_part

    codec = chatcodec.get_codec("openai-chat")
    assert isinstance(codec, ProviderCodec)
    assert [reasoning_string_part(field, "why")] == codec.decode_assistant({"role": "assistant", field: "why"})[
        "content"
    ]
    message = {"role": "assistant", "content": "t", field: "why"}
    assert (
        chatcodec.validate_messages([message])
        == chatcodec.decode_request("openai-chat", {"messages": [message]}).messages
    )
