"""The servers that speak Anthropic's Messages API in front of a local model (Ollama,
llama.cpp's llama-server, vLLM, SGLang, LM Studio) and Bedrock's Mantle endpoint, checked
row by row against what each documents (issue 77).

Each :class:`Row` restates one row of a server's compatibility page, or one line of its
source where the page says nothing, with where it says so; the test writes a body with
``options={"server": ...}`` and checks what that row says is sent, not sent, or sent
otherwise, and that every change is a ``rule`` loss naming the server. The sources:

- Ollama: https://docs.ollama.com/api/anthropic-compatibility ("Supported request fields",
  "Differences from the Anthropic API"); ``anthropic/anthropic.go`` (``FromMessagesRequest``).
- llama.cpp: ``tools/server/README.md`` ("POST /v1/messages"); ``tools/server/server-chat.cpp``
  (``server_chat_convert_anthropic_to_oai``).
- vLLM: ``vllm/entrypoints/anthropic/protocol.py`` (``AnthropicMessagesRequest``,
  ``AnthropicContentBlock``), ``serving.py``; ``sampling_params.py`` for ranges.
- SGLang: ``python/sglang/srt/entrypoints/anthropic/protocol.py``, ``request_conversion.py``.
- LM Studio: https://lmstudio.ai/docs/developer/rest ("Inference endpoint comparison").
- Bedrock Mantle: https://docs.aws.amazon.com/bedrock/latest/userguide/inference-messages-api.html.

Every written body is also checked against the Anthropic SDK's request type (anthropic
2.12), less what its 2026-10-21 types no longer hold (the sampling settings of 2023-06-01,
which these servers take).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming, MessageCreateParamsStreaming

import chatcodec
from chatcodec._providers.anthropic.servers import SERVERS, server_for_url
from chatcodec._providers.anthropic.servers.fitting import ALWAYS, places
from sdk_oracle import check

OLLAMA = "https://docs.ollama.com/api/anthropic-compatibility"
OLLAMA_GO = "https://github.com/ollama/ollama/blob/main/anthropic/anthropic.go"
LLAMA_README = "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md"
LLAMA_CHAT = "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/server-chat.cpp"
VLLM = "https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/anthropic/protocol.py"
SGLANG = "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/entrypoints/anthropic/protocol.py"
SGLANG_CONVERSION = (
    "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/entrypoints/anthropic/request_conversion.py"
)
LMSTUDIO = "https://lmstudio.ai/docs/developer/rest"
MANTLE = "https://docs.aws.amazon.com/bedrock/latest/userguide/inference-messages-api.html"

MARKER = {"type": "ephemeral"}
TOOL = {"name": "Bash", "description": "Run a command", "input_schema": {"type": "object"}}
READ = {"name": "Read", "input_schema": {"type": "object"}}
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search", "max_uses": 2}
PNG = "iVBORw0KGgo="


def user(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}


def assistant(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": list(blocks)}


def text(value: str, **more: Any) -> dict[str, Any]:
    return {"type": "text", "text": value, **more}


def image(source_type: str) -> dict[str, Any]:
    if source_type == "url":
        return {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}}
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}


DOCUMENT = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0="}}
THINKING = {"type": "thinking", "thinking": "Look it up.", "signature": "c2ln"}
REDACTED = {"type": "redacted_thinking", "data": "ZW5jcnlwdGVk"}
CALL = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}
RESULT = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.txt"}

TOOL_LOOP = [user(text("List the files.")), assistant(THINKING, CALL), user(RESULT)]
"""A Claude Code turn: the model thought, called a tool, and its result came back."""


@dataclass(frozen=True)
class Row:
    """One documented row: a body (the fields over a plain request) and what is written."""

    server: str
    says: str
    """What the row says, as the page or source says it."""
    source: str
    body: dict[str, Any]
    sent: dict[str, Any] = field(default_factory=lambda: {})
    """Paths (``messages.0.content.1.type``) and the value written there."""
    gone: tuple[str, ...] = ()
    """Paths that must not be written."""
    reported: frozenset[str] = frozenset()
    """The ``rule`` losses' paths, exactly."""

    @property
    def id(self) -> str:
        return f"{self.server}: {self.says}"


