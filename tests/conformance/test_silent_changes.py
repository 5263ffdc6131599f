"""Issue 10 items 22 and 24 (and 4 across providers): a conversion that changes a value
reports it; one that reports nothing changed nothing."""

from __future__ import annotations

import base64
from collections import Counter
from typing import Any

import pytest

import chatcodec
from chatcodec.testing import meaningful_markers
from conformance.providers import PROVIDER_NAMES

BIG = 2**53 + 1
"""The first integer a float cannot hold."""


def _convert(payload: dict[str, Any], source: str, target: str) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    options = _OLD_ANTHROPIC if target == "anthropic" else None  # 2026-10-21 takes no sampling settings
    converted = chatcodec.convert_request(
        payload, source=source, target=target, on_loss="ignore", losses=losses, options=options
    )
    return converted, losses


_OLD_ANTHROPIC = {"api_version": "2023-06-01"}


def _body(provider: str, **fields: Any) -> dict[str, Any]:
    request = chatcodec.ChatRequest(model="m", max_tokens=10, messages=[chatcodec.UserMessage(content="q")], **fields)
    options = _OLD_ANTHROPIC if provider == "anthropic" else None
    return chatcodec.encode_request(provider, request, on_loss="error", options=options)


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


def _there_and_back(payload: dict[str, Any], source: str, via: str) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    there, there_losses = _convert(payload, source, via)
    back, back_losses = _convert(there, via, source)
    return back, there_losses + back_losses


def _names(losses: list[chatcodec.Loss], marker: str) -> bool:
    return any(f" spelling {marker}" in loss.what for loss in losses)


_CHAT_MAX_TOKENS = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "q"}]}


@pytest.mark.parametrize("via", [name for name in PROVIDER_NAMES if name != "openai-chat"])
def test_item_24_max_tokens_spelling_comes_back_or_is_reported(via: str) -> None:
    """OpenAI Chat's ``max_tokens`` is not a pure spelling of ``max_completion_tokens``:
    older compatible servers (vLLM, llama.cpp, Ollama) know only the first, o-series
    models refuse it. Through another provider it comes back, or a loss names it."""
    back, losses = _there_and_back(_CHAT_MAX_TOKENS, "openai-chat", via)
    assert "max_tokens" in back or _names(losses, "_max_tokens_key"), (back, losses)
    assert back.get("max_tokens", back.get("max_completion_tokens")) == 10


def test_item_24_max_tokens_spelling_is_kept_at_home() -> None:
    back, losses = _there_and_back(_CHAT_MAX_TOKENS, "openai-chat", "openai-chat")
    assert back == _CHAT_MAX_TOKENS
    assert losses == []


_EPHEMERAL = {"type": "ephemeral"}
_GATEWAY_CACHE = {
    "model": "m",
    "max_completion_tokens": 10,
    "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}, "cache_control": _EPHEMERAL}],
    "messages": [
        {"role": "user", "content": [{"type": "text", "text": "q", "cache_control": _EPHEMERAL}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "f", "arguments": "{}"},
                    "cache_control": _EPHEMERAL,
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "ok", "cache_control": _EPHEMERAL},
    ],
}
"""OpenRouter / litellm breakpoints on a tool, a part, a tool call and a tool message."""


def _gemini(**config: Any) -> dict[str, Any]:
    user = {"role": "user", "parts": [{"text": "q"}]}
    return {"contents": [user], "generationConfig": {"maxOutputTokens": 10, **config}}


def _responses(**fields: Any) -> dict[str, Any]:
    return {"model": "m", "max_output_tokens": 10, "input": [{"role": "user", "content": "q"}], **fields}


_OBJECT_SCHEMA = {"type": "OBJECT", "properties": {"a": {"type": "STRING", "nullable": True}}}
_SERVER_THEN_CLIENT = {
    "anthropic": {
        "model": "m",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": "q"}],
        "tools": [{"type": "web_search_20250305", "name": "web_search"}, {"name": "f", "input_schema": {}}],
    },
    "bedrock-converse": {
        "modelId": "m",
        "messages": [{"role": "user", "content": [{"text": "q"}]}],
        "inferenceConfig": {"maxTokens": 10},
        "toolConfig": {
            "tools": [
                {"systemTool": {"name": "nova_grounding"}},
                {"toolSpec": {"name": "f", "inputSchema": {"json": {}}}},
            ]
        },
    },
    "openai-responses": _responses(
        tools=[{"type": "web_search"}, {"type": "function", "name": "f", "parameters": {}, "strict": True}]
    ),
}

