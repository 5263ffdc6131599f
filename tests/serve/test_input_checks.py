"""``--validate`` (refuse what the front's provider would refuse) apart from the loss
policy (``--on-loss report|error``, ``--allow-loss``): what the official SDKs send passes
validation, and a malformed request is refused in the front's own error shape. A real
server on loopback in front of a fake upstream, driven by the official clients."""

from __future__ import annotations

from typing import Any

import anthropic
import httpx
import openai
import pytest
from google import genai
from google.genai import types

from chatcodec.serve import ServeConfig
from serve.harness import FakeUpstream, fixture_bytes, fixture_json, proxy

SSE = "text/event-stream"
HELLO: list[Any] = [{"role": "user", "content": "Hello"}]
KEY = {"authorization": "Bearer k"}
CHECKED = {"validate": True, "on_loss": "error"}
"""The strictest serving: well-formed input only, and nothing lost on the way."""


pytestmark = pytest.mark.usefixtures("fresh_fake")


def test_a_stream_to_gemini_or_bedrock_is_no_loss_under_the_strictest_serving(fake: FakeUpstream) -> None:
    """The upstream's edge streams by URL (``streamGenerateContent``): the writer's note that
    Gemini's body has no ``stream`` field is not a loss of the server's."""
    with proxy("openai-chat", "gemini", fake.base, strict=True) as origin:
        client = openai.OpenAI(base_url=f"{origin}/v1", api_key="gemini-key", max_retries=0)
        fake.reply(fixture_bytes("gemini", "stream", "text.sse"), content_type=SSE)
        chunks = list(client.chat.completions.create(model="gemini-2.0-flash", messages=HELLO, stream=True))
    assert "".join(chunk.choices[0].delta.content or "" for chunk in chunks).startswith("The")


def test_the_openai_sdk_stream_helper_message_passes_validation(fake: FakeUpstream) -> None:
    """``client.chat.completions.stream(...).get_final_completion()`` answers with a message
    holding ``parsed``, each tool call's ``index`` and ``function.parsed_arguments``; a tool
    loop appends it to the next request as it is."""
    tool = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
    with (
        proxy("openai-chat", "anthropic", fake.base, **CHECKED, allowed_losses=("default", "metadata")) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        fake.reply(fixture_bytes("anthropic", "stream", "tool_use_input_json_delta.sse"), content_type=SSE)
        with client.chat.completions.stream(model="m", messages=HELLO, tools=[tool]) as stream:  # type: ignore[list-item]
            final = stream.get_final_completion()
        message = final.choices[0].message
        assert message.tool_calls
        sent_back = message.model_dump(mode="json")
        assert "parsed" in sent_back
        assert "parsed_arguments" in sent_back["tool_calls"][0]["function"]
        result = {"role": "tool", "tool_call_id": message.tool_calls[0].id, "content": "sunny"}
        fake.reply(fixture_json("anthropic", "response", "cache_read_and_creation_usage.json"))
        answer = client.chat.completions.create(model="m", messages=[*HELLO, sent_back, result], tools=[tool])  # type: ignore[list-item]
    assert answer.choices[0].message.content
    assert fake.last.body["messages"][-1]["content"][0]["type"] == "tool_result"


def test_a_claude_code_request_passes_validation_and_its_losses_are_reported(fake: FakeUpstream) -> None:
    """What Claude Code sends (a system prompt with ``cache_control``, ``metadata.user_id``,
    thinking, tools) is well formed: an OpenAI upstream takes the thinking budget as an
    effort (a loss), and
    ``--validate`` alone reports that instead of refusing the request."""
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 32000,
        "system": [
            {"type": "text", "text": "You are Claude Code.", "cache_control": {"type": "ephemeral"}},
        ],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]}
        ],
        "metadata": {"user_id": "user_abc_account__session_1"},
        "thinking": {"type": "enabled", "budget_tokens": 4000},
        "tools": [{"name": "Bash", "description": "Run a command", "input_schema": {"type": "object"}}],
        "stream": True,
    }
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1", validate=True) as origin:
        fake.reply(fixture_bytes("openai-chat", "stream", "text_with_usage_obfuscation.sse"), content_type=SSE)
        answer = httpx.post(f"{origin}/v1/messages", json=body, headers={"x-api-key": "k"})
    assert answer.status_code == 200
    assert "thinking budget" in answer.headers["chatcodec-losses"]
    assert "event: message_stop" in answer.text