def rows(
    server: str, source: str, *items: tuple[str, dict[str, Any], dict[str, Any], tuple[str, ...], set[str]]
) -> list[Row]:
    return [
        Row(server, says, source, body, sent, gone, frozenset(reported)) for says, body, sent, gone, reported in items
    ]


SAMPLING = {"temperature": 0.2, "top_p": 0.9, "top_k": 40}

ROWS = [
    *rows(
        "ollama",
        OLLAMA,
        ("temperature, top_p, top_k: supported", SAMPLING, SAMPLING, (), set()),
        (
            "stop_sequences, system (string or array), stream: supported",
            {"stop_sequences": ["END"], "system": [text("Be brief.")], "stream": True},
            {"stop_sequences": ["END"], "system.0.text": "Be brief.", "stream": True},
            (),
            set(),
        ),
        (
            "tools: supported; tool_choice: not supported",
            {"tools": [TOOL], "tool_choice": {"type": "any"}},
            {"tools.0.name": "Bash"},
            ("tool_choice",),
            {"$.tool_choice"},
        ),
        (
            "tool_choice none (not supported): no tool may be called, so none is offered",
            {"tools": [TOOL], "tool_choice": {"type": "none"}},
            {},
            ("tools", "tool_choice"),
            {"$.tools"},
        ),
        ("metadata: not supported", {"metadata": {"user_id": "u-1"}}, {}, ("metadata",), {"$.metadata"}),
        (
            "prompt caching (cache_control): not supported",
            {
                "system": [text("Be brief.", cache_control=MARKER)],
                "tools": [{**TOOL, "cache_control": MARKER}],
                "messages": [user(text("Hi", cache_control=MARKER))],
            },
            {"system.0.text": "Be brief."},
            ("system.0.cache_control", "tools.0.cache_control", "messages.0.content.0.cache_control"),
            {"$.system[0].cache_control", "$.tools[0].cache_control", "$.messages[0].content[0].cache_control"},
        ),
        (
            "PDF support (document blocks): not supported",
            {"messages": [user(text("Summarize."), DOCUMENT)]},
            {"messages.0.content.0.text": "Summarize."},
            ("messages.0.content.1",),
            {"$.messages[0].content[1]"},
        ),
        (
            "image content: base64 images supported; URL images not supported",
            {"messages": [user(text("Compare."), image("base64"), image("url"))]},
            {"messages.0.content.1.source.type": "base64"},
            ("messages.0.content.2",),
            {"$.messages[0].content[2]"},
        ),
        (
            "tool_use, tool_result and thinking blocks: supported",
            {"messages": TOOL_LOOP, "tools": [TOOL]},
            {
                "messages.1.content.0.type": "thinking",
                "messages.1.content.1.type": "tool_use",
                "messages.2.content.0.type": "tool_result",
            },
            (),
            set(),
        ),
        (
            "extended thinking: budget_tokens accepted but not enforced",
            {"thinking": {"type": "enabled", "budget_tokens": 2048}},
            {"thinking": {"type": "enabled"}},
            (),
            {"$.thinking.budget_tokens"},
        ),
    ),
    *rows(
        "ollama",
        OLLAMA_GO,
        (
            "output_config.effort is read where thinking is not enabled or disabled",
            {"thinking": {"type": "adaptive"}, "output_config": {"effort": "high"}},
            {"output_config": {"effort": "high"}},
            ("thinking",),
            {"$.thinking"},
        ),
        (
            "thinking adaptive is not read: enabled is",
            {"thinking": {"type": "adaptive"}},
            {"thinking": {"type": "enabled"}},
            (),
            {"$.thinking"},
        ),
        (
            "a web_search tool runs Ollama's own web search",
            {"tools": [TOOL, WEB_SEARCH]},
            {"tools.1.type": "web_search_20250305"},
            (),
            set(),
        ),
        (
            "a tool_result image by URL is refused too (convertToolResultContent)",
            {
                "tools": [TOOL],
                "messages": [
                    *TOOL_LOOP[:2],
                    user({**RESULT, "content": [text("shot:"), image("url"), image("base64")]}),
                ],
            },
            {"messages.2.content.0.content": [text("shot:"), image("base64")]},
            (),
            {"$.messages[2].content[0].content[1]"},
        ),
    ),
    *rows(
        "llama-cpp",
        LLAMA_README,
        (
            "temperature, top_p, top_k, stop_sequences, stream: listed",
            {**SAMPLING, "stop_sequences": ["END"], "stream": True},
            {**SAMPLING, "stop_sequences": ["END"], "stream": True},
            (),
            set(),
        ),
        (
            "tools (with --jinja), tool_choice auto and any: listed",
            {"tools": [TOOL], "tool_choice": {"type": "any"}},
            {"tool_choice": {"type": "any"}, "tools.0.name": "Bash"},
            (),
            set(),
        ),
        ("metadata: not listed", {"metadata": {"user_id": "u-1"}}, {}, ("metadata",), {"$.metadata"}),
    ),
    *rows(
        "llama-cpp",
        LLAMA_CHAT,
        (
            "tool_choice tool becomes 'required' (any tool): sent as any over the named tool alone",
            {"tools": [TOOL, READ], "tool_choice": {"type": "tool", "name": "Read"}},
            {"tool_choice": {"type": "any"}, "tools": [READ]},
            (),
            {"$.tool_choice"},
        ),
        (
            "tool_choice none is ignored: no tool is offered",
            {"tools": [TOOL], "tool_choice": {"type": "none"}},
            {},
            ("tools", "tool_choice"),
            {"$.tools"},
        ),
        (
            "disable_parallel_tool_use is not read",
            {"tools": [TOOL], "tool_choice": {"type": "auto", "disable_parallel_tool_use": True}},
            {"tool_choice": {"type": "auto"}},
            ("tool_choice.disable_parallel_tool_use",),
            {"$.tool_choice.disable_parallel_tool_use"},
        ),
        (
            "thinking enabled becomes its thinking budget",
            {"thinking": {"type": "enabled", "budget_tokens": 4096}},
            {"thinking": {"type": "enabled", "budget_tokens": 4096}},
            (),
            set(),
        ),
        (
            "thinking adaptive is not read: enabled is",
            {"thinking": {"type": "adaptive"}},
            {"thinking": {"type": "enabled"}},
            (),
            {"$.thinking"},
        ),
        ("thinking disabled is not read", {"thinking": {"type": "disabled"}}, {}, ("thinking",), {"$.thinking"}),
        (
            "images by base64 and by URL are read",
            {"messages": [user(text("Compare."), image("base64"), image("url"))]},
            {"messages.0.content.1.source.type": "base64", "messages.0.content.2.source.type": "url"},
            (),
            set(),
        ),
        (
            "a document or redacted_thinking block is skipped",
            {"messages": [user(text("Read."), DOCUMENT), assistant(REDACTED, text("Done.")), user(text("Thanks."))]},
            {"messages.1.content.0.text": "Done."},
            ("messages.0.content.1",),
            {"$.messages[0].content[1]", "$.messages[1].content[0]"},
        ),
        (
            "every tool becomes a function: a server tool is not run",
            {"tools": [TOOL, WEB_SEARCH]},
            {"tools": [TOOL]},
            (),
            {"$.tools[1]"},
        ),
        (
            "cache_control is not read",
            {"tools": [{**TOOL, "cache_control": MARKER}]},
            {"tools": [TOOL]},
            (),
            {"$.tools[0].cache_control"},
        ),
    ),
    *rows(
        "vllm",
        VLLM,
        (
            "temperature (non-negative, above 1 too), top_p, top_k: taken",
            {"temperature": 1.5, "top_p": 0.9, "top_k": 40},
            {"temperature": 1.5, "top_p": 0.9, "top_k": 40},
            (),
            set(),
        ),
        (
            "tool_choice auto, any, tool, none: taken",
            {"tools": [TOOL, READ], "tool_choice": {"type": "tool", "name": "Read"}},
            {"tool_choice": {"type": "tool", "name": "Read"}, "tools.1.name": "Read"},
            (),
            set(),
        ),
        (
            "tool_choice none: taken",
            {"tools": [TOOL], "tool_choice": {"type": "none"}},
            {"tool_choice": {"type": "none"}, "tools.0.name": "Bash"},
            (),
            set(),
        ),
        (
            "output_config effort and format: taken",
            {"output_config": {"effort": "low", "format": {"type": "json_schema", "schema": {"type": "object"}}}},
            {"output_config.effort": "low", "output_config.format.type": "json_schema"},
            (),
            set(),
        ),
        (
            "thinking: not a field of its request model",
            {"thinking": {"type": "enabled", "budget_tokens": 2048}},
            {},
            ("thinking",),
            {"$.thinking"},
        ),
        ("metadata: taken", {"metadata": {"user_id": "u-1"}}, {"metadata": {"user_id": "u-1"}}, (), set()),
        (
            "content block types: text, image, tool_use, tool_result, thinking (a document is a 400)",
            {"messages": [user(text("Read."), image("url"), DOCUMENT)]},
            {"messages.0.content.1.source.type": "url"},
            ("messages.0.content.2",),
            {"$.messages[0].content[2]"},
        ),
        (
            "redacted_thinking is accepted and skipped",
            {"messages": [user(text("Q")), assistant(REDACTED, text("A")), user(text("Q2"))]},
            {"messages.1.content.0.text": "A"},
            (),
            {"$.messages[1].content[0]"},
        ),
        (
            "a tool needs an input_schema: a server tool is a 400",
            {"tools": [TOOL, WEB_SEARCH]},
            {"tools": [TOOL]},
            (),
            {"$.tools[1]"},
        ),
        (
            "no cache_control on any model",
            {"messages": [user(text("Hi", cache_control=MARKER))]},
            {"messages.0.content.0": text("Hi")},
            (),
            {"$.messages[0].content[0].cache_control"},
        ),
        (
            "disable_parallel_tool_use: not in AnthropicToolChoice",
            {"tools": [TOOL], "tool_choice": {"type": "any", "disable_parallel_tool_use": True}},
            {"tool_choice": {"type": "any"}},
            (),
            {"$.tool_choice.disable_parallel_tool_use"},
        ),
    ),
    *rows(
        "sglang",
        SGLANG,
        (
            "temperature, top_p, top_k, stop_sequences: taken",
            {**SAMPLING, "stop_sequences": ["END"]},
            {**SAMPLING, "stop_sequences": ["END"]},
            (),
            set(),
        ),
        (
            "thinking enabled (budget accepted) and adaptive: taken",
            {"thinking": {"type": "enabled", "budget_tokens": 2048}},
            {"thinking": {"type": "enabled", "budget_tokens": 2048}},
            (),
            set(),
        ),
        (
            "tool_choice auto, any, tool, none: taken",
            {"tools": [TOOL], "tool_choice": {"type": "none"}},
            {"tool_choice": {"type": "none"}, "tools.0.name": "Bash"},
            (),
            set(),
        ),
        (
            "block types: text, image, tool_use, tool_result, thinking, redacted_thinking (a document is a 400)",
            {"messages": [user(text("Read."), image("base64"), DOCUMENT)]},
            {"messages.0.content.1.type": "image"},
            ("messages.0.content.2",),
            {"$.messages[0].content[2]"},
        ),
        (
            "a tool needs an input_schema: a server tool is not run",
            {"tools": [TOOL, WEB_SEARCH]},
            {"tools": [TOOL]},
            (),
            {"$.tools[1]"},
        ),
        (
            "no cache_control on any model",
            {"system": [text("S", cache_control=MARKER)]},
            {"system": [text("S")]},
            (),
            {"$.system[0].cache_control"},
        ),
    ),
    *rows(
        "sglang",
        SGLANG_CONVERSION,
        (
            "output_config.effort maps to reasoning_effort; format is not read",
            {"output_config": {"effort": "max", "format": {"type": "json_schema", "schema": {"type": "object"}}}},
            {"output_config": {"effort": "max"}},
            (),
            {"$.output_config.format"},
        ),
        (
            "a redacted_thinking history is refused ('not supported')",
            {"messages": [user(text("Q")), assistant(REDACTED, text("A")), user(text("Q2"))]},
            {"messages.1.content.0.text": "A"},
            (),
            {"$.messages[1].content[0]"},
        ),
    ),
    *rows(
        "lmstudio",
        LMSTUDIO,
        (
            "/v1/messages: custom tools yes, remote MCPs no",
            {
                "tools": [TOOL, WEB_SEARCH],
                "mcp_servers": [{"type": "url", "url": "https://mcp.example.com", "name": "x"}],
            },
            {"tools": [TOOL]},
            ("mcp_servers",),
            {"$.tools[1]", "$.mcp_servers"},
        ),
        (
            "no field list: the API's fields are sent (the page points to the Messages reference)",
            {
                **SAMPLING,
                "system": [text("S", cache_control=MARKER)],
                "thinking": {"type": "enabled", "budget_tokens": 2048},
            },
            {**SAMPLING, "system.0.cache_control": MARKER, "thinking.budget_tokens": 2048},
            (),
            set(),
        ),
    ),
]