MEANINGFUL = [
    ("openai-chat", "_max_tokens_key", _CHAT_MAX_TOKENS),
    (
        "openai-chat",
        "_cache",
        _GATEWAY_CACHE,
    ),
    (
        "gemini",
        "_schema_key",
        _gemini() | {"tools": [{"functionDeclarations": [{"name": "f", "parameters": _OBJECT_SCHEMA}]}]},
    ),
    ("gemini", "_response_schema_key", _gemini(responseMimeType="application/json", responseSchema=_OBJECT_SCHEMA)),
    (
        "openai-responses",
        "_custom",
        _responses(
            input=[
                {"role": "user", "content": "q"},
                {"type": "custom_tool_call", "call_id": "c1", "name": "f", "input": "raw"},
                {"type": "custom_tool_call_output", "call_id": "c1", "output": "ok"},
            ]
        ),
    ),
    *((source, "_tool_order", payload) for source, payload in _SERVER_THEN_CLIENT.items()),
]
"""Every marker a provider declares meaningful, on a payload that makes its decoder write it."""


@pytest.mark.parametrize(("source", "marker", "payload"), MEANINGFUL, ids=[f"{s}{m}" for s, m, _ in MEANINGFUL])
@pytest.mark.parametrize("via", PROVIDER_NAMES)
def test_item_24_meaningful_spellings_come_back_or_are_reported(
    source: str, marker: str, payload: dict[str, Any], via: str
) -> None:
    """A marker declared meaningful: at home the payload comes back exactly and nothing
    is reported; through any other provider it comes back, or a loss names it."""
    assert marker in meaningful_markers(source)
    sent = _markers(chatcodec.decode_request(source, payload))[marker]
    assert sent >= 1
    back, losses = _there_and_back(payload, source, via)
    if via == source:
        assert (back, losses) == (payload, [])
    else:  # each one that does not come back is reported once, where it was
        came_back = _markers(chatcodec.decode_request(source, back))[marker]
        reported = sum(f" spelling {marker}" in loss.what for loss in losses)
        assert came_back + reported == sent, losses


def _markers(request: chatcodec.ChatRequest) -> Counter[str]:
    """How many bags of ``request`` hold each marker (with a value: ``null`` is no spelling)."""
    found: Counter[str] = Counter()
    pending: list[object] = [request.model_dump(mode="json")]
    while pending:
        value = pending.pop()
        if isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, dict):
            for key in ("provider_metadata", "provider_options"):
                bags = value.get(key)
                if isinstance(bags, dict):
                    found.update(
                        k for bag in bags.values() for k, v in bag.items() if k[:1] == "_" != k[1:2] and v is not None
                    )
            pending.extend(value.values())
    return found


def test_every_meaningful_marker_has_a_payload() -> None:
    declared = {(name, marker) for name in PROVIDER_NAMES for marker in meaningful_markers(name)}
    assert declared == {(source, marker) for source, marker, _ in MEANINGFUL}


_CUSTOM_CALL_RESPONSE = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1,
    "model": "m",
    "status": "completed",
    "output": [
        {"type": "custom_tool_call", "id": "ctc_1", "call_id": "c1", "name": "f", "input": "raw", "status": "completed"}
    ],
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
}


@pytest.mark.parametrize("target", PROVIDER_NAMES)
def test_item_24_meaningful_spellings_in_a_response_are_reported_too(target: str) -> None:
    """The rule is the kit's, so response encoders follow it as request encoders do."""
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_response(
        _CUSTOM_CALL_RESPONSE, source="openai-responses", target=target, on_loss="ignore", losses=losses
    )
    spelling = [loss for loss in losses if " spelling " in loss.what]
    if target == "openai-responses":
        assert (converted, losses) == (_CUSTOM_CALL_RESPONSE, [])
    else:
        assert [loss.what for loss in spelling] == ["openai-responses spelling _custom=true"]