def test_a_google_genai_tool_loop_with_thought_signatures_passes_validation(fake: FakeUpstream) -> None:
    """google-genai sends the model's turn back with its ``thought_signature``: well formed,
    and an Anthropic upstream cannot carry it (a loss the report mode sends on)."""
    with proxy("gemini", "anthropic", fake.base, validate=True) as origin:
        client = genai.Client(api_key="k", http_options=types.HttpOptions(base_url=origin))
        call = types.Part(
            function_call=types.FunctionCall(name="get_weather", args={"city": "Paris"}),
            thought_signature=b"signed-by-gemini",
        )
        contents = [
            types.Content(role="user", parts=[types.Part(text="Weather in Paris?")]),
            types.Content(role="model", parts=[call]),
            types.Content(
                role="user",
                parts=[types.Part.from_function_response(name="get_weather", response={"result": "sunny"})],
            ),
        ]
        fake.reply(fixture_json("anthropic", "response", "cache_read_and_creation_usage.json"))
        response = client.models.generate_content(model="claude-sonnet-4-5", contents=contents)  # type: ignore[arg-type]
    assert response.text
    assert fake.last.body["messages"][1]["content"][0]["type"] == "tool_use"


def test_validate_refuses_a_typo_and_an_orphan_result_in_the_front_shape(fake: FakeUpstream) -> None:
    orphan = [*HELLO, {"role": "tool", "tool_call_id": "call_9", "content": "sunny"}]
    with proxy("openai-chat", "anthropic", fake.base, validate=True) as origin:
        typo = httpx.post(
            f"{origin}/v1/chat/completions", json={"model": "m", "messages": HELLO, "temprature": 0.2}, headers=KEY
        )
        lone = httpx.post(f"{origin}/v1/chat/completions", json={"model": "m", "messages": orphan}, headers=KEY)
    assert (typo.status_code, lone.status_code) == (400, 400)
    assert typo.json()["error"]["type"] == "invalid_request_error"
    assert "temprature" in typo.json()["error"]["message"]
    assert "orphan_tool_result" in lone.json()["error"]["message"]
    assert fake.received == []


def test_validate_refuses_in_the_anthropic_shape_on_the_anthropic_front(fake: FakeUpstream) -> None:
    with (
        proxy("anthropic", "openai-chat", f"{fake.base}/v1", validate=True) as origin,
        anthropic.Anthropic(base_url=origin, api_key="k", max_retries=0) as client,
        pytest.raises(anthropic.BadRequestError) as refused,
    ):
        client.messages.create(model="m", max_tokens=10, messages=HELLO, extra_body={"temprature": 0.2})
    assert refused.value.body["error"]["type"] == "invalid_request_error"  # type: ignore[index]
    assert "temprature" in refused.value.message


def test_validate_alone_sends_n_2_and_reports_it(fake: FakeUpstream) -> None:
    with proxy("openai-chat", "anthropic", fake.base, validate=True) as origin:
        fake.reply(fixture_json("anthropic", "response", "cache_read_and_creation_usage.json"))
        answer = httpx.post(
            f"{origin}/v1/chat/completions", json={"model": "m", "messages": HELLO, "n": 2}, headers=KEY
        )
    assert answer.status_code == 200
    assert "['n']" in answer.headers["chatcodec-losses"]


def test_on_loss_error_refuses_n_2_where_the_upstream_has_one_answer(fake: FakeUpstream) -> None:
    with proxy("openai-chat", "anthropic", fake.base, on_loss="error") as origin:
        refused = httpx.post(
            f"{origin}/v1/chat/completions", json={"model": "m", "messages": HELLO, "n": 2}, headers=KEY
        )
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert "--on-loss error" in error["message"]
    assert "['n']" in error["message"]
    assert fake.received == []