def written_for(server: str, fields: dict[str, Any], **options: Any) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    body = {"model": "qwen3-coder", "max_tokens": 256, "messages": [user(text("Hi"))], **copy.deepcopy(fields)}
    losses: list[chatcodec.Loss] = []
    request = chatcodec.decode_request("anthropic", body)
    named = {"server": server} if server else {}  # "": no server, Anthropic itself
    written = chatcodec.encode_request(
        "anthropic", request, options={**named, **options}, on_loss="ignore", losses=losses
    )
    return written, losses


MISSING = object()


def at(body: object, path: str) -> object:
    """The value at a dotted path (list indexes as numbers), or :data:`MISSING`."""
    node = body
    for step in path.split("."):
        if isinstance(node, list) and step.isdigit() and int(step) < len(node):
            node = node[int(step)]
        elif isinstance(node, dict) and step in node:
            node = node[step]
        else:
            return MISSING
    return node


VERSIONED = ("$.temperature:", "$.top_p:", "$.top_k:", "$.thinking")
"""What the SDK's 2026-10-21 types no longer hold and these servers take (see
``test_servers.py``): the sampling settings of 2023-06-01 and ``thinking`` without a budget."""


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.id)
def test_each_documented_row_is_what_the_writer_sends(row: Row) -> None:
    written, losses = written_for(row.server, row.body)
    for path, value in row.sent.items():
        assert at(written, path) == value, path
    for path in row.gone:
        assert at(written, path) is MISSING, path
    named = {loss.path for loss in losses if loss.kind == "rule" and f"server {row.server} " in loss.why}
    assert named == row.reported
    assert all(loss.kind != "rule" or f"server {row.server} " in loss.why for loss in losses)
    sdk_type = MessageCreateParamsStreaming if written.get("stream") else MessageCreateParamsNonStreaming
    problems = check(written, sdk_type).problems
    assert [problem for problem in problems if not problem.startswith(VERSIONED)] == []


