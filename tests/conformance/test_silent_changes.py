"""Issue 10 items 22 and 24 (and 4 across providers): a conversion that changes a value
reports it; one that reports nothing changed nothing."""

from __future__ import annotations

import base64
from typing import Any

import pytest

import chatcodec
from conformance.providers import PROVIDER_NAMES

BIG = 2**53 + 1
"""The first integer a float cannot hold."""


def _convert(payload: dict[str, Any], source: str, target: str) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(payload, source=source, target=target, on_loss="ignore", losses=losses)
    return converted, losses


def _body(provider: str, **fields: Any) -> dict[str, Any]:
    request = chatcodec.ChatRequest(model="m", max_tokens=10, messages=[chatcodec.UserMessage(content="q")], **fields)
    return chatcodec.encode_request(provider, request, on_loss="error")


@pytest.mark.parametrize("source", PROVIDER_NAMES)
@pytest.mark.parametrize("target", PROVIDER_NAMES)
@pytest.mark.parametrize("key", ["temperature", "top_p"])
def test_item_22_integers_above_2_53_in_sampling_parameters_survive(source: str, target: str, key: str) -> None:
    """Read back through the target's own decoder, so the law holds for every wire's
    spelling of the setting (``temperature``, ``generationConfig.temperature``, ...)."""
    payload = _body(source, **{key: BIG})
    converted, losses = _convert(payload, source, target)
    read_back = getattr(chatcodec.decode_request(target, converted), key)
    assert read_back == BIG
    assert isinstance(read_back, int)
    assert losses == []


@pytest.mark.parametrize("key", ["frequency_penalty", "presence_penalty", "seed"])
def test_item_22_openai_only_parameters_survive_too(key: str) -> None:
    payload = _body("openai-chat") | {key: BIG}
    converted, losses = _convert(payload, "openai-chat", "openai-chat")
    assert converted[key] == BIG
    assert losses == []


def _tool_call_request(arguments: str) -> chatcodec.ChatRequest:
    return chatcodec.validate_model(
        chatcodec.ChatRequest,
        {
            "model": "m",
            "max_tokens": 10,
            "messages": [
                {"role": "user", "content": "q"},
                {
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": "c1", "name": "f", "arguments": arguments}],
                },
                {"role": "tool", "tool_call_id": "c1", "content": "ok"},
            ],
        },
    )


@pytest.mark.parametrize(
    "arguments",
    ['{"a": 1, "a": 2}', '{"x": 0.1000000000000000055511151231257827}', '{"x": 1e400}', '{"x": {"y": [1, 2], "y": 3}}'],
)
def test_item_24_arguments_reserialised_with_a_change_report_it(arguments: str) -> None:
    """Anthropic takes ``input`` as an object: duplicate keys collapse and long numbers
    round when the text is parsed."""
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request("anthropic", _tool_call_request(arguments), on_loss="ignore", losses=losses)
    assert [loss.path for loss in losses] == ["$.messages[1].content[0].arguments"]


@pytest.mark.parametrize(
    "arguments", ['{"a": 1, "b": [1.5, 2e3, -0.25, 10000000000000000000001]}', '{ "s" : "x" }', "{}"]
)
def test_item_24_arguments_reserialised_without_a_change_report_nothing(arguments: str) -> None:
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request("anthropic", _tool_call_request(arguments), on_loss="ignore", losses=losses)
    assert losses == []


def test_item_24_image_moved_out_of_a_tool_result_is_reported_across_providers() -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}
    anthropic_body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "draw"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "draw", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": [image]}]},
        ],
    }
    converted, losses = _convert(anthropic_body, "anthropic", "openai-chat")
    assert converted["messages"][-1]["role"] == "user"
    assert [loss.path for loss in losses] == ["$.messages[2].content[0].content[0]"]


def test_item_04_title_and_filename_cross_both_ways_without_loss() -> None:
    data = base64.b64encode(b"%PDF-1.4").decode()
    openai_body = {
        "model": "m",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "file", "file": {"file_data": f"data:application/pdf;base64,{data}", "filename": "a.pdf"}}
                ],
            }
        ],
    }
    there, there_losses = _convert(openai_body, "openai-chat", "anthropic")
    assert there["messages"][0]["content"][0]["title"] == "a.pdf"
    back = chatcodec.convert_request(there, source="anthropic", target="openai-chat", on_loss="error")
    assert back["messages"] == openai_body["messages"]
    assert [loss.path for loss in there_losses] == ["$.max_tokens"]
