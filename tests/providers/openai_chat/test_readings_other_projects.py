"""OpenAI Chat readings found by other projects' cases (litellm, vercel/ai)."""

from __future__ import annotations

import copy
from typing import Any

import chatcodec

FORMAT = "openai-chat"
EPHEMERAL = {"type": "ephemeral"}


def to_anthropic(request: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(
        {"max_completion_tokens": 5, **request}, source=FORMAT, target="anthropic", on_loss="ignore", losses=losses
    )
    return out, [loss.path for loss in losses]


def round_trips(request: dict[str, Any]) -> bool:
    original = copy.deepcopy(request)
    return chatcodec.encode_request(FORMAT, chatcodec.decode_request(FORMAT, request)) == original


CALL = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}


def test_message_level_cache_control_lands_on_the_last_part() -> None:
    request = {
        "model": "m",
        "messages": [
            {"role": "system", "content": "sys", "cache_control": EPHEMERAL},
            {
                "role": "user",
                "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
                "cache_control": EPHEMERAL,
            },
        ],
    }
    anthropic, _ = to_anthropic(request)
    assert anthropic["system"] == [{"type": "text", "text": "sys", "cache_control": EPHEMERAL}]
    assert anthropic["messages"][0]["content"][-1] == {"type": "text", "text": "b", "cache_control": EPHEMERAL}
    assert "cache_control" not in anthropic["messages"][0]["content"][0]
    assert round_trips(request)


def test_tool_message_cache_control_lands_on_the_tool_result() -> None:
    request = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "c1", "content": "res", "cache_control": EPHEMERAL},
        ],
    }
    anthropic, _ = to_anthropic(request)
    assert anthropic["messages"][2]["content"] == [
        {"type": "tool_result", "tool_use_id": "c1", "content": "res", "cache_control": EPHEMERAL}
    ]
    assert round_trips(request)


def test_deprecated_function_role_pairs_with_its_call() -> None:
    request = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "function_call": {"name": "f", "arguments": "{}"}},
            {"role": "function", "name": "f", "content": "res"},
        ],
    }
    anthropic, _ = to_anthropic(request)
    call, result = anthropic["messages"][1]["content"][0], anthropic["messages"][2]["content"][0]
    assert (call["type"], result["type"], result["tool_use_id"]) == ("tool_use", "tool_result", call["id"])
    assert round_trips(request)


def test_audio_mp3_media_type_is_sent_as_mp3_with_a_loss() -> None:
    gemini = {
        "model": "m",
        "contents": [{"role": "user", "parts": [{"inlineData": {"mimeType": "audio/mp3", "data": "AAAA"}}]}],
    }
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(gemini, source="gemini", target=FORMAT, on_loss="ignore", losses=losses)
    assert out["messages"] == [
        {"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": "AAAA", "format": "mp3"}}]}
    ]
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.contents[0].parts[0].source.media_type", "media type audio/mp3")
    ]


def test_bare_string_image_url_in_a_tool_message_is_read() -> None:
    request = {
        "model": "m",
        "messages": [
            {"role": "user", "content": [{"type": "image_url", "image_url": "https://x.test/a.png"}]},
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {
                "role": "tool",
                "tool_call_id": "c1",
                "content": [{"type": "image_url", "image_url": "https://x.test/b.png"}],
            },
        ],
    }
    decoded = chatcodec.decode_request(FORMAT, request)
    result = decoded.messages[2].content[0]
    assert isinstance(result, chatcodec.ToolResultPart)
    assert not isinstance(result.content, str)
    assert result.content[0].model_dump(mode="json", exclude={"provider_metadata"}) == {
        "type": "image",
        "source": {"type": "url", "url": "https://x.test/b.png"},
    }
    assert round_trips({"model": "m", "messages": request["messages"][:1]})  # the bare URL again
    anthropic, _ = to_anthropic(request)
    assert anthropic["messages"][0]["content"] == [
        {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}}
    ]
    image = {"type": "image", "source": {"type": "url", "url": "https://x.test/b.png"}}
    assert anthropic["messages"][2]["content"][0]["content"] == [image]


SERVER_BLOCKS = [
    {"type": "server_tool_use", "id": "srvtoolu_1", "name": "tool_search_tool_regex", "input": {"query": ".*time.*"}},
    {
        "type": "tool_search_tool_result",
        "tool_use_id": "srvtoolu_1",
        "content": {
            "type": "tool_search_tool_search_result",
            "tool_references": [{"type": "tool_reference", "tool_name": "t"}],
        },
    },
]


def test_anthropic_server_tool_blocks_in_assistant_content_reach_anthropic() -> None:
    """litellm passes these blocks through (BerriAI/litellm#18770); they were openai-chat
    opaque parts, dropped on the way to Anthropic, which then lost the search."""
    request = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "find the time tool"},
            {"role": "assistant", "content": [*SERVER_BLOCKS, {"type": "text", "text": "Found it."}]},
            {"role": "user", "content": "ok"},
        ],
    }
    anthropic, losses = to_anthropic(request)
    assert anthropic["messages"][1]["content"] == [*SERVER_BLOCKS, {"type": "text", "text": "Found it."}]
    assert [path for path in losses if path.startswith("$.messages")] == []
    assert round_trips(request)