@pytest.mark.parametrize("server", ["ollama", "llama-cpp", "vllm", "sglang", "lmstudio"])
def test_claude_code_in_front_of_a_local_model_keeps_its_sampling(server: str) -> None:
    """Claude Code's SDK sends ``anthropic-version: 2026-10-21``, under which Anthropic's own
    API takes no sampling settings; a local model (``qwen3-coder``) behind the same shape
    takes them, so a body written for its server keeps them and reports nothing of them."""
    written, losses = written_for(server, {"temperature": 0.7, "top_p": 0.8}, api_version="2026-10-21")
    assert (written["temperature"], written["top_p"]) == (0.7, 0.8)
    assert not [loss for loss in losses if loss.path in ("$.temperature", "$.top_p")]
    claude, claude_losses = written_for("", {"temperature": 0.7, "top_p": 0.8}, api_version="2026-10-21")
    assert "temperature" not in claude  # what the same body gets without a server: Anthropic's rules
    assert "$.temperature" in {loss.path for loss in claude_losses}


@pytest.mark.parametrize(
    ("server", "sent"),
    [
        ("vllm", 1.5),  # sampling_params.py: "temperature must be non-negative"
        ("sglang", 1.5),  # sampling_params.html: temperature 0 or more
        ("ollama", 1.5),  # its page lists temperature and no range: none is clamped
        ("llama-cpp", 1.0),  # its README: "temperature: Sampling temperature 0-1"
        ("lmstudio", 1.0),  # no list of its own: the Messages API's range
    ],
)
def test_a_temperature_from_openai_is_held_to_the_servers_own_range(server: str, sent: float) -> None:
    """An OpenAI Chat ``temperature`` of 1.5 (OpenAI's range goes to 2) is sent to a server
    whose range takes it, and brought to 1 where the documented range is the API's."""
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        {"model": "qwen3-coder", "messages": [{"role": "user", "content": "Hi"}], "temperature": 1.5, "max_tokens": 64},
        source="openai-chat",
        target="anthropic",
        options={"server": server},
        losses=losses,
        on_loss="ignore",
    )
    assert body["temperature"] == sent
    assert ({"$.temperature"} if sent != 1.5 else set()) == {loss.path for loss in losses if loss.kind == "rule"}


