"""``decode_request(..., strict=True, options={"server": ...})``: strict reading for one
compatible server accepts the fields that server documents, and no other server's."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec

THINKING_BODY: dict[str, Any] = {
    "model": "deepseek-reasoner",
    "messages": [{"role": "user", "content": "Hi"}],
    "thinking": {"type": "enabled"},
}
"""An OpenAI Chat body with DeepSeek's ``thinking`` extension."""


def test_strict_reading_for_a_named_server_accepts_the_fields_it_documents() -> None:
    request = chatcodec.decode_request("openai-chat", THINKING_BODY, strict=True, options={"server": "deepseek"})
    assert request.model == "deepseek-reasoner"


def test_strict_reading_for_a_named_server_refuses_another_servers_fields() -> None:
    with pytest.raises(chatcodec.ValidationError, match="thinking"):
        chatcodec.decode_request("openai-chat", THINKING_BODY, strict=True, options={"server": "groq"})


def test_strict_reading_for_an_anthropic_compatible_server_is_reachable() -> None:
    body = {"model": "deepseek-v4-pro", "max_tokens": 10, "messages": [{"role": "user", "content": "Hi"}]}
    assert chatcodec.decode_request("anthropic", body, strict=True, options={"server": "deepseek"}).max_tokens == 10
    with pytest.raises(chatcodec.ProviderLookupError, match="minimax"):
        chatcodec.decode_request("anthropic", body, strict=True, options={"server": "groq"})


def test_an_option_reading_does_not_take_is_refused() -> None:
    with pytest.raises(chatcodec.PayloadError, match="server"):
        chatcodec.decode_request("openai-chat", THINKING_BODY, options={"sever": "deepseek"})


VIDEO_BODY: dict[str, Any] = {
    "model": "Qwen/Qwen2.5-VL-7B-Instruct",
    "messages": [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What's in this video?"},
                {"type": "video_url", "video_url": {"url": "https://example.com/clip.mp4"}},
            ],
        }
    ],
}
"""vLLM's documented video request (docs.vllm.ai/en/latest/features/multimodal_inputs.html,
"Video Inputs", OpenAI-compatible server): a ``video_url`` part, which the openai SDK's
user content union has no arm for; SGLang and Kimi K2.5+ take the same part."""


@pytest.mark.parametrize("server", [None, "vllm", "sglang", "kimi", "together"])
def test_strict_reading_accepts_a_video_url_part_where_a_server_takes_one(server: str | None) -> None:
    options = {} if server is None else {"server": server}
    request = chatcodec.decode_request("openai-chat", VIDEO_BODY, strict=True, options=options)
    video = request.messages[0].content[1]
    assert isinstance(video, chatcodec.VideoPart)
    assert video.source == chatcodec.UrlSource(url="https://example.com/clip.mp4")


def test_strict_reading_refuses_a_video_url_part_for_a_server_that_takes_none() -> None:
    with pytest.raises(chatcodec.ValidationError, match="video_url"):
        chatcodec.decode_request("openai-chat", VIDEO_BODY, strict=True, options={"server": "deepseek"})


def test_a_misspelt_field_of_a_video_url_part_is_named() -> None:
    part = {"type": "video_url", "video_ur": {"url": "https://example.com/clip.mp4"}}
    body = {**VIDEO_BODY, "messages": [{"role": "user", "content": [part]}]}
    with pytest.raises(chatcodec.ValidationError, match=r"content\[0\]\.video_ur: .*did you mean `video_url`"):
        chatcodec.decode_request("openai-chat", body, strict=True)
