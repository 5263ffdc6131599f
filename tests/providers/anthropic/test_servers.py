"""Anthropic-compatible servers as named targets: each server's written body holds only the
fields it documents, and each change is a ``rule`` loss naming the server."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

import chatcodec
from chatcodec._providers.anthropic.servers import SERVERS, server_for_url
from chatcodec._providers.anthropic.servers.fitting import ALWAYS, places
from sdk_oracle import check

TOOL = {"name": "weather", "input_schema": {"type": "object"}, "cache_control": {"type": "ephemeral"}}
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search", "max_uses": 2}

EVERYTHING: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "system": "Be brief.",
    "temperature": 0.5,
    "top_p": 0.9,
    "top_k": 40,
    "stop_sequences": ["END"],
    "metadata": {"user_id": "user-1"},
    "service_tier": "auto",
    "mcp_servers": [{"type": "url", "url": "https://mcp.example.com/sse", "name": "example"}],
    "container": "container_1",
    "context_management": {"edits": [{"type": "clear_tool_uses_20250919"}]},
    "thinking": {"type": "enabled", "budget_tokens": 2048},
    "tools": [TOOL, WEB_SEARCH],
    "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
    "messages": [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Weather in Paris?", "cache_control": {"type": "ephemeral"}},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
                {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "notes"}},
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Look it up.", "signature": "c2ln"},
                {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {"city": "Paris"}},
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny", "is_error": False}],
        },
    ],
}
"""A body using every field the servers differ on."""


def written_for(server: str, body: dict[str, Any]) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    request = chatcodec.decode_request("anthropic", copy.deepcopy(body))
    written = chatcodec.encode_request(
        "anthropic", request, options={"server": server}, on_loss="ignore", losses=losses
    )
    return written, losses


def rule_paths(losses: list[chatcodec.Loss], server: str) -> set[str]:
    """The paths of the ``rule`` losses naming ``server``."""
    return {loss.path for loss in losses if loss.kind == "rule" and f"server {server} " in loss.why}


def assert_documented_only(server: str, written: dict[str, Any]) -> None:
    """Nothing ``server`` ignores or does not list is left in ``written``, and the SDK types
    still accept the rest."""
    record = SERVERS[server]
    if record.fields is not None:
        assert set(written) <= record.fields | ALWAYS
    for refusal in record.refuses:
        assert not list(places(written, refusal.field.split("."), ())), refusal.field
    for message in written["messages"]:
        for block in message["content"] if isinstance(message["content"], list) else ():
            assert record.blocks is None or block["type"] in record.blocks
    for tool in written.get("tools", ()):
        assert record.tool_types is None or tool.get("type", "custom") in record.tool_types
    problems = check(written, MessageCreateParamsNonStreaming).problems
    assert [problem for problem in problems if not problem.startswith(VERSIONED)] == []


VERSIONED = ("$.temperature:", "$.top_p:", "$.top_k:", "$.thinking")
"""What the SDK's 2026-10-21 types do not hold but the servers take: the sampling parameters
of API version 2023-06-01 (which Claude Code sends), and DeepSeek's ``thinking`` without
``budget_tokens``."""


def test_a_deepseek_body_keeps_only_the_fields_its_anthropic_page_lists() -> None:
    written, losses = written_for("deepseek", EVERYTHING)
    assert_documented_only("deepseek", written)
    assert rule_paths(losses, "deepseek") == {
        "$.top_k",
        "$.service_tier",
        "$.mcp_servers",
        "$.container",
        "$.context_management",
        "$.thinking.budget_tokens",
        "$.tools[0].cache_control",
        "$.tools[1]",
        "$.tool_choice.disable_parallel_tool_use",
        "$.messages[0].content[0].cache_control",
        "$.messages[0].content[2]",
        "$.messages[2].content[0].is_error",
    }
    assert written["messages"][0]["content"][1]["type"] == "image"  # DeepSeek reads images
    assert written["thinking"] == {"type": "enabled"}


def test_a_minimax_body_keeps_only_the_parameters_its_table_supports() -> None:
    written, losses = written_for("minimax", EVERYTHING)
    assert_documented_only("minimax", written)
    assert {"$.top_k", "$.stop_sequences", "$.service_tier", "$.messages[0].content[1]"} <= rule_paths(
        losses, "minimax"
    )
    assert [block["type"] for block in written["messages"][0]["content"]] == ["text"]  # no image, no document
    assert written["thinking"] == EVERYTHING["thinking"]


@pytest.mark.parametrize(
    ("temperature", "sent"), [(0, 0.01), (0.0, 0.01), (-0.5, 0.01), (1.5, 1.0), (0.7, 0.7), (1, 1)]
)
def test_a_minimax_temperature_outside_its_range_is_sent_as_the_nearest_it_takes(
    temperature: float, sent: float
) -> None:
    """MiniMax's table: ``temperature`` "(0.0, 1.0]": 0 is outside it (Anthropic's own
    range includes 0), so it is sent as the nearest value inside, reported; a value inside
    goes as it is."""
    body = {
        "model": "MiniMax-M2",
        "max_tokens": 10,
        "temperature": temperature,
        "messages": [{"role": "user", "content": "q"}],
    }
    losses: list[chatcodec.Loss] = []
    written = chatcodec.encode_request(
        "anthropic",
        chatcodec.decode_request("anthropic", body),
        options={"server": "minimax", "api_version": "2023-06-01"},
        on_loss="ignore",
        losses=losses,
    )
    assert written["temperature"] == sent
    assert rule_paths(losses, "minimax") == ({"$.temperature"} if sent != temperature else set())


def test_a_kimi_body_keeps_no_field_only_anthropics_servers_act_on() -> None:
    written, losses = written_for("kimi", EVERYTHING)
    assert_documented_only("kimi", written)
    assert rule_paths(losses, "kimi") == {"$.mcp_servers", "$.container", "$.context_management", "$.tools[1]"}
    assert written["top_k"] == 40  # Kimi publishes no list: the API's other fields are sent


def test_a_zai_body_keeps_no_anthropic_server_tool() -> None:
    written, losses = written_for("zai", EVERYTHING)
    assert_documented_only("zai", written)
    assert rule_paths(losses, "zai") == {"$.mcp_servers", "$.container", "$.context_management", "$.tools[1]"}
    assert [tool["name"] for tool in written["tools"]] == ["weather"]


def test_kimi_gets_no_thinking_when_a_tool_turn_has_no_thinking_block() -> None:
    body = copy.deepcopy(EVERYTHING)
    body["messages"][1]["content"] = body["messages"][1]["content"][1:]  # the call, without its thinking
    written, losses = written_for("kimi", body)
    assert "thinking" not in written
    assert "$.thinking" in rule_paths(losses, "kimi")
    signed, _ = written_for("kimi", EVERYTHING)
    assert signed["thinking"] == EVERYTHING["thinking"]


def test_a_message_left_with_no_block_a_server_takes_says_what_was_not_sent() -> None:
    body = copy.deepcopy(EVERYTHING)
    body["messages"][0]["content"] = body["messages"][0]["content"][1:2]  # only the image
    written, losses = written_for("minimax", body)
    assert written["messages"][0]["content"] == [{"type": "text", "text": "[image not sent]"}]
    assert "$.messages[0].content" in rule_paths(losses, "minimax")


def test_only_anthropic_server_tools_leave_tool_choice_out() -> None:
    body = {**copy.deepcopy(EVERYTHING), "tools": [WEB_SEARCH], "tool_choice": {"type": "any"}}
    written, losses = written_for("zai", body)
    assert "tools" not in written
    assert "tool_choice" not in written
    assert "$.tool_choice" in rule_paths(losses, "zai")


def test_without_a_server_the_body_is_anthropics_unchanged() -> None:
    body = {key: value for key, value in EVERYTHING.items() if key != "top_p"}  # Claude takes one of the two
    request = chatcodec.decode_request("anthropic", copy.deepcopy(body))
    assert chatcodec.encode_request("anthropic", request, on_loss="error") == body


def test_an_unknown_server_is_refused_with_the_known_ones() -> None:
    request = chatcodec.decode_request("anthropic", copy.deepcopy(EVERYTHING))
    with pytest.raises(chatcodec.PayloadError, match="deepseek, kimi, zai, minimax"):
        chatcodec.encode_request("anthropic", request, options={"server": "groq"})


@pytest.mark.parametrize(
    ("url", "server"),
    [
        ("https://api.deepseek.com/anthropic", "deepseek"),
        ("https://api.deepseek.com/anthropic/", "deepseek"),
        ("https://api.moonshot.ai/anthropic", "kimi"),
        ("https://api.moonshot.cn/anthropic", "kimi"),
        ("https://api.kimi.com/coding/", "kimi"),
        ("https://api.z.ai/api/anthropic", "zai"),
        ("https://open.bigmodel.cn/api/anthropic", "zai"),
        ("https://api.minimax.io/anthropic", "minimax"),
        ("https://api.minimaxi.com/anthropic", "minimax"),
        ("https://api.deepseek.com", None),  # its OpenAI-compatible API, not this one
        ("https://api.anthropic.com", None),
        ("https://api.deepseek.com/anthropical", None),
    ],
)
def test_a_base_url_names_its_anthropic_compatible_server(url: str, server: str | None) -> None:
    found = server_for_url(url)
    assert (found.name if found else None) == server