def test_allow_loss_lets_the_named_kinds_pass_under_on_loss_error(fake: FakeUpstream) -> None:
    allowed = ("default", "metadata", "setting")
    with proxy("openai-chat", "anthropic", fake.base, on_loss="error", allowed_losses=allowed) as origin:
        fake.reply(fixture_json("anthropic", "response", "cache_read_and_creation_usage.json"))
        answer = httpx.post(
            f"{origin}/v1/chat/completions", json={"model": "m", "messages": HELLO, "n": 2}, headers=KEY
        )
    assert answer.status_code == 200


def test_strict_is_validate_with_on_loss_error() -> None:
    config = ServeConfig(api="openai-chat", upstream="anthropic", upstream_url="https://api.anthropic.com", strict=True)
    assert (config.validate, config.on_loss) == (True, "error")
    with pytest.raises(ValueError, match="allowed_losses"):
        ServeConfig(
            api="openai-chat",
            upstream="anthropic",
            upstream_url="https://x",
            allowed_losses=("contnet",),  # type: ignore[arg-type]
        )


def test_the_command_line_takes_the_split_flags() -> None:
    from chatcodec.cli._commands import _parser
    from chatcodec.cli._serve import settings_from
    from chatcodec.serve import _config as config_module

    route = ["--api", "openai-chat", "--upstream", "anthropic", "--upstream-url", "https://api.anthropic.com"]
    checks = ["--validate", "--on-loss", "error", "--allow-loss", "setting", "--allow-loss", "metadata"]
    arguments = _parser().parse_args(["serve", *route, *checks])
    config = ServeConfig(**settings_from(arguments, config_module))
    added = ("default", "required", "metadata", "spelling", "schema", "setting")
    assert (config.validate, config.on_loss, config.allowed_losses) == (True, "error", added)


def _config(*flags: str) -> ServeConfig:
    from chatcodec.cli._commands import _parser
    from chatcodec.cli._serve import settings_from
    from chatcodec.serve import _config as config_module

    route = ["--api", "openai-chat", "--upstream", "anthropic", "--upstream-url", "https://api.anthropic.com"]
    return ServeConfig(**settings_from(_parser().parse_args(["serve", *route, *flags]), config_module))


def test_allow_loss_adds_to_the_default_kinds_and_allow_only_starts_from_none() -> None:
    defaults = ("default", "required", "metadata", "spelling", "schema")
    # with --allow-loss content --allow-loss setting, 16 of 17 ordinary requests were refused over max_tokens
    added = _config("--on-loss", "error", "--allow-loss", "content", "--allow-loss", "setting")
    assert added.allowed_losses == (*defaults, "content", "setting")
    assert _config("--on-loss", "error", "--allow-only", "none").allowed_losses == ()
    assert _config("--on-loss", "error", "--allow-only", "setting").allowed_losses == ("setting",)
    assert _config("--strict", "--allow-only", "none", "--allow-loss", "rule").allowed_losses == ("rule",)


@pytest.mark.parametrize(
    "flags", [["--allow-loss", "setting"], ["--allow-only", "none"], ["--on-loss", "report", "--allow-loss", "content"]]
)
def test_a_loss_flag_without_on_loss_error_is_refused_at_start(
    flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from chatcodec.cli._commands import main

    route = ["--api", "openai-chat", "--upstream", "anthropic", "--upstream-url", "https://api.anthropic.com"]
    assert main(["serve", *route, *flags]) == 64
    assert "only act with --on-loss error" in capsys.readouterr().err


def test_serve_help_lists_what_on_loss_error_counts(capsys: pytest.CaptureFixture[str]) -> None:
    from chatcodec.cli._commands import main

    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for kind in ("content (", "setting (", "rule (", "default (", "required (", "metadata (", "spelling (", "schema ("):
        assert kind in text
