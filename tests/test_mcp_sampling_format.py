"""The built-in ``mcp-sampling`` format (``_frameworks/mcp_sampling``): the spec's examples
converted to the providers and back, the whole JSON-RPC messages around its bodies, the MCP
Python SDK's own checks as the oracle of what it writes (``mcp`` 2.3.0), detection by
``validate``, and ``chatcodec serve --api mcp-sampling``. The laws run in
``tests/test_mcp_sampling_laws.py``."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp.server.validation import validate_tool_use_result_messages
from mcp.types import CreateMessageRequestParams

import chatcodec
from chatcodec.cli import main
from mcp_sampling_oracle import FIXTURES, check_request, check_response

ROOT = Path(__file__).resolve().parents[1]


def _load(kind: str, name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / kind / name).read_text(encoding="utf-8"))
    return loaded


def test_the_spec_request_converts_to_anthropic_with_its_hint_as_the_model() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        converted = chatcodec.convert_request(
            _load("request", "spec_basic_text.json"), source="mcp-sampling", target="anthropic"
        )
    assert converted["system"] == "You are a helpful assistant."
    assert converted["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "What is the capital of France?"}]}
    ]
    assert converted["max_tokens"] == 100
    assert converted["model"] == "claude-3-sonnet"  # the spec's model hint
    reported = "\n".join(str(warning.message) for warning in caught)
    assert "modelPreferences" in reported  # the priorities have no Anthropic field: reported


def test_the_spec_tool_loop_goes_to_openai_chat_and_back() -> None:
    body = _load("request", "spec_tool_results.json")
    openai = chatcodec.convert_request(body, source="mcp-sampling", target="openai-chat", options={"model": "gpt-5"})
    assert [message["role"] for message in openai["messages"]] == ["user", "assistant", "tool", "tool"]
    assert [call["id"] for call in openai["messages"][1]["tool_calls"]] == ["call_abc123", "call_def456"]
    back = chatcodec.convert_request(openai, source="openai-chat", target="mcp-sampling", on_loss="ignore")
    assert back["messages"] == body["messages"]
    check_request(back)
    validate_tool_use_result_messages(CreateMessageRequestParams.model_validate(back).messages)


def test_an_anthropic_answer_becomes_the_spec_tool_use_result() -> None:
    answer = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-3-sonnet-20240307",
        "content": [
            {"type": "tool_use", "id": "call_abc123", "name": "get_weather", "input": {"city": "Paris"}},
            {"type": "tool_use", "id": "call_def456", "name": "get_weather", "input": {"city": "London"}},
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 0, "output_tokens": 0},
    }
    losses: list[chatcodec.Loss] = []
    result = chatcodec.convert_response(
        answer, source="anthropic", target="mcp-sampling", on_loss="ignore", losses=losses
    )
    assert result == _load("response", "spec_tool_use.json")
    assert [loss.what for loss in losses] == ["response id"]  # MCP sampling results have no id


def test_a_call_shaped_block_inside_a_tool_result_is_kept_whole() -> None:
    """A tool result's content holds ``ContentBlock``s: a ``tool_use`` block there is no call,
    kept whole and written back as it came (random draws of the refusal law once read it as
    a call, and it failed on its missing ``id`` with a KeyError)."""
    body = _load("request", "spec_tool_results.json")
    body["messages"][2]["content"][0]["content"][0] = {"type": "tool_use", "text": "Weather in Paris"}
    assert chatcodec.convert_request(body, source="mcp-sampling", target="mcp-sampling") == body


def test_a_json_rpc_request_reads_as_its_params_and_is_written_back_whole() -> None:
    message = _load("request", "spec_jsonrpc_basic_text.json")
    assert chatcodec.decode_request("mcp-sampling", message).messages == (
        chatcodec.decode_request("mcp-sampling", message["params"]).messages
    )
    assert chatcodec.convert_request(message, source="mcp-sampling", target="mcp-sampling") == message
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(message, source="mcp-sampling", target="anthropic", on_loss="ignore", losses=losses)
    assert any("jsonrpc" in loss.what for loss in losses)  # the request id has no Anthropic field: reported


def test_a_problem_inside_a_json_rpc_request_is_named_at_its_place_in_the_message() -> None:
    message = _load("request", "spec_jsonrpc_basic_text.json")
    message["params"]["messages"][0]["content"]["type"] = "video"
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request("mcp-sampling", message)
    assert raised.value.paths[0] == "$.params.messages[0].content"
    message["method"] = "elicitation/create"
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request("mcp-sampling", message)
    assert raised.value.paths[0] == "$.method"
    del message["method"]
    message["params"] = "not params"
    with pytest.raises(chatcodec.ValidationError):  # no method: read as params, which it is not
        chatcodec.decode_request("mcp-sampling", message)


def test_a_json_rpc_response_reads_as_its_result_and_its_error_as_the_clients_refusal() -> None:
    message = _load("response", "spec_jsonrpc_tool_use.json")
    assert chatcodec.convert_response(message, source="mcp-sampling", target="mcp-sampling") == message
    check_response(message)
    with pytest.raises(chatcodec.ProviderAPIError) as refused:
        chatcodec.decode_response("mcp-sampling", _load("response", "error_jsonrpc_user_rejected.json"))
    assert refused.value.message == "User rejected sampling request"


def test_the_sdk_tests_tool_result_without_content_is_read_and_written_back_without() -> None:
    """python-sdk's ``test_validation.py`` builds ``ToolResultContent(tool_use_id=...)`` with no
    content (its default ``[]``): read as a result of nothing, written back as it came, and
    the SDK's own structure check takes what chatcodec writes from Anthropic's form of it."""
    body = _load("request", "sdk_validation_tool_loop.json")
    assert chatcodec.convert_request(body, source="mcp-sampling", target="mcp-sampling") == body
    anthropic = chatcodec.convert_request(body, source="mcp-sampling", target="anthropic", options={"model": "m"})
    assert anthropic["messages"][1]["content"] == [{"type": "tool_result", "tool_use_id": "tool-1", "content": []}]
    written = chatcodec.convert_request(anthropic, source="anthropic", target="mcp-sampling", on_loss="ignore")
    check_request(written)
    validate_tool_use_result_messages(CreateMessageRequestParams.model_validate(written).messages)


def test_every_recorded_body_of_a_built_in_converts_to_a_body_the_sdk_takes() -> None:
    """The built-in providers' recordings (tests/fixtures), converted to MCP sampling: each
    result passes the SDK's types, whatever was lost."""
    converted = 0
    failed: list[str] = []
    for provider in chatcodec.PROVIDER_NAMES:
        for kind, convert, check in (
            ("request", chatcodec.convert_request, check_request),
            ("response", chatcodec.convert_response, check_response),
        ):
            for path in sorted((ROOT / "tests" / "fixtures" / provider / kind).glob("*.json")):
                if path.name.startswith("error_"):
                    continue
                body = json.loads(path.read_text(encoding="utf-8"))
                try:
                    check(convert(body, source=provider, target="mcp-sampling", on_loss="ignore"))
                except Exception as error:
                    failed.append(f"{path.name}: {type(error).__name__}: {error}")
                converted += 1
    assert failed == []
    assert converted >= 100


