"""``chatcodec serve --api anthropic --upstream anthropic --option server=...`` in front of
the servers that speak Anthropic's Messages API for a local model (Ollama, llama.cpp's
llama-server, vLLM, SGLang, LM Studio) and of Bedrock's Mantle endpoint (issue 77): the
upstream receives what that server documents, and the option comes from the command line
as an operator types it, or from the URL.

The rows checked here come from each server's page or source, as restated in
``tests/providers/anthropic/test_local_servers.py`` (which checks every row of each).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from chatcodec.serve import ServeConfig
from serve.harness import FakeUpstream, fixture_json, proxy, serving_fake

MARKER = {"type": "ephemeral"}
BASH = {"name": "Bash", "description": "Run a command", "input_schema": {"type": "object"}, "cache_control": MARKER}


def claude_code_request(model: str) -> dict[str, Any]:
    """A request as Claude Code sends it: cached system and tools, adaptive thinking at an
    effort, its sampling, a server tool beside its own, and a tool loop under way."""
    return {
        "model": model,
        "max_tokens": 4096,
        "temperature": 0.7,
        "system": [{"type": "text", "text": "You are Claude Code.", "cache_control": MARKER}],
        "thinking": {"type": "adaptive"},
        "output_config": {"effort": "high"},
        "tools": [BASH, {"type": "web_search_20250305", "name": "web_search", "max_uses": 3}],
        "tool_choice": {"type": "tool", "name": "Bash"},
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is in this PDF?", "cache_control": MARKER},
                    {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "notes"}},
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "List the files first.", "signature": "c2ln"},
                    {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}},
                ],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.pdf"}]},
        ],
    }


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


def sent_through(fake: FakeUpstream, server: str, model: str, version: str) -> dict[str, Any]:
    """What the upstream received for a Claude Code request through ``serve --option server=...``."""
    with proxy("anthropic", "anthropic", fake.base, options={"server": server}) as origin:
        fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
        answer = httpx.post(
            f"{origin}/v1/messages",
            json=claude_code_request(model),
            headers={"x-api-key": "k", "anthropic-version": version},
            timeout=30,
        )
        assert answer.status_code == 200, answer.text
    assert fake.last.path == "/v1/messages"
    return fake.last.body


def cache_markers(body: dict[str, Any]) -> list[object]:
    places = [*body.get("system", ()), *body.get("tools", ())]
    places += [block for message in body["messages"] for block in message["content"]]
    return [block["cache_control"] for block in places if "cache_control" in block]


def block_types(body: dict[str, Any]) -> list[list[str]]:
    return [[block["type"] for block in message["content"]] for message in body["messages"]]


LOCAL = "qwen3-coder"
NEW = "2026-10-21"  # what current SDKs and Claude Code send


def test_ollama_gets_its_sampling_and_no_field_it_ignores(fake: FakeUpstream) -> None:
    """docs.ollama.com/api/anthropic-compatibility: temperature supported; tool_choice, prompt
    caching and PDF documents not; output_config.effort read (anthropic.go)."""
    sent = sent_through(fake, "ollama", LOCAL, NEW)
    assert sent["temperature"] == 0.7
    assert "tool_choice" not in sent
    assert cache_markers(sent) == []
    assert block_types(sent)[0] == ["text"]
    assert "thinking" not in sent
    assert sent["output_config"] == {"effort": "high"}
    assert [tool["name"] for tool in sent["tools"]] == ["Bash", "web_search"]  # Ollama runs web_search itself


def test_llama_server_gets_any_over_the_named_tool_and_enabled_thinking(fake: FakeUpstream) -> None:
    """llama.cpp's server-chat.cpp: tool_choice tool becomes any tool, thinking enabled is
    its budget, a document is skipped; its README lists no output_config."""
    sent = sent_through(fake, "llama-cpp", LOCAL, NEW)
    assert sent["temperature"] == 0.7
    assert sent["tool_choice"] == {"type": "any"}
    assert [tool["name"] for tool in sent["tools"]] == ["Bash"]
    assert sent["thinking"] == {"type": "enabled"}
    assert "output_config" not in sent
    assert cache_markers(sent) == []
    assert block_types(sent)[0] == ["text"]


def test_vllm_gets_its_request_model_and_no_thinking_field(fake: FakeUpstream) -> None:
    """vllm/entrypoints/anthropic/protocol.py: tool_choice tool and output_config taken, no
    thinking field, a document block is a 400, a server tool too."""
    sent = sent_through(fake, "vllm", LOCAL, NEW)
    assert sent["temperature"] == 0.7
    assert sent["tool_choice"] == {"type": "tool", "name": "Bash"}
    assert "thinking" not in sent
    assert sent["output_config"] == {"effort": "high"}
    assert [tool["name"] for tool in sent["tools"]] == ["Bash"]
    assert block_types(sent) == [["text"], ["thinking", "tool_use"], ["tool_result"]]


def test_sglang_gets_adaptive_thinking_and_only_its_block_types(fake: FakeUpstream) -> None:
    """sglang's anthropic protocol.py and request_conversion.py: thinking and output_config.effort
    read, no document block, no server tool."""
    sent = sent_through(fake, "sglang", LOCAL, NEW)
    assert sent["temperature"] == 0.7
    assert sent["thinking"] == {"type": "adaptive"}
    assert [tool["name"] for tool in sent["tools"]] == ["Bash"]
    assert block_types(sent)[0] == ["text"]
    assert cache_markers(sent) == []


def test_lm_studio_gets_the_apis_fields_less_server_tools(fake: FakeUpstream) -> None:
    """lmstudio.ai/docs/developer/rest: /v1/messages runs custom tools, no remote MCPs; it
    publishes no field list, so the rest goes as the API has it."""
    sent = sent_through(fake, "lmstudio", LOCAL, NEW)
    assert sent["temperature"] == 0.7
    assert [tool["name"] for tool in sent["tools"]] == ["Bash"]
    assert len(cache_markers(sent)) == 3
    assert block_types(sent)[0] == ["text", "document"]


def test_bedrock_mantle_gets_claudes_rules(fake: FakeUpstream) -> None:
    """Bedrock's Mantle endpoint runs Claude: a Claude model's rules hold there (Opus 4.7+
    takes no temperature), under the version its page requires, 2023-06-01."""
    opus = sent_through(fake, "bedrock-mantle", "anthropic.claude-opus-4-7", "2023-06-01")
    assert "temperature" not in opus
    assert fake.last.headers["anthropic-version"] == "2023-06-01"
    sonnet = sent_through(fake, "bedrock-mantle", "anthropic.claude-sonnet-4-5-20250929-v1:0", "2023-06-01")
    assert sonnet["temperature"] == 0.7
    assert len(cache_markers(sonnet)) == 3  # Claude's prompt caching
    assert [tool["name"] for tool in sonnet["tools"]] == ["Bash", "web_search"]


@pytest.mark.parametrize("server", ["ollama", "llama-cpp", "vllm", "sglang", "lmstudio", "bedrock-mantle"])
def test_the_command_line_option_names_the_server(server: str) -> None:
    """``chatcodec serve --api anthropic --upstream anthropic --option server=NAME``, parsed as
    ``main()`` parses it, gives the upstream writer that server."""
    from chatcodec.cli._commands import _parser  # the parser main() uses
    from chatcodec.cli._serve import settings_from
    from chatcodec.serve import _config as config_module

    arguments = _parser().parse_args(
        [
            "serve",
            "--api",
            "anthropic",
            "--upstream",
            "anthropic",
            "--upstream-url",
            "http://127.0.0.1:8000",
            "--option",
            f"server={server}",
        ]
    )
    config = ServeConfig(**settings_from(arguments, config_module))
    assert config.writer_options() == {"server": server}


@pytest.mark.parametrize(
    ("url", "server"),
    [
        ("http://localhost:11434", "ollama"),
        ("https://ollama.com", "ollama"),
        ("http://localhost:1234", "lmstudio"),
        ("https://bedrock-mantle.us-west-2.api.aws/anthropic", "bedrock-mantle"),
        ("http://localhost:8000", None),  # vLLM's default port is anyone's: by option only
    ],
)
def test_the_upstream_url_names_the_server(url: str, server: str | None) -> None:
    config = ServeConfig(api="anthropic", upstream="anthropic", upstream_url=url)
    assert config.writer_options() == ({"server": server} if server else {})


def test_an_unknown_server_is_refused_at_the_first_request_with_the_known_ones(fake: FakeUpstream) -> None:
    with proxy("anthropic", "anthropic", fake.base, options={"server": "llamacpp"}) as origin:
        answer = httpx.post(
            f"{origin}/v1/messages",
            json=claude_code_request(LOCAL),
            headers={"x-api-key": "k", "anthropic-version": NEW},
            timeout=30,
        )
    assert answer.status_code == 400
    assert "llama-cpp" in answer.text
    assert "bedrock-mantle" in answer.text
