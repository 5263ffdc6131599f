"""``chatcodec serve --upstream openai-chat`` writes for the compatible server its URL
points at, or the one ``--option server=...`` names."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from chatcodec.serve import ServeConfig
from providers.openai_chat.servers_support import assert_valid_for
from providers.openai_chat.test_server_null_extras import VLLM_ANSWER
from serve.harness import FakeUpstream, fixture_json, proxy, serving_fake


@pytest.mark.parametrize(
    ("url", "options", "writer_options"),
    [
        ("https://api.groq.com/openai/v1", {}, {"server": "groq"}),
        ("https://api.deepseek.com", {}, {"server": "deepseek"}),
        ("http://localhost:8000/v1", {}, {}),  # vLLM, SGLang: any host
        ("http://localhost:8000/v1", {"server": "vllm"}, {"server": "vllm"}),
        ("https://api.groq.com/openai/v1", {"server": "openai"}, {"server": "openai"}),  # the option wins
    ],
)
def test_the_upstream_url_or_the_option_names_the_server(
    url: str, options: dict[str, object], writer_options: dict[str, object]
) -> None:
    config = ServeConfig(api="anthropic", upstream="openai-chat", upstream_url=url, options=options)
    assert config.writer_options() == writer_options


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


def test_a_clients_replayed_thinking_reaches_deepseek_in_its_tool_loop(fake: FakeUpstream) -> None:
    """An Anthropic client's thinking goes to DeepSeek as the ``reasoning_content`` it wants back."""
    request = fixture_json("anthropic", "request", "thinking_replay_with_tool_result.json")
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1", options={"server": "deepseek"}) as origin:
        fake.reply(fixture_json("openai-chat", "response", "deepseek_reasoner.json"))
        answer = httpx.post(f"{origin}/v1/messages", json=request, headers={"x-api-key": "k"}, timeout=30)
        assert answer.status_code == 200
    sent = fake.last.body
    steps = [message for message in sent["messages"] if message.get("tool_calls")]
    assert steps
    assert steps[-1]["reasoning_content"].startswith("The user is asking")
    assert_valid_for("deepseek", sent)


@pytest.mark.parametrize(("front", "path"), [("anthropic", "/v1/messages"), ("openai-chat", "/v1/chat/completions")])
def test_a_vllm_answer_passes_with_no_loss_for_its_empty_extras(fake: FakeUpstream, front: str, path: str) -> None:
    """vLLM's ``null`` extras and ``tool_calls: []``, on every answer, are its spelling
    (``providers/openai_chat/test_server_null_extras.py``): no ``chatcodec-losses`` header."""
    body = {"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": "Capital of France?"}]}
    with proxy(front, "openai-chat", f"{fake.base}/v1", options={"server": "vllm"}) as origin:
        fake.reply(VLLM_ANSWER)
        answer = httpx.post(f"{origin}{path}", json=body, headers={"x-api-key": "k", "authorization": "Bearer k"})
    assert answer.status_code == 200, answer.text
    assert "chatcodec-losses" not in answer.headers
    assert "Paris." in answer.text


def test_claude_codes_roles_reach_an_openai_chat_server_as_user_turns_reported(fake: FakeUpstream) -> None:
    """Claude Code's ``ctx`` and ``msg`` turns (vllm-project/vllm#44000) are read as the
    conversion reads them (``tests/test_harness_roles.py``), not refused with a 400."""
    body = {
        "model": "m",
        "max_tokens": 64,
        "messages": [
            {"role": "user", "content": "Fix the test."},
            {"role": "ctx", "content": "The repository uses pytest."},
        ],
    }
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1", options={"server": "vllm"}) as origin:
        fake.reply(VLLM_ANSWER)
        answer = httpx.post(f"{origin}/v1/messages", json=body, headers={"x-api-key": "k"})
    assert answer.status_code == 200, answer.text
    assert [message["role"] for message in fake.last.body["messages"]] == ["user", "user"]
    assert answer.headers["chatcodec-losses"] == "1; $.messages[1].role: ctx role"


def test_the_command_line_passes_its_options_to_the_upstream_writer(monkeypatch: pytest.MonkeyPatch) -> None:
    from chatcodec.cli._commands import main
    from chatcodec.serve import _server as server

    started: list[ServeConfig] = []
    monkeypatch.setattr(server, "run", lambda config, **_: started.append(config))
    arguments = ["serve", "--api", "anthropic", "--upstream", "openai-chat", "--upstream-url", "https://api.groq.com"]
    assert main([*arguments, "--option", "server=deepseek"]) == 0
    assert started[0].writer_options() == {"server": "deepseek"}


def test_a_misspelt_option_names_where_the_gateway_takes_a_wire_field(capsys: pytest.CaptureFixture[str]) -> None:
    """The gateway has no ``extra_fields=``: its refusal of ``--option`` names the caller's body, where a
    field of the front's API is passed on to an upstream of the same API (issue 101)."""
    from chatcodec.cli._commands import main

    arguments = ["serve", "--api", "anthropic", "--upstream", "anthropic", "--upstream-url", "http://127.0.0.1:9"]
    assert main([*arguments, "--option", "top_kk=5"]) != 0
    shown = capsys.readouterr().err
    assert "anthropic takes no option 'top_kk'" in shown
    assert "A wire field to send goes in the caller's request body" in shown
    assert "extra_fields=" not in shown


def test_a_wire_field_in_the_callers_body_reaches_an_upstream_of_the_same_api(fake: FakeUpstream) -> None:
    """What that refusal says is so: the field the caller sent is in the upstream's body."""
    fake.reply(fixture_json("openai-chat", "response", "single_tool_call.json"))
    request = {"model": "m", "messages": [{"role": "user", "content": "Hi"}], "custom_wire_field": {"a": 1}}
    with proxy("openai-chat", "openai-chat", f"{fake.base}/v1") as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json=request, headers={"authorization": "Bearer k"})
    assert answer.status_code == 200, answer.text
    assert fake.last.body["custom_wire_field"] == {"a": 1}