@pytest.mark.parametrize(
    ("kind", "name"),
    [
        ("request", "spec_jsonrpc_basic_text.json"),
        ("request", "spec_tool_results.json"),
        ("request", "schema_settings.json"),
        ("response", "spec_tool_use.json"),
        ("response", "spec_jsonrpc_text_end_turn.json"),
    ],
)
def test_validate_finds_mcp_sampling_without_a_format(kind: str, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A sampling request (the JSON-RPC message, or params with a top-level ``maxTokens``) or a
    result (``stopReason`` beside ``role`` and ``content``) is unmistakable: ``validate`` reads
    it as MCP sampling with no ``--format``, and says the same with it."""
    path = FIXTURES / kind / name
    assert main(["validate", str(path)]) == 0
    detected = capsys.readouterr().out
    assert main(["validate", "--format", "mcp-sampling", str(path)]) == 0
    assert capsys.readouterr().out == detected
    assert ": ok, " in detected
    assert ("messages (1 assistant)" in detected) == (kind == "response")


def test_validate_refuses_a_broken_sampling_request_at_its_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    message = _load("request", "spec_jsonrpc_basic_text.json")
    message["params"]["messages"][0]["role"] = "system"
    path = tmp_path / "request.json"
    path.write_text(json.dumps(message), encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    assert "$.params.messages[0].role" in capsys.readouterr().err


_ANSWERS: dict[str, dict[str, Any]] = {
    "anthropic": {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-3-sonnet-20240307",
        "content": [{"type": "text", "text": "The capital of France is Paris."}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 20, "output_tokens": 8},
    },
    "openai-chat": {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "claude-3-sonnet-20240307",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "The capital of France is Paris."},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 20, "completion_tokens": 8, "total_tokens": 28},
    },
}
"""The upstream's answer to the spec's basic request, as each API writes it (Anthropic's
Messages API reference, OpenAI's chat completion object)."""


@pytest.mark.parametrize("upstream", sorted(_ANSWERS))
def test_serve_offers_mcp_sampling(upstream: str) -> None:
    """The spec's basic request posted to ``/sampling/createMessage`` reaches the upstream in
    its API (model from the first hint, via ``model_map``), and the answer comes back as the
    spec's ``CreateMessageResult``."""
    from chatcodec.serve import ServeConfig, create_app

    sent: list[dict[str, Any]] = []

    def reply(request: httpx.Request) -> httpx.Response:
        sent.append({"url": str(request.url), "body": json.loads(request.content)})
        return httpx.Response(200, json=_ANSWERS[upstream])

    async def run() -> httpx.Response:
        config = ServeConfig(
            api="mcp-sampling",
            upstream=upstream,
            upstream_url="http://upstream.test",
            model_map={"claude-3-sonnet": "claude-3-sonnet-20240307"},
            allow_anonymous=True,
        )
        async with httpx.AsyncClient(transport=httpx.MockTransport(reply)) as client:
            app = create_app(config, client=client)
            async with app.router.lifespan_context(app):
                transport = httpx.ASGITransport(app=app)
                async with httpx.AsyncClient(transport=transport, base_url="http://serve") as caller:
                    return await caller.post("/sampling/createMessage", json=_load("request", "spec_basic_text.json"))

    result = anyio.run(run)
    assert result.status_code == 200, result.text
    assert result.json() == _load("response", "spec_text_end_turn.json")
    [call] = sent
    assert call["body"]["model"] == "claude-3-sonnet-20240307"
    assert call["body"]["max_tokens" if upstream == "anthropic" else "max_completion_tokens"] == 100
    if upstream == "anthropic":
        assert call["url"] == "http://upstream.test/v1/messages"
        assert call["body"]["system"] == "You are a helpful assistant."
    else:
        assert call["url"] == "http://upstream.test/chat/completions"
        assert call["body"]["messages"][0] == {"role": "system", "content": "You are a helpful assistant."}


def test_mcp_names_the_built_in_format(capsys: pytest.CaptureFixture[str]) -> None:
    """``chatcodec formats`` lists it with the framework formats, and ``--from mcp`` says which
    format the name means."""
    assert main(["formats"]) == 0
    assert "mcp-sampling" in capsys.readouterr().out
    assert "mcp-sampling" in chatcodec.available_formats()
    assert "mcp-sampling" not in chatcodec.registered_providers()  # an agent protocol, as a2a is


def test_convert_without_from_reads_a_sampling_request_as_mcp_sampling(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "openai.json"
    path = FIXTURES / "request" / "spec_jsonrpc_basic_text.json"
    assert main(["convert", str(path), "--to", "openai-chat", "--option", "model=gpt-5", "--out", str(out)]) == 0
    assert "read as mcp-sampling" in capsys.readouterr().err
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["messages"][0] == {"role": "system", "content": "You are a helpful assistant."}


def test_max_tokens_zero_is_refused_at_its_wire_path() -> None:
    """Found by the fuzz run: ``maxTokens: 0`` passed the wire reader and the canonical model
    refused it at ``$.max_tokens``, a path the body does not have."""
    body = _load("request", "spec_basic_text.json")
    body["maxTokens"] = 0
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request("mcp-sampling", body)
    assert raised.value.paths == ["$.maxTokens"]
    message = _load("request", "spec_jsonrpc_basic_text.json")
    message["params"]["maxTokens"] = 0
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request("mcp-sampling", message)
    assert raised.value.paths == ["$.params.maxTokens"]


@pytest.mark.parametrize(
    ("role", "content", "path", "rule"),
    [
        # python-sdk tests/server/test_validation.py: "tool_result mixed with other content"
        (
            "user",
            [{"type": "tool_result", "toolUseId": "123"}, {"type": "text", "text": "also this"}],
            "$.messages[0].content[0]",
            "mixed_tool_results",
        ),
        ("user", {"type": "tool_use", "id": "tool-1", "name": "test", "input": {}}, "$.messages[0].content", None),
        ("assistant", [{"type": "tool_result", "toolUseId": "tool-1"}], "$.messages[0].content[0]", None),
    ],
)
def test_a_block_its_turn_cannot_hold_is_refused_at_its_place(
    role: str, content: object, path: str, rule: str | None
) -> None:
    """The spec's turn rules (and the SDK's ``validate_tool_use_result_messages``): a call in a
    user turn, a result in an assistant turn or beside other blocks is refused where it stands
    in the body, not where the canonical model would put it (random law draws found a single
    block refused at ``content[0]``, a path the body lacks)."""
    body = {"messages": [{"role": role, "content": content}], "maxTokens": 100}
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request("mcp-sampling", body)
    assert raised.value.paths[0] == path
    assert raised.value.errors()[0]["type"] == (rule or "misplaced_block")