def test_bedrock_mantle_runs_claude_under_the_version_its_page_requires() -> None:
    """Mantle requires ``anthropic-version: 2023-06-01`` (its page), under which the API takes
    sampling settings, and runs Claude itself: Claude's model rules still apply there
    (Opus 4.7+ refuses a non-default ``temperature``, on Bedrock as on Anthropic's API)."""
    sonnet, sonnet_losses = written_for(
        "bedrock-mantle", {"model": "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "temperature": 0.5}
    )
    assert sonnet["temperature"] == 0.5
    assert sonnet_losses == []
    opus, opus_losses = written_for("bedrock-mantle", {"model": "anthropic.claude-opus-4-7", "temperature": 0.5})
    assert "temperature" not in opus
    assert {loss.path for loss in opus_losses} == {"$.temperature"}
    newer, _ = written_for(
        "bedrock-mantle",
        {"model": "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "temperature": 0.5},
        api_version="2026-10-21",
    )
    assert "temperature" not in newer  # a version the caller names is the one written for


@pytest.mark.parametrize(
    ("url", "server"),
    [
        ("http://localhost:11434", "ollama"),
        ("http://127.0.0.1:11434/", "ollama"),
        ("https://ollama.com", "ollama"),
        ("http://localhost:1234", "lmstudio"),
        ("https://bedrock-mantle.us-east-1.api.aws/anthropic", "bedrock-mantle"),
        ("https://bedrock-mantle.eu-west-1.api.aws/anthropic/", "bedrock-mantle"),
        ("https://bedrock-mantle.us-east-1.api.aws/v1", None),  # its OpenAI-compatible API
        ("https://evil.bedrock-mantle.us-east-1.api.aws/anthropic", None),  # * is one label
        ("http://localhost:8080", None),  # llama-server, vLLM and SGLang have no port of their own
    ],
)
def test_a_base_url_names_the_local_or_bedrock_server(url: str, server: str | None) -> None:
    found = server_for_url(url)
    assert (found.name if found else None) == server


def test_every_server_has_rows_from_its_own_sources() -> None:
    """No server here without a documented row in this file (Mantle's are above)."""
    documented = {row.server for row in ROWS} | {"bedrock-mantle"}
    local = {"ollama", "llama-cpp", "vllm", "sglang", "lmstudio", "bedrock-mantle"}
    assert local <= documented <= set(SERVERS)


FIXTURES = sorted((Path(__file__).parents[2] / "fixtures" / "anthropic" / "request").glob("*.json"))


@pytest.mark.parametrize("server", ["ollama", "llama-cpp", "vllm", "sglang", "lmstudio", "bedrock-mantle"])
def test_every_recorded_request_is_written_for_each_server_with_nothing_it_refuses(server: str) -> None:
    """The recorded Anthropic requests (tests/fixtures/anthropic/request), each written for
    the server: no error, and nothing its record says it ignores, refuses or does not list
    is left in the body."""
    record = SERVERS[server]
    for path in FIXTURES:
        written, _ = written_for(server, json.loads(path.read_text(encoding="utf-8")))
        if record.fields is not None:
            assert set(written) <= record.fields | ALWAYS, path.name
        for refusal in record.refuses:
            assert not list(places(written, refusal.field.split("."), ())), (path.name, refusal.field)
        for message in written["messages"]:
            for block in message["content"] if isinstance(message["content"], list) else ():
                assert record.blocks is None or block["type"] in record.blocks, path.name
                if record.image_sources is not None and block["type"] == "image":
                    assert block["source"]["type"] in record.image_sources, path.name
        for tool in written.get("tools", ()):
            assert record.tool_types is None or tool.get("type", "custom") in record.tool_types, path.name
        choice = written.get("tool_choice")
        assert record.tool_choices is None or choice is None or choice["type"] in record.tool_choices, path.name
        thinking = written.get("thinking")
        assert record.thinking_types is None or thinking is None or thinking["type"] in record.thinking_types, path.name
